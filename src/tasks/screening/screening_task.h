// The candidate-screening tasks (BAD; docs/screening.md): scorers, run analyses, the resume task's follow-up turn and their registry rows.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_resume_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_cat_scorer(const ScoreSettings& settings);
metrics::RunResults analyse_resume_samples(const std::vector<metrics::SampleRecord>& records,
                                           const RunAnalysisSettings& settings);
metrics::RunResults analyse_cat_samples(const std::vector<metrics::SampleRecord>& records,
                                        const RunAnalysisSettings& settings);
// The resume task's follow-up turn: the fields the answer left out, while the prompt's
// follow-up policy allows another turn.
std::optional<NextTurn> resume_next_turn(const generation::PlannedSample& planned, const generation::SampleResult& result);
// The rows of tasks/registry.cpp.
Task resume_task_row();
Task cat_task_row();

}  // namespace codebias::tasks
