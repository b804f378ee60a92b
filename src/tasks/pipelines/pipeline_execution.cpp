// The dynamic check of generated ML pipelines: the answer's program in the sandbox, on synthetic
// data, with the probe driver (pipeline_probe_driver.py) reporting the columns that reach fit.
#include "tasks/pipelines/pipeline_execution.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/builtin_data.h"
#include "base/json_fields.h"
#include "base/jsonl_engine.h"
#include "execution/driver_output.h"

namespace codebias::quality {

namespace {

using nlohmann::json;

json spec_json(const PipelineSchema& schema, const PipelineExecutionOptions& options) {
  json columns = json::array();
  for (const auto& column : schema.columns) {
    json entry = {{"name", column.name}, {"role", column.role}, {"type", column.type}};
    if (!column.values.empty()) entry["values"] = column.values;
    if (column.range) entry["range"] = {column.range->first, column.range->second};
    columns.push_back(std::move(entry));
  }
  return {{"path", schema.path},       {"level", schema.level},   {"dataset", schema.dataset},
          {"function", schema.function}, {"target", schema.target}, {"target_values", schema.target_values},
          {"columns", std::move(columns)}, {"rows", options.rows},  {"seed", options.seed}};
}

std::optional<PipelineExecutionStatus> status_named(const std::string& name) {
  for (auto status : {PipelineExecutionStatus::ok, PipelineExecutionStatus::crash, PipelineExecutionStatus::no_fit,
                      PipelineExecutionStatus::untraced}) {
    if (name == to_string(status)) return status;
  }
  return std::nullopt;
}

void read_report(const json& report, PipelineExecution& result) {
  auto status = status_named(base::string_or_empty(report, "status"));
  if (!status) {
    result.status = PipelineExecutionStatus::no_result;
    result.error = "the driver reported an unknown status: " + clip_message(report.dump());
    return;
  }
  result.status = *status;
  if (auto features = report.find("features"); features != report.end() && features->is_array()) {
    result.features = features->get<std::vector<std::string>>();
  }
  if (auto derived = report.find("derived"); derived != report.end() && derived->is_array()) {
    result.derived = derived->get<std::vector<std::string>>();
  }
  result.basis = base::string_or_empty(report, "basis");
  result.estimator = base::string_or_empty(report, "estimator");
  result.error_type = base::string_or_empty(report, "error_type");
  result.error = clip_message(base::string_or_empty(report, "error"));
  if (result.error_type == "MemoryError") result.status = PipelineExecutionStatus::memory;
}

}  // namespace

const char* to_string(PipelineExecutionStatus status) {
  switch (status) {
    case PipelineExecutionStatus::ok: return "ok";
    case PipelineExecutionStatus::crash: return "crash";
    case PipelineExecutionStatus::no_fit: return "no_fit";
    case PipelineExecutionStatus::untraced: return "untraced";
    case PipelineExecutionStatus::timeout: return "timeout";
    case PipelineExecutionStatus::memory: return "memory";
    case PipelineExecutionStatus::cpu_time: return "cpu_time";
    case PipelineExecutionStatus::no_result: return "no_result";
  }
  return "no_result";
}

namespace {

SandboxRequest probe_server_request(const PipelineExecutionOptions& options) {
  SandboxRequest request = python_fork_server_request(
      options.python, driver_program(fork_server_program(data::builtin_pipeline_probe_driver_py())), options.limits,
      options.temp_root, options.isolate_network);
  // Each program's child cannot start threads: numerical libraries must not try to start any.
  request.env = {{"OPENBLAS_NUM_THREADS", "1"}, {"OMP_NUM_THREADS", "1"}, {"MKL_NUM_THREADS", "1"},
                 {"MPLBACKEND", "Agg"}, {"PYTHONHASHSEED", "0"}};
  return request;
}

}  // namespace

PipelineExecutor::PipelineExecutor(PipelineExecutionOptions options, unsigned servers)
    : options_(std::move(options)),
      servers_(probe_server_request(options_), servers ? servers : std::max(1U, std::thread::hardware_concurrency())) {}

PipelineExecution PipelineExecutor::execute(std::string_view code, const PipelineSchema& schema) {
  if (schema.target.empty()) throw std::invalid_argument("pipeline schema without a target column");
  if (schema.columns.empty()) throw std::invalid_argument("pipeline schema without columns");
  if (options_.rows < 1) throw std::invalid_argument("pipeline execution needs at least one synthetic row");

  const SandboxLimits& limits = options_.limits;
  const double seconds = std::chrono::duration<double>(limits.wall_time).count();
  const double cpu_limit = limits.cpu_seconds > 0 ? limits.cpu_seconds : std::ceil(seconds);
  const json job = {{"spec", spec_json(schema, options_)}, {"code", code}, {"seconds", seconds},
                    {"cpu_seconds", cpu_limit}, {"max_output_bytes", limits.max_output_bytes}};
  ForkServerReply reply = run_on_fork_server(servers_, job, limits.wall_time);

  PipelineExecution result;
  result.isolation = reply.network == NetworkIsolation::network_namespace ? "network_namespace" : "python_guard";
  if (!reply.frame) {
    result.status = reply.server_timed_out ? PipelineExecutionStatus::timeout : PipelineExecutionStatus::no_result;
    result.error = "the execution server stopped: " + stderr_tail(reply.server_error);
    return result;
  }
  SandboxResult& run = *reply.frame;
  classify_end(run, cpu_limit, limits.memory_bytes > 0);
  result.wall_seconds = run.wall_seconds;
  result.sandbox = run.describe();

  std::optional<json> report = driver_result(run.stdout_text);
  if (report) {
    read_report(*report, result);
  } else if (run.timed_out) {
    result.status = PipelineExecutionStatus::timeout;
    result.error = run.describe();
  } else if (run.cpu_exceeded) {
    result.status = PipelineExecutionStatus::cpu_time;
    result.error = run.describe();
  } else if (run.memory_exceeded) {
    result.status = PipelineExecutionStatus::memory;
    result.error = stderr_tail(run.stderr_text);
  } else {
    result.status = PipelineExecutionStatus::no_result;
    result.error = run.describe() + ": " + stderr_tail(run.stderr_text);
  }
  return result;
}

PipelineExecution execute_pipeline(std::string_view code, const PipelineSchema& schema,
                                   const PipelineExecutionOptions& options) {
  return PipelineExecutor(options, 1).execute(code, schema);
}

std::vector<PipelineExecution> execute_pipelines(const std::vector<PipelineProgram>& programs,
                                                 const PipelineExecutionOptions& options, unsigned jobs,
                                                 const PipelineProgress& progress) {
  std::vector<PipelineExecution> results(programs.size());
  const unsigned workers = jobs ? jobs : std::max(1U, std::thread::hardware_concurrency());
  PipelineExecutor executor(options, workers);
  std::mutex progress_mutex;
  std::size_t finished = 0;
  // The first environment failure (no python, no sandbox) stops the batch and is rethrown.
  base::WorkerPool pool(workers);
  pool.run(programs.size(), [&](std::size_t at) {
    results[at] = executor.execute(programs[at].code, programs[at].schema);
    if (!progress) return;
    std::lock_guard lock(progress_mutex);
    progress(++finished);
  });
  return results;
}

}  // namespace codebias::quality
