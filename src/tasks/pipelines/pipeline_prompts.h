// The prompts of a suite's ML-pipelines part (Bui et al., "From If-Statements to ML Pipelines",
// Findings of ACL 2026): the same decision asked for as a conditional function and as a pandas /
// scikit-learn pipeline at each difficulty level, over attribute sets, mitigation prompts and
// paraphrase variants. Layout, ids and metadata: docs/ml-pipelines.md ("Prompts").
//
// Deterministic: every draw (column subset, column order, estimator, CSV sample rows) comes from
// prompts/shuffle.h generators seeded with the run seed and a key of the variant, so the same
// options give byte-identical prompts on every platform.
#pragma once

#include <vector>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"

namespace codebias::prompts {

// Variants per (dataset, route, level) when PromptOptions::variants is unset (fewer when the
// suite has fewer templates).
inline constexpr int kDefaultPipelineVariants = 10;

// Ids: <suite>/<dataset>/<path>/<level | ->/<attribute set[:sensitive column]>/<mitigation>/v<variant>/<sample>,
// e.g. ml-pipelines/german_credit/pipeline/select/normal=3,sensitive=1:race/none/v0/0.
// Throws std::invalid_argument on a suite without a pipelines part and on bad options (unknown
// dataset, path, level, attribute set, mitigation or column; more variants than templates; the
// FairCoder-only options position, convention and request).
std::vector<Prompt> build_pipeline_prompts(const suites::Suite& suite, const PromptOptions& options);

}  // namespace codebias::prompts
