// The built-in tasks' entry points, for the table in tasks/registry.cpp (tasks stage).
#pragma once

#include <memory>

#include "tasks/task.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_function_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_faircoder_compat_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_testcase_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_pipeline_scorer(const ScoreSettings& settings);

// tasks/run_analysis.h with the registry's signature.
metrics::RunResults analyse_function_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);
metrics::RunResults analyse_testcase_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);
metrics::RunResults analyse_pipeline_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);

// tasks/screening_task_stub.cpp: throw std::logic_error("not wired yet") until the screening
// analysis is wired (the resume and cat rows).
std::unique_ptr<Scorer> make_screening_scorer_stub(const ScoreSettings& settings);
metrics::RunResults analyse_screening_samples_stub(const std::vector<metrics::SampleRecord>& records,
                                                   const RunAnalysisSettings& settings);

}  // namespace codebias::tasks
