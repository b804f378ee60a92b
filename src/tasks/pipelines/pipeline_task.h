// The ML-pipeline task (docs/ml-pipelines.md): its scorer, run analysis and registry row.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_pipeline_scorer(const ScoreSettings& settings);
metrics::RunResults analyse_pipeline_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);
// The row of tasks/registry.cpp.
Task pipeline_task_row();

}  // namespace codebias::tasks
