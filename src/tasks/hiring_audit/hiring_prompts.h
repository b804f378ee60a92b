// The hiring-audit prompts (docs/hiring-audit.md, "Designs"): each résumé of the rate and advance
// designs under a name of every sex x race/ethnicity group; the pick design shows one résumé of
// each group at once, all of one qualification level, in a cyclic Latin square so every group
// holds every position once. Names are chosen from the seed; every choice is in the metadata.
#pragma once

#include <vector>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"

namespace codebias::tasks::hiring {

// Throws std::invalid_argument for an unknown --design, std::runtime_error for a suite without
// a valid hiring-audit part.
std::vector<prompts::Prompt> build_hiring_prompts(const suites::Suite& suite, const prompts::PromptOptions& options);

}  // namespace codebias::tasks::hiring
