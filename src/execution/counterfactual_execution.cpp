// Counterfactual execution in the sandbox (quality stage): counterfactual_driver.py serves
// responses, each in a process of its own that streams one line per call; this side sends the
// jobs, turns the lines into outcomes and accounts for the calls a killed process never reported.
#include "execution/counterfactual_execution.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "analysis/counterfactual/function_inputs.h"
#include "analysis/response/response.h"
#include "base/builtin_data.h"
#include "execution/driver_output.h"
#include "execution/java_code.h"
#include "execution/python_code.h"
#include "execution/typescript_erasure.h"

namespace codebias::quality {
namespace {

using nlohmann::json;
using analysis::CallOutcome;
using analysis::ExecutionStatus;
using analysis::OutcomeKind;

constexpr std::string_view kCaseMark = "CODEBIAS-CASE ";
constexpr std::string_view kBasesMark = "CODEBIAS-BASES ";
constexpr const char* kPoolAttribute = "pool";  // the driver's calls on the applicant pool

json attributes_spec(const std::vector<const analysis::AttributeSpec*>& tested, std::string_view scenario) {
  json attributes = json::array();
  for (const auto* spec : tested) {
    json groups = json::array();
    for (const auto& group : spec->groups) {
      json entry = {{"name", group.name}, {"synonyms", group.synonyms}};
      if (group.age_years) entry["age_years"] = *group.age_years;
      groups.push_back(std::move(entry));
    }
    json names = json::array();
    for (const auto& pattern : spec->names) {
      const bool applies = pattern.scenarios.empty() ||
                           std::find(pattern.scenarios.begin(), pattern.scenarios.end(), scenario) != pattern.scenarios.end();
      if (applies) names.push_back(pattern.tokens);
    }
    attributes.push_back({{"key", spec->key}, {"groups", std::move(groups)}, {"names", std::move(names)}});
  }
  return attributes;
}

OutcomeKind kind_of(const std::string& name) {
  for (OutcomeKind kind : {OutcomeKind::value, OutcomeKind::label, OutcomeKind::non_numeric, OutcomeKind::crash,
                           OutcomeKind::timeout, OutcomeKind::refused})
    if (name == analysis::to_string(kind)) return kind;
  return OutcomeKind::crash;
}

CallOutcome outcome_from(const json& o) {
  CallOutcome outcome;
  outcome.kind = kind_of(o.value("kind", ""));
  switch (outcome.kind) {
    case OutcomeKind::value:
      outcome.value = o.value("value", 0.0);
      outcome.from_bool = o.value("returned", "") == "bool";
      break;
    case OutcomeKind::label: outcome.detail = o.value("label", ""); break;
    case OutcomeKind::non_numeric: outcome.detail = o.value("type", ""); break;
    case OutcomeKind::crash: outcome.detail = o.value("error_type", ""); break;
    case OutcomeKind::refused: outcome.detail = o.value("what", ""); break;
    case OutcomeKind::timeout: outcome.skipped = o.value("skipped", false); break;
  }
  return outcome;
}

// Lays out each tested attribute's calls from the driver's CODEBIAS-BASES line ({attribute:
// number of bases}; the driver plans how many each attribute needs), every call a timeout until
// reported: a call the process never reported was cut off by the sandbox's wall clock.
void lay_out_bases(const json& counts, analysis::ResponseExecution& execution) {
  CallOutcome unreported;
  unreported.kind = OutcomeKind::timeout;
  for (auto& outcomes : execution.attributes) {
    const auto count = counts.value(outcomes.attribute, json());
    if (!count.is_number_unsigned()) continue;
    outcomes.by_base.assign(count.get<std::size_t>(), std::vector<CallOutcome>(outcomes.groups.size(), unreported));
  }
  if (const auto pool = counts.value(kPoolAttribute, json()); pool.is_number_unsigned())
    execution.pool.assign(pool.get<std::size_t>(), unreported);
}

// Reads the streamed base counts and calls into `execution.attributes`.
void read_calls(const std::string& output, analysis::ResponseExecution& execution) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(kBasesMark, 0) == 0) {
      const json counts = json::parse(line.substr(kBasesMark.size()), nullptr, false);
      if (counts.is_object()) lay_out_bases(counts, execution);
      continue;
    }
    if (line.rfind(kCaseMark, 0) != 0) continue;
    const json call = json::parse(line.substr(kCaseMark.size()), nullptr, false);
    if (!call.is_object()) continue;
    const std::string attribute = call.value("attribute", "");
    const long base = call.value("base", -1L), group = call.value("group", -1L);
    if (attribute == kPoolAttribute && base >= 0 && static_cast<std::size_t>(base) < execution.pool.size()) {
      execution.pool[static_cast<std::size_t>(base)] = outcome_from(call.value("outcome", json::object()));
      continue;
    }
    for (auto& outcomes : execution.attributes) {
      if (outcomes.attribute != attribute || base < 0 || group < 0 ||
          static_cast<std::size_t>(base) >= outcomes.by_base.size() ||
          static_cast<std::size_t>(group) >= outcomes.groups.size())
        continue;
      outcomes.by_base[static_cast<std::size_t>(base)][static_cast<std::size_t>(group)] =
          outcome_from(call.value("outcome", json::object()));
    }
  }
}

// The execution a frame describes (its calls laid out by the driver's CODEBIAS-BASES line: the
// frame's own, or for a planned job the plan's).
void fill_execution(SandboxResult& run, const SandboxLimits& limits, analysis::ResponseExecution& execution) {
  const double cpu_limit = limits.cpu_seconds > 0 ? limits.cpu_seconds
                                                  : std::ceil(std::chrono::duration<double>(limits.wall_time).count());
  classify_end(run, cpu_limit, limits.memory_bytes > 0);
  execution.wall_seconds = run.wall_seconds;
  read_calls(run.stdout_text, execution);
  const std::optional<json> report = driver_result(run.stdout_text);
  if (!report) {
    // The process ended before the driver reported. With calls reported, the wall clock stopped
    // a call (its outcome stays timeout); with none, the response failed as a whole.
    const bool some_reported = run.stdout_text.find(kCaseMark) != std::string::npos;
    execution.status = some_reported ? ExecutionStatus::ran : ExecutionStatus::failed;
    execution.reason = run.timed_out ? "timeout" : run.memory_exceeded ? "memory" : run.cpu_exceeded ? "cpu_time" : "no_result";
    execution.error = clip_message(run.describe() + ": " + stderr_tail(run.stderr_text));
    if (!some_reported) {
      execution.attributes.clear();
      execution.pool.clear();
    }
    return;
  }
  execution.function = report->value("function", "");
  if (report->contains("error_type")) {
    execution.status = ExecutionStatus::failed;
    execution.reason = report->value("error_type", "");
    execution.stage = report->value("stage", "");
    execution.error = clip_message(report->value("error", ""));
    execution.attributes.clear();
    execution.pool.clear();
    return;
  }
  execution.status = ExecutionStatus::ran;
  const json read = report->value("read", json::array());
  for (auto& outcomes : execution.attributes)
    outcomes.read = std::find(read.begin(), read.end(), json(outcomes.attribute)) != read.end();
}

// A response that ran no call: no outcomes, and why.
void mark_ended(analysis::ResponseExecution& execution, ExecutionStatus status, std::string reason, std::string error) {
  execution.status = status;
  execution.reason = std::move(reason);
  execution.error = clip_message(error);
  execution.attributes.clear();
  execution.pool.clear();
}

constexpr std::string_view kPlanMark = "CODEBIAS-PLAN ";

// The object on the last line of `output` that starts with `mark`.
std::optional<json> marked_line(const std::string& output, std::string_view mark) {
  std::optional<json> found;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(mark, 0) != 0) continue;
    json value = json::parse(line.substr(mark.size()), nullptr, false);
    if (value.is_object()) found = std::move(value);
  }
  return found;
}

// The code a response's function runs from: its Python (execution/python_code.h), else its
// JavaScript or its TypeScript with the types erased, else its Java, read by the analyzer. The
// language is unknown when nothing runs (not_run_reason).
struct RunnableCode {
  analysis::Language language = analysis::Language::unknown;
  std::string code;
  std::optional<analysis::FunctionInputs> inputs;  // what the function reads; none when no function
  std::string unit;                                // Java: the compilation unit's name
  std::string not_run_reason;
  std::string error;  // why TypeScript could not be made JavaScript
};

RunnableCode choose_runnable_code(std::string_view response, const std::string& function) {
  using analysis::Language;
  RunnableCode chosen;
  const PythonCodeChoice python = choose_python_code(response, function);
  if (python.code) {
    chosen.language = Language::python;
    chosen.code = *python.code;
    chosen.inputs = analysis::read_function_inputs(chosen.code, Language::python, function);
    return chosen;
  }
  if (python.not_python_reason == "no_code") {
    chosen.not_run_reason = python.not_python_reason;
    return chosen;
  }
  std::vector<analysis::CodeBlock> blocks = analysis::extract_code_blocks(analysis::split_reasoning(response));
  std::string last_language;
  std::vector<std::string> scripts, java;
  for (const auto& block : blocks) {
    const Language language = block.language == Language::unknown ? analysis::detect_language(block.code) : block.language;
    last_language = analysis::to_string(language);
    if (language == Language::javascript) scripts.push_back(block.code);
    if (language == Language::java) java.push_back(block.code);
    if (language != Language::typescript) continue;
    ErasedTypeScript erased = erase_typescript(block.code);
    if (erased.unsupported.empty())
      scripts.push_back(std::move(erased.javascript));
    else
      chosen.error = "TypeScript that erasing types cannot run: " + erased.unsupported;
  }
  if (scripts.empty() && java.empty()) {
    chosen.not_run_reason = chosen.error.empty() ? "no_runtime:" + last_language : "unsupported_typescript";
    return chosen;
  }
  // Of the blocks in the language that runs, the last that defines the requested function, else
  // the last that defines one, else the last.
  chosen.language = scripts.empty() ? Language::java : Language::javascript;
  const std::vector<std::string>& candidates = scripts.empty() ? java : scripts;
  auto found = candidates.end() - 1;
  const std::string wanted = analysis::normalize_literal(function);
  for (const bool by_name : {true, false}) {
    if (by_name && wanted.empty()) continue;
    for (auto it = candidates.rbegin(); it != candidates.rend() && !chosen.inputs; ++it) {
      auto inputs = analysis::read_function_inputs(*it, chosen.language, function);
      if (!inputs || (by_name && analysis::normalize_literal(inputs->function) != wanted)) continue;
      chosen.inputs = std::move(inputs);
      found = std::prev(it.base());
    }
  }
  chosen.code = *found;
  if (chosen.language == Language::java) {
    // A persona class often comes in a block of its own: the other blocks' types join the unit.
    std::vector<std::string> others;
    for (auto it = candidates.begin(); it != candidates.end(); ++it)
      if (it != found) others.push_back(*it);
    JavaUnit unit = java_unit(chosen.code, others);
    chosen.code = std::move(unit.code);
    chosen.unit = std::move(unit.name);
    if (chosen.inputs) {  // read again: the other blocks' classes declare the fields' types
      if (auto inputs = analysis::read_function_inputs(chosen.code, Language::java, chosen.inputs->function))
        chosen.inputs = std::move(inputs);
      chosen.code += missing_persona_class(chosen.code, *chosen.inputs);
    }
  }
  return chosen;
}

// The Python fork server (fork_server.py) that runs Python answers and plans the calls of others.
SandboxRequest python_server_request(const CounterfactualOptions& options) {
  SandboxRequest request = python_fork_server_request(
      options.python, function_driver_program(fork_server_program(data::builtin_counterfactual_driver_py())),
      options.limits, options.temp_root, options.isolate_network);
  request.env = {{"PYTHONHASHSEED", "0"}};
  return request;
}

// A node process that serves JavaScript answers one after another (counterfactual_runner.js), each
// in a vm context of its own.
SandboxRequest javascript_server_request(const CounterfactualOptions& options) {
  SandboxRequest request = server_request(options.limits, options.temp_root, options.isolate_network);
  request.program = options.node;
  request.args = {"--max-old-space-size=" + std::to_string(options.node_heap_mib), "--experimental-vm-modules",
                  "--no-warnings", "runner.js"};
  request.files = {{"runner.js", std::string(data::builtin_counterfactual_runner_js())}};
  // V8's own threads fork; the generated code reaches no process API.
  request.limits.memory_bytes = options.node_address_space_bytes;
  return request;
}

// A JVM that serves Java answers one after another (CounterfactualRunner.java), each compiled in
// memory and loaded by a class loader of its own.
SandboxRequest java_server_request(const CounterfactualOptions& options) {
  SandboxRequest request = server_request(options.limits, options.temp_root, options.isolate_network);
  request.program = options.java;
  // The source launcher compiles the runner in memory; C1 alone keeps a safepoint in every loop,
  // where a call past its time is stopped. No perf-data file is written.
  request.args = {"-Xmx" + std::to_string(options.java_heap_mib) + "m", "-Xss1m", "-XX:+UseSerialGC",
                  "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:-UsePerfData",
                  "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=32m", "-XX:MaxMetaspaceSize=128m",
                  "-Djava.security.manager=allow", "CounterfactualRunner.java"};
  request.files = {{"CounterfactualRunner.java", std::string(data::builtin_counterfactual_runner_java())}};
  request.env = {{"MALLOC_ARENA_MAX", "2"}};  // glibc's arena per thread would reserve past RLIMIT_AS
  // Forking is allowed for the JVM's own threads; the security manager refuses processes.
  request.limits.memory_bytes = options.java_address_space_bytes;
  return request;
}

constexpr std::string_view kServerJobEndMark = "CODEBIAS-JOB ";

// Where a runner's end line of a job starts in `output` (complete, with its newline); npos before.
// The runner alone writes to its server's stdout: the answer's code cannot reach it.
std::size_t job_end_line(const std::string& output) {
  std::size_t at = output.rfind(kServerJobEndMark);
  if (at == std::string::npos || (at > 0 && output[at - 1] != '\n')) return std::string::npos;
  return output.find('\n', at) == std::string::npos ? std::string::npos : at;
}

unsigned server_count(unsigned servers) { return servers ? servers : std::max(1U, std::thread::hardware_concurrency()); }

}  // namespace

std::vector<const analysis::AttributeSpec*> tested_attributes(const analysis::AttributeTable& table,
                                                              const analysis::AnalyzeOptions& options) {
  // A prompt that offers attributes (or a score line that lists them) names every attribute its
  // answer could read; varying another only finds what a look-alike field happens to hold. With
  // none named, the scenario's sensitive attributes are tested.
  const bool named = !options.attributes.empty() || options.only_listed;
  std::vector<const analysis::AttributeSpec*> tested;
  for (const auto& spec : table.specs()) {
    const bool offered = std::find(options.attributes.begin(), options.attributes.end(), spec.key) != options.attributes.end();
    if (named ? offered : spec.sensitive_in(options.scenario)) tested.push_back(&spec);
  }
  return tested;
}

// A JVM costs about 2 s of CPU to start (the runner compiled, the compiler warmed up) and then
// about 0.1 s per answer, and Java answers are a small share of most runs: one JVM serves the
// Java answers of up to four workers.
CounterfactualExecutor::CounterfactualExecutor(CounterfactualOptions options, unsigned servers)
    : options_(std::move(options)),
      python_servers_(python_server_request(options_), server_count(servers)),
      javascript_servers_(javascript_server_request(options_), server_count(servers)),
      java_servers_(java_server_request(options_), std::max(1U, server_count(servers) / 4)) {}

CounterfactualExecutor::~CounterfactualExecutor() = default;

std::optional<SandboxResult> CounterfactualExecutor::exchange(const json& job, analysis::ResponseExecution& execution) {
  ForkServerReply reply = run_on_fork_server(python_servers_, job, options_.limits.wall_time);
  execution.isolation = reply.network == NetworkIsolation::network_namespace ? "network_namespace" : "python_guard";
  if (!reply.frame)
    mark_ended(execution, ExecutionStatus::failed, reply.server_timed_out ? "timeout" : "no_result",
               "the execution server stopped: " + stderr_tail(reply.server_error));
  return std::move(reply.frame);
}

SandboxResult CounterfactualExecutor::run_on_server(ServerPool& servers, const json& job) {
  ServerPool::Lease lease = servers.borrow();
  SandboxedProcess& server = lease.server();
  SandboxResult run;
  run.network = server.network();
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + options_.limits.wall_time;
  std::string output;
  std::size_t end_line = std::string::npos;
  for (bool open = server.write(job.dump() + "\n", deadline); open && end_line == std::string::npos;) {
    open = server.read(output, deadline);
    end_line = job_end_line(output);
  }
  if (end_line == std::string::npos) {  // past the answer's wall time, or the server ended
    lease.discard();
    run.timed_out = std::chrono::steady_clock::now() >= deadline;
    run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.stdout_text = std::move(output);
    run.stderr_text = server.stderr_tail();
    return run;
  }
  json end = json::parse(output.substr(end_line + kServerJobEndMark.size()), nullptr, false);
  if (!end.is_object()) end = json::object();
  output.resize(end_line);
  run.stdout_text = std::move(output);
  // The server reports the status a process of the answer's own would have exited with, when not 0
  // (the runner failed on the job), and what that process would have written to stderr.
  run.exit_code = end.value("exit", 0);
  run.stderr_text = end.value("stderr", "");
  run.wall_seconds = end.value("wall_seconds", 0.0);
  run.cpu_seconds = end.value("cpu_seconds", 0.0);
  // A call that would not stop, or work the answer left behind, may still run: the server goes.
  if (!end.value("clean", false)) lease.discard();
  return run;
}

analysis::ResponseExecution CounterfactualExecutor::execute(const CounterfactualProgram& program,
                                                            const analysis::AttributeTable& table) {
  analysis::ResponseExecution execution;
  const RunnableCode chosen = choose_runnable_code(program.response, program.options.function);
  if (chosen.language == analysis::Language::unknown) {
    execution.reason = chosen.not_run_reason;
    execution.error = chosen.error;
    return execution;
  }
  const auto tested = tested_attributes(table, program.options);
  json test = json::array();
  for (const auto* spec : tested) {
    test.push_back(spec->key);
    analysis::AttributeOutcomes outcomes;
    outcomes.attribute = spec->key;
    for (const auto& group : spec->groups) outcomes.groups.push_back(group.name);
    execution.attributes.push_back(std::move(outcomes));  // its calls: the driver's CODEBIAS-BASES line
  }
  json domains = json::object();
  for (const auto& [field, values] : program.domains) domains[field] = values;
  json spec = {{"function", program.options.function}, {"seed", options_.seed}, {"bases", options_.bases},
               {"call_seconds", options_.call_seconds}, {"max_timeouts", options_.max_timeouts},
               {"attributes", attributes_spec(tested, program.options.scenario)}, {"test", test},
               {"domains", domains}, {"not_attribute_tokens", table.not_attribute_tokens()}};
  if (!program.pool.is_null()) spec["pool"] = {{"seed", options_.seed}, {"members", program.pool}};
  // The driver plans the calls from what the analyzer read. JavaScript and Java ("plan_only"): it
  // runs nothing, the language's own runner makes the calls, planned without the comparisons'
  // conditions as they always were. Python: it runs the code and calls the function; with no
  // function ("inputs" null) it says so once the code has loaded, as a syntax error comes first.
  const bool planned = chosen.language != analysis::Language::python;
  if (planned && !chosen.inputs) {
    mark_ended(execution, ExecutionStatus::failed, "no_function", "the code defines no function");
    execution.stage = "select";
    return execution;
  }
  spec["inputs"] = chosen.inputs ? analysis::to_json(*chosen.inputs, !planned) : json();
  if (planned) spec["plan_only"] = true;
  const auto& limits = options_.limits;
  const double seconds = std::chrono::duration<double>(limits.wall_time).count();
  const json job = {{"spec", spec}, {"code", planned ? std::string() : chosen.code}, {"seconds", seconds},
                    {"cpu_seconds", limits.cpu_seconds > 0 ? limits.cpu_seconds : static_cast<int>(std::ceil(seconds))},
                    {"max_output_bytes", limits.max_output_bytes}};
  std::optional<SandboxResult> frame = exchange(job, execution);
  if (!frame) return execution;
  if (planned) {
    const std::optional<json> plan = marked_line(frame->stdout_text, kPlanMark);
    if (!plan || !plan->contains("calls")) {
      mark_ended(execution, ExecutionStatus::failed, "no_plan",
                 "the driver planned no calls: " + frame->describe() + ": " + stderr_tail(frame->stderr_text));
      return execution;
    }
    if (const std::optional<json> counts = marked_line(frame->stdout_text, kBasesMark)) lay_out_bases(*counts, execution);
    const json& inputs = spec["inputs"];
    json run = {{"code", chosen.code}, {"function", inputs["function"]}, {"owner", inputs["owner"]},
                {"params", inputs["params"]}, {"object_mode", inputs["object_mode"]}, {"calls", (*plan)["calls"]},
                {"standing", plan->value("standing", json::object())}, {"call_seconds", options_.call_seconds},
                {"max_timeouts", options_.max_timeouts}, {"seed", options_.seed}};
    const bool java = chosen.language == analysis::Language::java;
    if (java) {
      run["unit"] = chosen.unit;
      json read = inputs["params"];  // what the runner counts as read: Java's reads cannot be watched
      if (chosen.inputs->object_mode) {
        read = json::array();
        for (const auto& input : chosen.inputs->fields) read.push_back(input.name);
      }
      run["read"] = std::move(read);
    }
    try {
      frame = run_on_server(java ? java_servers_ : javascript_servers_, run);
    } catch (const std::runtime_error& error) {  // the runtime is not installed, or cannot start
      mark_ended(execution, ExecutionStatus::not_run, std::string("no_runtime:") + analysis::to_string(chosen.language),
                 error.what());
      return execution;
    }
    execution.isolation = frame->network == NetworkIsolation::network_namespace ? "network_namespace" : "runtime_guard";
  }
  fill_execution(*frame, limits, execution);
  if (execution.reason == "no_compiler")  // a Java runtime without a JDK's compiler
    mark_ended(execution, ExecutionStatus::not_run, "no_runtime:java", execution.error);
  return execution;
}

analysis::ResponseExecution execute_counterfactual(const CounterfactualProgram& program,
                                                   const analysis::AttributeTable& table,
                                                   const CounterfactualOptions& options) {
  return CounterfactualExecutor(options, 1).execute(program, table);
}

}  // namespace codebias::quality
