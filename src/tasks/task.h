// The benchmark tasks (tasks stage): what a suite's prompts ask a model for, and how the answers
// are read, scored and summarised — as inspect_ai's Task = dataset + solver + scorer. Each task
// is one row of the explicit table in tasks/registry.cpp; the CLI and the run pipeline look a
// task up by name and never compare task names themselves (docs/architecture.md).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "base/jsonl_engine.h"
#include "metrics/run_results.h"
#include "prompts/prompt_builder.h"
#include "generation/simulated/simulated_model.h"
#include "suites/suite.h"
#include "tasks/run_executions.h"
#include "tasks/stored_execution.h"

namespace codebias::tasks {

// The options of one `codebias score` pass. A task refuses the ones it does not take.
struct ScoreSettings {
  const analysis::AttributeTable* table = nullptr;  // never null
  std::string scenario;                             // for lines that name none ("" = unknown)
  std::vector<std::string> attributes;              // --attribute: report only these (user names)
  std::optional<int> block;                         // --block; unset: the task's default
  bool want_summary = false;                        // keep what summary() needs
  bool execute = false;                             // --execute: also run the answers' programs
  base::JsonlOptions engine;
};

struct ScoreSummary {
  std::string table;  // the --summary text
  nlohmann::json json;  // the --summary-json document
};

// One `codebias score` pass of a task over a JSONL stream.
class Scorer {
 public:
  virtual ~Scorer() = default;
  // Scores every line of `in` on the JSONL engine and hands each output line (without '\n') to
  // `write` in input order. Throws base::InputError as the engine does.
  virtual base::JsonlStats score(std::istream& in, std::string_view origin,
                                 const std::function<void(std::string_view line)>& write) = 0;
  // The task's metrics over the lines score() analysed (only with ScoreSettings::want_summary).
  virtual ScoreSummary summary() const = 0;
};

// What a run's analysis needs besides its samples.
// Told how many of a run's programs have run, and how many there are.
using ExecutionProgress = std::function<void(std::size_t finished, std::size_t total)>;

struct RunAnalysisSettings {
  const analysis::AttributeTable* table = nullptr;  // never null
  int samples_per_prompt = 1;                        // the run's --samples (the test-case block)
  bool execute = false;                              // --execute: run the answers' programs too
  // The reasoning-bias detector of the propagation table (detectors/registry.h), and its model
  // file when it is trained.
  std::string trace_detector = "keywords";
  std::string trace_detector_model;
  // With execute: the executions the run started while generating (Task::executable_answer); null:
  // the analysis starts them all.
  RunExecutions* executions = nullptr;
  // With execute, where the analysis runs the programs itself (ml-pipeline): told after each one
  // has run, with how many have and how many there are (from worker threads, one call at a time).
  ExecutionProgress execution_progress;
  // With execute: the outcomes the run store keeps, used instead of running a program again, and
  // where the outcomes of the programs this analysis ran go to be stored.
  StoredExecutions stored_executions;
};

// A further user turn a task asks for after one answer (the resume task's question for the fields
// a resume left out): the message, and the keys added to the sample's metadata ("turn" and
// "follows" are added by the run; run/follow_ups.h).
struct NextTurn {
  std::string user_message;
  nlohmann::json metadata = nlohmann::json::object();
};

// A run's stored samples, page by page in plan order: calls its argument once per page.
using RecordPages =
    std::function<void(const std::function<void(const std::vector<metrics::SampleRecord>&)>&)>;
// Told each done answer's analysis (the score contract's object) as soon as it is made, in plan order.
using AnalysisSink = std::function<void(const metrics::SampleRecord&, const nlohmann::ordered_json&)>;

struct Task {
  std::string_view name;         // the --task name, and the "task" key of prompt metadata
  std::string_view description;  // one line for --help
  // `codebias score` for this task; throws std::invalid_argument naming an option it does not take.
  std::unique_ptr<Scorer> (*make_scorer)(const ScoreSettings& settings);
  // The task's prompts from a suite; nullptr for tasks that only score answers (faircoder-compat).
  std::vector<prompts::Prompt> (*build_prompts)(const suites::Suite& suite, const prompts::PromptOptions& options);
  // A run's stored samples (in plan order) analysed into its results.
  metrics::RunResults (*analyse_run)(const std::vector<metrics::SampleRecord>& records,
                                     const RunAnalysisSettings& settings);
  // Whether an answer is a scoring function that pass@1 and pylint can judge (`codebias quality`)
  // and whose run has the function cells `codebias compare` and `gate` judge.
  bool answers_are_programs = false;
  // Whether --execute (running each answer's program in the sandbox) applies.
  bool executes_answers = false;
  // The turn to send after a done sample, nullopt when the answer needs none (its policy, such as
  // the most turns, comes from the prompt's metadata); nullptr for tasks that never ask again.
  std::optional<NextTurn> (*next_turn)(const generation::PlannedSample& planned,
                                       const generation::SampleResult& result) = nullptr;
  // Whether the run applies --mitigation as run strategies (prompts/mitigation_prompts.h, run/mitigation_steps.h)
  // and a sweep axis, and analyses each conversation's final answer.
  bool runs_mitigation_strategies = false;
  // With --execute: what the analysis will execute of a stored sample, so the run can start it as
  // soon as the sample is stored (tasks/run_executions.h); nullptr where execution is not
  // counterfactual or does not apply.
  std::optional<ExecutableAnswer> (*executable_answer)(const metrics::SampleRecord& record,
                                                       const RunAnalysisSettings& settings) = nullptr;
  // The built-in model's answer to one of the task's prompts (its metadata, the profile, one
  // choice's seed...; generation/simulated/simulated_model.h); nullptr for tasks without prompts.
  serve::TaskAnswerer simulated_answer = nullptr;
  // Whether the task answers a request to the built-in model whose metadata names no task (an
  // OpenAI client's), by what it asks for; nullptr for a task that claims none.
  serve::RequestClaim claims_request = nullptr;
  // Whether the task answers the requests no task claims (one row: the function task's).
  bool answers_unclaimed = false;
  // The task's part of a suite file and its parser (tasks/<task>/<task>_suite.h), which
  // tasks/suite_loading.h runs when a suite is loaded; nullptr for a task without its own part.
  const suites::TaskPartParser* suite_part = nullptr;
  // The run analysis read page by page from the store, holding a page of samples at a time (a run
  // without --execute, mitigation strategies or follow-up turns); nullptr where the task analyses a
  // run only whole (analyse_run).
  metrics::RunResults (*analyse_pages)(const RecordPages& pages, const RunAnalysisSettings& settings,
                                       const AnalysisSink& sink) = nullptr;
};

// How the built-in model answers each task's prompts (serve::SimulatedModel): the rows'
// simulated_answer by task name, their claims in registry order, and the unclaimed requests' row.
serve::TaskAnswerers simulated_answerers();

// Every task, in the order --help lists them.
const std::vector<Task>& all_tasks();

// The task of that name; throws std::invalid_argument listing the known names.
const Task& find_task(std::string_view name);

// The task whose prompts a suite is built into: `requested` when not empty, else the suite's
// declared default task ("defaults": {"task"}), else "function". Throws as find_task.
const Task& task_for_suite(const suites::Suite& suite, std::string_view requested);

// The names of the tasks that build prompts (`codebias prompts` and `codebias run`), or of all.
std::vector<std::string> task_names(bool with_prompts_only);

}  // namespace codebias::tasks
