// Counterfactual execution in the sandbox (quality stage): one process per response runs
// counterfactual_driver.py, which streams one line per call; this side turns the lines into
// outcomes and accounts for the calls a killed process never reported.
#include "quality/counterfactual_execution.h"

#include <algorithm>
#include <sstream>

#include "base/builtin_data.h"
#include "quality/driver_output.h"
#include "quality/python_code.h"

namespace codebias::quality {
namespace {

using nlohmann::json;
using analysis::CallOutcome;
using analysis::ExecutionStatus;
using analysis::OutcomeKind;

constexpr std::string_view kCaseMark = "CODEBIAS-CASE ";

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

// Reads the streamed calls into `execution.attributes` (already laid out, every call a timeout
// until reported: a call the process never reported was cut off by the sandbox's wall clock).
void read_calls(const std::string& output, analysis::ResponseExecution& execution) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(kCaseMark, 0) != 0) continue;
    const json call = json::parse(line.substr(kCaseMark.size()), nullptr, false);
    if (!call.is_object()) continue;
    const std::string attribute = call.value("attribute", "");
    const long base = call.value("base", -1L), group = call.value("group", -1L);
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

}  // namespace

std::vector<const analysis::AttributeSpec*> tested_attributes(const analysis::AttributeTable& table,
                                                              const analysis::AnalyzeOptions& options) {
  std::vector<const analysis::AttributeSpec*> tested;
  for (const auto& spec : table.specs()) {
    const bool offered = std::find(options.attributes.begin(), options.attributes.end(), spec.key) != options.attributes.end();
    if (offered || (!options.only_listed && spec.sensitive_in(options.scenario))) tested.push_back(&spec);
  }
  return tested;
}

analysis::ResponseExecution execute_counterfactual(const CounterfactualProgram& program,
                                                   const analysis::AttributeTable& table,
                                                   const CounterfactualOptions& options) {
  analysis::ResponseExecution execution;
  const PythonCodeChoice choice = choose_python_code(program.response, program.options.function);
  if (!choice.code) {
    execution.reason = choice.not_python_reason;
    return execution;
  }
  const auto tested = tested_attributes(table, program.options);
  json test = json::array();
  for (const auto* spec : tested) {
    test.push_back(spec->key);
    analysis::AttributeOutcomes outcomes;
    outcomes.attribute = spec->key;
    for (const auto& group : spec->groups) outcomes.groups.push_back(group.name);
    CallOutcome unreported;
    unreported.kind = OutcomeKind::timeout;
    outcomes.by_base.assign(static_cast<std::size_t>(options.bases), std::vector<CallOutcome>(outcomes.groups.size(), unreported));
    execution.attributes.push_back(std::move(outcomes));
  }
  json domains = json::object();
  for (const auto& [field, values] : program.domains) domains[field] = values;
  const json spec = {{"function", program.options.function}, {"seed", options.seed}, {"bases", options.bases},
                     {"call_seconds", options.call_seconds}, {"max_timeouts", options.max_timeouts},
                     {"attributes", attributes_spec(tested, program.options.scenario)}, {"test", test},
                     {"domains", domains}, {"not_attribute_tokens", table.not_attribute_tokens()}};

  SandboxRequest request;
  request.program = options.python;
  // -I: no user site, no PYTHON* variables, no script directory on sys.path; -B: no .pyc files.
  request.args = {"-I", "-B", "driver.py"};
  request.files = {{"driver.py", function_driver_program(data::builtin_counterfactual_driver_py())},
                   {"solution.py", *choice.code},
                   {"spec.json", spec.dump()}};
  request.env = {{"PYTHONHASHSEED", "0"}};
  request.limits = options.limits;
  request.temp_root = options.temp_root;
  request.isolate_network = options.isolate_network;
  const SandboxResult run = run_sandboxed(request);

  execution.wall_seconds = run.wall_seconds;
  execution.isolation = run.network == NetworkIsolation::network_namespace ? "network_namespace" : "python_guard";
  read_calls(run.stdout_text, execution);
  const std::optional<json> report = driver_result(run.stdout_text);
  if (!report) {
    // The process ended before the driver reported. With calls reported, the wall clock stopped
    // a call (its outcome stays timeout); with none, the response failed as a whole.
    const bool some_reported = run.stdout_text.find(kCaseMark) != std::string::npos;
    execution.status = some_reported ? ExecutionStatus::ran : ExecutionStatus::failed;
    execution.reason = run.timed_out ? "timeout" : run.memory_exceeded ? "memory" : run.cpu_exceeded ? "cpu_time" : "no_result";
    execution.error = clip_message(run.describe() + ": " + stderr_tail(run.stderr_text));
    if (!some_reported) execution.attributes.clear();
    return execution;
  }
  execution.function = report->value("function", "");
  if (report->contains("error_type")) {
    execution.status = ExecutionStatus::failed;
    execution.reason = report->value("error_type", "");
    execution.stage = report->value("stage", "");
    execution.error = clip_message(report->value("error", ""));
    execution.attributes.clear();
    return execution;
  }
  execution.status = ExecutionStatus::ran;
  const json read = report->value("read", json::array());
  for (auto& outcomes : execution.attributes)
    outcomes.read = std::find(read.begin(), read.end(), json(outcomes.attribute)) != read.end();
  return execution;
}

}  // namespace codebias::quality
