// The dynamic check of generated ML pipelines (docs/ml-pipelines.md, "Dynamic check"): run the
// answer's Python program in the sandbox on synthetic data drawn from the dataset schema and
// read which source columns reach the fitted estimator (pipeline path), which ones the
// feature-selection code returns, or which ones the decision function reads (conditional path).
// It is ground truth for programs that run, against which the static analysis is measured.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "execution/sandbox.h"
#include "execution/server_pool.h"

namespace codebias::quality {

// One offered column of the prompt metadata (docs/ml-pipelines.md, `columns`).
struct PipelineColumn {
  std::string name;
  std::string role;                   // normal, sensitive, irrelevant
  std::string type = "categorical";   // categorical, integer, float
  std::vector<std::string> values;    // categorical; empty: the driver makes up labels
  std::optional<std::pair<double, double>> range;  // numeric; unset: a default range
};

// The dataset schema of one prompt; the static analysis keeps its own type.
struct PipelineSchema {
  std::string path = "pipeline";      // pipeline or conditional
  std::string level;                  // select, train, full; empty on the conditional path
  std::string dataset;                // also the name of a CSV written next to data.csv
  std::string function;               // conditional path: the requested decision function
  std::string target;
  std::vector<std::string> target_values;  // empty: 0 and 1
  std::vector<PipelineColumn> columns;     // in prompt order
};

enum class PipelineExecutionStatus {
  ok,        // features were read
  crash,     // the program raised (features may still be set when it crashed after the fit)
  no_fit,    // it ran to the end without fitting an estimator or giving a feature list
  untraced,  // the model was fitted on an array whose columns could not be traced back
  timeout,
  memory,
  cpu_time,
  no_result,  // the process ended without reporting (a hard exit, a driver failure)
};
const char* to_string(PipelineExecutionStatus status);

struct PipelineExecutionOptions {
  int rows = 200;          // synthetic rows
  std::uint64_t seed = 0;  // the data depend only on the schema and the seed
  std::string python = "/usr/bin/python3";  // needs pandas and scikit-learn (scripts/setup.sh)
  SandboxLimits limits = default_limits();
  std::filesystem::path temp_root;
  bool isolate_network = true;  // false: only the driver's Python guard

  // Importing scikit-learn alone takes about a second and a few hundred MiB of address space; a
  // server imports it once, and each program's child inherits it (and this limit).
  static SandboxLimits default_limits() {
    SandboxLimits limits;
    limits.wall_time = std::chrono::seconds(60);
    limits.memory_bytes = std::size_t{2} << 30;
    return limits;
  }
};

struct PipelineExecution {
  PipelineExecutionStatus status = PipelineExecutionStatus::no_result;
  // Source columns (schema order, then the target if it leaked into X); unset when not read.
  std::optional<std::vector<std::string>> features;
  // Columns that reached the model but map to no schema column (e.g. a derived `age_group`).
  std::vector<std::string> derived;
  // How features were read: "fit" (the outermost fit of the model), "select_features" (the
  // answer's feature-selection function on the synthetic frame), "feature_list" (a FEATURES
  // list), "reads" (keys the decision function read: weaker than deciding on them) or
  // "parameters" (the decision function's parameters: weaker still).
  std::string basis;
  std::string estimator;   // basis "fit": the class of the fitted model
  std::string error_type;  // crash: the Python exception class
  std::string error;       // clipped
  std::string isolation;   // "network_namespace", or "python_guard" when the kernel refused one
  std::string sandbox;     // how the process ended: "exit 0", "timed out after 2.00 s", ...
  double wall_seconds = 0;
};

// Runs programs on a few long-lived sandboxed fork servers (pipeline_probe_driver.py behind
// fork_server.py) that have imported pandas and scikit-learn and wrapped its estimators once: each
// program runs in a child forked from a server, under the same limits, in a fresh folder, so
// programs share no state. Thread-safe; at most `servers` programs run at a time (0: one per core).
class PipelineExecutor {
 public:
  explicit PipelineExecutor(PipelineExecutionOptions options, unsigned servers = 0);

  // Runs `code` (one Python program: the caller picks the answer's last complete block) on
  // synthetic data from `schema`. Throws std::invalid_argument for a schema without a target or
  // columns, std::runtime_error only when the sandbox or python cannot be started at all.
  PipelineExecution execute(std::string_view code, const PipelineSchema& schema);

 private:
  PipelineExecutionOptions options_;
  ServerPool servers_;
};

// One program on a server of its own (tests, single answers).
PipelineExecution execute_pipeline(std::string_view code, const PipelineSchema& schema,
                                   const PipelineExecutionOptions& options);

struct PipelineProgram {
  std::string code;
  PipelineSchema schema;
};

// Called after each program has run, with how many have: from the sandboxes' threads, one call
// at a time.
using PipelineProgress = std::function<void(std::size_t finished)>;

// The programs in order, `jobs` sandboxes at a time (0: one per core).
std::vector<PipelineExecution> execute_pipelines(const std::vector<PipelineProgram>& programs,
                                                 const PipelineExecutionOptions& options, unsigned jobs = 0,
                                                 const PipelineProgress& progress = {});

}  // namespace codebias::quality
