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

// The candidate-screening tasks (BAD; tasks/screening/screening_task.cpp).
std::unique_ptr<Scorer> make_resume_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_cat_scorer(const ScoreSettings& settings);
metrics::RunResults analyse_resume_samples(const std::vector<metrics::SampleRecord>& records,
                                           const RunAnalysisSettings& settings);
metrics::RunResults analyse_cat_samples(const std::vector<metrics::SampleRecord>& records,
                                        const RunAnalysisSettings& settings);
// The resume task's follow-up turn: the fields the answer left out, while the prompt's
// follow-up policy allows another turn.
std::optional<NextTurn> resume_next_turn(const generation::PlannedSample& planned, const generation::SampleResult& result);

// The decision-function task (Solar, Huang et al.; tasks/decision/decision_task.cpp).
metrics::RunResults analyse_decision_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);

// What the function and decision tasks execute of a stored sample (Task::executable_answer).
std::optional<ExecutableAnswer> function_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings);
std::optional<ExecutableAnswer> decision_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings);

}  // namespace codebias::tasks
