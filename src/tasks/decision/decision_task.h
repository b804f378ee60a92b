// The decision-function task (Solar, Huang et al.; docs/counterfactual.md): run analysis, what it executes, its registry row.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {

metrics::RunResults analyse_decision_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);
std::optional<ExecutableAnswer> decision_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings);
// The row of tasks/registry.cpp.
Task decision_task_row();

}  // namespace codebias::tasks
