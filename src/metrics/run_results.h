// What a run found: every sample analysed, and what the run's task computed over them (for the
// function task, the metrics of each cell of the paper's tables: configuration × scenario ×
// attribute). The task's run analysis (tasks/task.h, analyse_run) computes it from the stored
// samples, so a report can be rebuilt at any time from a run directory, including a partial or
// resumed one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/findings/report.h"
#include "generation/sample.h"
#include "metrics/counterfactual_metrics.h"
#include "metrics/fairness.h"
#include "metrics/intervals.h"
#include "metrics/mitigation.h"
#include "metrics/propagation.h"

namespace codebias::reports {
class TaskReport;
}  // namespace codebias::reports

namespace codebias::metrics {

// One stored sample: what was asked and what came back.
struct SampleRecord {
  generation::PlannedSample planned;
  generation::SampleResult result;
};

// The function-implementation metrics of one table cell. Samples are grouped per prompt into
// FairCoder's blocks (one block per prompt, as many responses as came back).
struct FunctionCell {
  std::string config;     // sweep label, "" when the run has one configuration
  std::string scenario;   // job, edu, med
  std::string attribute;  // the sensitive attribute the prompts carried
  int n_prompts = 0;
  AttributeMetrics metrics;
  // Metrics undefined on the data, or in every resample, have none (metrics/intervals.h).
  std::vector<MetricInterval> intervals;
  // Reasoning → code (ProbeDebias Figure 4); set when some program of the cell carried a trace.
  std::optional<Propagation> propagation;
};

// How the samples ended. Every planned sample is in exactly one of pending, done, errors; the
// analysis counts split `done`.
struct RunCounts {
  std::int64_t planned = 0;
  // Planned samples that continue a conversation (turn 2 and later: rewrites, repairs, questions
  // for missing fields); planned − follow_up_turns is the number of conversations.
  std::int64_t follow_up_turns = 0;
  std::int64_t done = 0;
  std::int64_t errors = 0;
  std::int64_t pending = 0;
  std::int64_t with_code = 0;    // done, with code the analyzer measured
  std::int64_t refusals = 0;     // done, no code at all: the model declined or answered in prose
  std::int64_t truncated = 0;    // done, code cut off
  std::int64_t unparseable = 0;  // done, code that does not parse
  std::int64_t answers_cut = 0;  // done, answer stored cut to the run's --max-answer-bytes
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  std::int64_t reasoning_tokens = 0;
  std::int64_t with_reasoning = 0;  // done, with a reasoning trace split off the answer
  // Of reasoning_tokens: estimated from the trace's length where the server reported none.
  std::int64_t reasoning_tokens_estimated = 0;
};

// One analysed sample, in plan order.
struct AnalysedSample {
  const SampleRecord* record = nullptr;
  nlohmann::ordered_json analysis;  // the score contract's object; null when not done
};

// One rate's cell of a task's results and the n it rests on, for the small-groups warning
// (reports/small_groups.h).
struct RatedCell {
  std::string cell;
  int n = 0;
  std::optional<int> n_prompts;  // the prompts the cell's n is over, where the task's cells have them
};

// A rated cell's name from its parts ("config / area"), empty parts left out.
std::string rated_cell_label(std::initializer_list<std::string> parts);

// The cells whose rates a task's report shows, and what their n counts ("answers with code").
struct RatedCells {
  std::string unit;
  std::string n_name = "n";  // the cell's key for n in summary.json's small_groups
  std::vector<RatedCell> cells;
};

// What a run's task computed, as the task's run analysis (tasks/task.h, analyse_run) made it.
// The shared stages reach it only through these functions: its report sections, and what the
// small-groups warning, the run's cost, `compare` and `gate` ask of it.
class TaskResults {
 public:
  virtual ~TaskResults() = default;

  // The task's report sections (reports/task_report.h), defined with the task's report code.
  virtual std::unique_ptr<reports::TaskReport> report() const = 0;
  // The cells the small-groups warning checks; nullopt where the task rates no cells.
  virtual std::optional<RatedCells> rated_cells() const { return std::nullopt; }
  // The function cells `compare`, `gate` and the cost per biased finding judge; nullptr where the
  // task has none.
  virtual const std::vector<FunctionCell>* function_cells() const { return nullptr; }

 protected:
  TaskResults() = default;
  TaskResults(const TaskResults&) = default;
  TaskResults(TaskResults&&) = default;
  TaskResults& operator=(const TaskResults&) = default;
  TaskResults& operator=(TaskResults&&) = default;
};

// The LL144 audit of generated hiring functions run on an applicant pool (tasks/hiring_audit/
// code_audit.h), rendered by the tasks stage so the function report only places it.
struct CodeAuditSection {
  nlohmann::ordered_json audit;    // summary.json "audit": one object per configuration
  nlohmann::ordered_json context;  // summary.json "audit_summary"
  std::string markdown;
  std::string html;
  std::string csv;  // audit.csv: a row per table row
};

struct RunResults {
  RunCounts counts;
  std::vector<AnalysedSample> samples;
  // The task's own results, made by its run analysis; null until a task has analysed the run.
  std::shared_ptr<const TaskResults> task;

  // The task's function cells (TaskResults::function_cells). Throws std::logic_error for a task
  // without them.
  const std::vector<FunctionCell>& function_cells() const;
};

// One prompt's samples within one cell, in sample-index order of the plan.
struct PromptSamples {
  std::string prompt_id;
  std::vector<int> sample_indices;               // PlannedSample::sample_index of each report
  std::vector<analysis::ResponseReport> reports;  // done samples only
};

// One table cell with its samples per prompt, prompts in plan order.
struct CellSamples {
  std::string config;
  std::string scenario;
  std::string attribute;
  std::vector<std::string> groups;  // canonical order (attribute table)
  std::vector<PromptSamples> prompts;
};

// A finished (or partial) run read back from its directory (run/load_run.h) for the commands
// that judge runs after the fact: its cells as its report shows them, and the same cells sample
// by sample, so that two runs can be paired prompt by prompt and sample by sample.
struct LoadedRun {
  std::filesystem::path dir;
  nlohmann::json provenance;
  std::vector<SampleRecord> records;
  RunResults results;              // the run's own cells, as its report shows them
  std::vector<CellSamples> cells;  // the same cells, in results.function_cells() order, sample by sample

  LoadedRun() = default;
  // results points into records: a copy would point into the original.
  LoadedRun(const LoadedRun&) = delete;
  LoadedRun& operator=(const LoadedRun&) = delete;
  LoadedRun(LoadedRun&&) = default;
  LoadedRun& operator=(LoadedRun&&) = default;
};

// The cell label used in tables and messages: "scenario/attribute", prefixed with "config/" in
// a sweep.
std::string cell_label(const std::string& config, const std::string& scenario, const std::string& attribute);

}  // namespace codebias::metrics
