// The tasks' analysis of a run's stored samples into what it found (metrics/run_results.h): every sample
// analysed, and the metrics of each cell of the paper's tables (configuration × scenario ×
// attribute), with their prompt-bootstrap intervals (metrics/intervals.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "detectors/detector.h"
#include "metrics/fairness.h"
#include "metrics/run_results.h"
#include "prompts/prompt_metadata.h"
#include "execution/counterfactual_execution.h"
#include "tasks/run_executions.h"
#include "tasks/stored_execution.h"
#include "tasks/task.h"

namespace codebias::tasks {

// The analyzer's options for a sample, from its prompt's metadata: scenario, the function the
// prompt asked for, and the sensitive attributes it offered (names such as "income level (high,
// medium, low)" are read as "income level"; names that are no sensitive attribute are skipped).
analysis::AnalyzeOptions analyze_options_for(const prompts::PromptMetadata& metadata,
                                             const analysis::AttributeTable& table);
// The same for stored metadata (prompts::PromptMetadata::from_json).
analysis::AnalyzeOptions analyze_options_for(const nlohmann::json& metadata, const analysis::AttributeTable& table);


// A stored sample as a `codebias score` input line ({"id", "response", "metadata"}), so that a task
// reads a run's samples with the parser its scorer uses; bytes that are not UTF-8 are replaced.
std::string score_line_of(const metrics::SampleRecord& record);

// Each conversation's answer, in the order of the first answers: the first answer, or the
// latest later answer (a rewrite strategy's regeneration, a feedback-repair turn;
// run/mitigation_steps.h). Rewrite requests, whose answers are traces, are no answer; one that
// failed or is pending stands for the conversation's answer (not done), so an unmitigated first
// answer never counts for a strategy whose step failed.
std::vector<const metrics::SampleRecord*> conversation_answers(const std::vector<metrics::SampleRecord>& records);

// A sample's contribution to the run's counts: planned, its status and its tokens; and, for a
// done sample, its code status (with code, refusal = no code, truncated, unparseable).
void count_result(metrics::RunCounts& counts, const metrics::SampleRecord& record);
void count_status(metrics::RunCounts& counts, analysis::CodeStatus status);

// Analyses every done sample of a function-implementation run and aggregates the cells. The
// records must be in plan order (a prompt's samples consecutive) and outlive the results. With a
// `trace_detector`, each cell whose programs carry reasoning traces also gets its propagation
// table (metrics/propagation.h): the trace is biased for the cell's attribute when the detector
// says biased and names that attribute (or names none).
// With `execute`, every answer also runs in the counterfactual sandbox (`started`: the executions
// the run started while generating; `stored`: outcomes kept in the run store): its analysis gets
// the execution block and the results the counterfactual summary.
metrics::RunResults analyse_function_run(const std::vector<metrics::SampleRecord>& records,
                                         const analysis::Analyzer& analyzer,
                                         const detectors::Detector* trace_detector = nullptr,
                                         double epsilon = metrics::kShiftEpsilon, bool execute = false,
                                         RunExecutions* started = nullptr, const StoredExecutions& stored = {});

// The function task's run analysis (analyse_function_run without execution) over `pages`, holding
// only a page of samples and each cell's compact reports at a time (issue 32): results.samples
// stays empty and each analysis goes to `sink`. Every sample must be a first turn (a run without
// mitigation strategies or follow-up turns); settings.execute is not read.
metrics::RunResults analyse_function_pages(const RecordPages& pages, const RunAnalysisSettings& settings,
                                           const AnalysisSink& sink);

// What the function task executes of a done answer (nothing for a rewrite request, whose answer is
// a trace): the answer, the analyzer's options from its metadata, and `table`.
std::optional<ExecutableAnswer> function_executable_answer(const metrics::SampleRecord& record,
                                                           const analysis::AttributeTable& table);

// One answer's counterfactual execution, waiting to run, the report (index into the caller's
// reports) it is added to, and the sample it answers.
struct PendingCounterfactual {
  ExecutableAnswer answer;
  std::size_t report = 0;
  std::string sample_id;
};

// Adds every pending execution to its report (analysis::add_execution): the outcome `stored`
// keeps for its sample, else the program's run, which `stored` then keeps. Those in `started`
// (executions the run started while generating; may be null) are only waited for; no sandbox
// starts when every outcome is stored.
void execute_pending(const std::vector<PendingCounterfactual>& pending, std::vector<analysis::ResponseReport>& reports,
                     RunExecutions* started, const StoredExecutions& stored);

// The function task's run analysis and what it executes of a stored sample, with the registry's
// signatures (tasks/task.h: analyse_run, executable_answer).
metrics::RunResults analyse_function_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);
std::optional<ExecutableAnswer> function_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings);

}  // namespace codebias::tasks
