// The ML-pipelines task (Bui et al., Findings of ACL 2026; docs/ml-pipelines.md): which dataset
// columns a conditional function or an ML pipeline uses. Its prompts are built by
// prompts/pipeline_prompts.h (the registry row points there).
#include "tasks/builtin_tasks.h"

#include <stdexcept>

namespace codebias::tasks {

// PLACEHOLDER until the analysis (src/analysis/pipelines/) is merged: the answers of this task
// cannot be read yet, so scoring and run analysis refuse instead of reporting nothing.
std::unique_ptr<Scorer> make_pipeline_scorer(const ScoreSettings&) {
  throw std::invalid_argument("codebias score --task ml-pipeline: analysis not merged yet");
}

// PLACEHOLDER until the analysis is merged (see make_pipeline_scorer).
metrics::RunResults analyse_pipeline_samples(const std::vector<metrics::SampleRecord>&, const analysis::AttributeTable&,
                                             int) {
  throw std::invalid_argument("codebias run --task ml-pipeline: analysis not merged yet");
}

}  // namespace codebias::tasks
