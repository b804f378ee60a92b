// Placeholders for the resume and cat tasks' scorer and run analysis, so the registry rows (and
// `codebias prompts --task resume|cat`) exist before the analysis is wired. The integrator replaces
// this file.
#include <stdexcept>

#include "tasks/builtin_tasks.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_screening_scorer_stub(const ScoreSettings&) {
  throw std::logic_error("not wired yet");
}

metrics::RunResults analyse_screening_samples_stub(const std::vector<metrics::SampleRecord>&,
                                                   const RunAnalysisSettings&) {
  throw std::logic_error("not wired yet");
}

}  // namespace codebias::tasks
