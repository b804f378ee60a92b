// The unit-test-generation task's prompts (FairCoder §2.2; ids and metadata in docs/suites.md,
// "Prompts"): the registry row's build_prompts.
#pragma once

#include <vector>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"

namespace codebias::prompts {

// Throws std::invalid_argument on bad options (unknown attribute, position, style, convention or
// request; samples < 1; a suite without a testcase part; options of other tasks).
std::vector<Prompt> build_testcase_prompts(const suites::Suite& suite, const PromptOptions& options);

}  // namespace codebias::prompts
