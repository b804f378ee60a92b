// pass@1: run a response's Python function on generated inputs in the sandbox (quality stage).
#include "quality/pass_at_1.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/counterfactual/function_inputs.h"
#include "base/builtin_data.h"
#include "execution/driver_output.h"
#include "execution/python_code.h"

namespace codebias::quality {

namespace {

using nlohmann::json;

// The attributes whose groups the inputs must cover: the ones the prompt offered and the ones
// sensitive in the scenario (code may use an attribute the prompt did not list).
json attributes_spec(const analysis::AttributeTable& table, const analysis::AnalyzeOptions& options) {
  json attributes = json::array();
  for (const auto& spec : table.specs()) {
    bool offered = std::find(options.attributes.begin(), options.attributes.end(), spec.key) != options.attributes.end();
    if (!offered && !spec.sensitive_in(options.scenario)) continue;
    json groups = json::array();
    for (const auto& group : spec.groups) {
      json entry = {{"name", group.name}, {"synonyms", group.synonyms}};
      if (group.age_years) entry["age_years"] = *group.age_years;
      groups.push_back(std::move(entry));
    }
    json names = json::array();
    for (const auto& pattern : spec.names) {
      bool applies = pattern.scenarios.empty() ||
                     std::find(pattern.scenarios.begin(), pattern.scenarios.end(), options.scenario) != pattern.scenarios.end();
      if (applies) names.push_back(pattern.tokens);
    }
    attributes.push_back({{"key", spec.key}, {"groups", std::move(groups)}, {"names", std::move(names)}});
  }
  return attributes;
}

void set_crash(PassResult& result, std::string type, std::string message) {
  result.status = PassStatus::fail;
  if (type == "MemoryError") {
    type = "memory";
    result.memory_exceeded = true;
  }
  result.crash_type = std::move(type);
  result.crash_message = clip_message(message);
}

}  // namespace

const char* to_string(PassStatus status) {
  switch (status) {
    case PassStatus::pass: return "pass";
    case PassStatus::fail: return "fail";
    case PassStatus::not_run: return "not_run";
  }
  return "not_run";
}

PassResult run_pass_at_1(std::string_view response, const analysis::AnalyzeOptions& options,
                         const analysis::AttributeTable& table, const PassOptions& pass_options) {
  PassResult result;
  PythonCodeChoice choice = choose_python_code(response, options.function);
  if (!choice.code) {
    result.not_run_reason = choice.not_python_reason;
    return result;
  }

  // What the function reads, for the driver's inputs (null when the code defines no function: the
  // driver says so once the code has loaded).
  const auto inputs = analysis::read_function_inputs(*choice.code, analysis::Language::python, options.function);
  json spec = {{"function", options.function},
               {"inputs", inputs ? analysis::to_json(*inputs, true) : json()},
               {"cases", pass_options.cases},
               {"seed", pass_options.seed},
               {"attributes", attributes_spec(table, options)},
               {"not_attribute_tokens", table.not_attribute_tokens()}};
  SandboxRequest request;
  request.program = pass_options.python;
  // -I: no user site, no PYTHON* variables, no script directory on sys.path; -B: no .pyc files.
  request.args = {"-I", "-B", "driver.py"};
  request.files = {{"driver.py", function_driver_program(data::builtin_pass_at_1_driver_py())},
                   {"solution.py", *choice.code},
                   {"spec.json", spec.dump()}};
  request.limits = pass_options.limits;
  request.temp_root = pass_options.temp_root;
  request.isolate_network = pass_options.isolate_network;
  SandboxResult run = run_sandboxed(request);

  result.wall_seconds = run.wall_seconds;
  result.timed_out = run.timed_out;
  result.memory_exceeded = run.memory_exceeded;
  result.isolation = run.network == NetworkIsolation::network_namespace ? "network_namespace" : "python_guard";

  std::optional<json> report = driver_result(run.stdout_text);
  if (!report) {
    if (run.timed_out) set_crash(result, "timeout", run.describe());
    else if (run.cpu_exceeded) set_crash(result, "cpu_time", run.describe());
    else if (run.memory_exceeded) set_crash(result, "memory", stderr_tail(run.stderr_text));
    else set_crash(result, "no_result", run.describe() + ": " + stderr_tail(run.stderr_text));
    return result;
  }

  result.stage = report->value("stage", "");
  result.function = report->value("function", "");
  if (pass_options.keep_inputs && report->contains("inputs")) result.inputs_json = (*report)["inputs"].dump();
  if (report->contains("error_type")) {
    set_crash(result, report->value("error_type", ""), report->value("error", ""));
    return result;
  }
  const json& cases = (*report)["cases"];
  for (const json& one : cases) {
    ++result.cases;
    if (one.value("ok", false)) {
      ++result.cases_passed;
    } else if (result.crash_type.empty()) {
      set_crash(result, one.value("error_type", ""), one.value("error", ""));
    }
  }
  if (result.crash_type.empty()) {
    result.status = result.cases == pass_options.cases ? PassStatus::pass : PassStatus::fail;
    if (result.status == PassStatus::fail) set_crash(result, "no_result", "fewer cases reported than run");
  }
  return result;
}

double pass_at_k(long n, long c, long k) {
  if (n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw std::invalid_argument("pass@k needs 0 <= c <= n and 1 <= k <= n (n=" + std::to_string(n) +
                                ", c=" + std::to_string(c) + ", k=" + std::to_string(k) + ")");
  }
  if (n - c < k) return 1.0;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i), Chen et al.'s numerically stable form.
  double fail_all = 1.0;
  for (long i = n - c + 1; i <= n; ++i) fail_all *= 1.0 - static_cast<double>(k) / static_cast<double>(i);
  return 1.0 - fail_all;
}

double mean_pass_at_k(const std::vector<std::pair<long, long>>& problems, long k) {
  if (problems.empty()) return 0;
  double total = 0;
  for (const auto& [n, c] : problems) total += pass_at_k(n, c, k);
  return total / static_cast<double>(problems.size());
}

}  // namespace codebias::quality
