// Counterfactual execution: run a response's decision function in the sandbox on personas that
// are identical except for one sensitive attribute, and record every outcome
// (counterfactual_driver.py; docs/counterfactual.md). What the outcomes mean is read by
// analysis/findings/outcomes.h; a crash, a timeout or a refused side effect is its own
// outcome, never "unbiased".
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "attributes/attributes.h"
#include "analysis/batch.h"
#include "analysis/findings/outcomes.h"
#include "execution/sandbox.h"
#include "execution/server_pool.h"

namespace codebias::quality {

struct CounterfactualOptions {
  // Balanced draws of persona bases (K) for a tested attribute whose combinations are too many to
  // enumerate (counterfactual_driver.py: plan_bases).
  int bases = 16;
  std::uint64_t seed = 0;        // the personas depend only on the code and the seed
  double call_seconds = 1.0;     // one call's time before it counts as a timeout
  int max_timeouts = 3;          // a group timing out that often is not called again (outcome timeout)
  std::string python = "/usr/bin/python3";
  std::string node = "node";  // runs JavaScript responses; looked up as SandboxRequest::program is
  // V8 reserves address space far beyond its heap, so node runs under a larger RLIMIT_AS than
  // Python, with its heap capped by --max-old-space-size instead.
  std::size_t node_address_space_bytes = std::size_t{1} << 30;
  int node_heap_mib = 256;
  std::string java = "java";  // runs Java responses (a JDK: the runner compiles the answer in memory)
  // The JVM reserves address space for its heap, classes and code apart; its heap is capped by -Xmx.
  std::size_t java_address_space_bytes = std::size_t{3} << 29;  // 1.5 GiB
  int java_heap_mib = 256;
  SandboxLimits limits = default_limits();
  std::filesystem::path temp_root;
  bool isolate_network = true;  // false: only the driver's Python guards

  static SandboxLimits default_limits() {
    SandboxLimits limits;
    limits.wall_time = std::chrono::seconds(20);
    limits.memory_bytes = std::size_t{512} << 20;
    limits.file_size_bytes = 0;  // the driver refuses writes; the kernel refuses their bytes too
    // One line per call: up to 4,096 calls per tested attribute when its bases are enumerated.
    limits.max_output_bytes = std::size_t{16} << 20;
    return limits;
  }
};

// The values the prompt gives a field ("income": [24000, 25000]); fields without one get values
// the code's own comparisons distinguish.
using FieldDomains = analysis::FieldDomains;

struct CounterfactualProgram {
  std::string response;
  analysis::AnalyzeOptions options;  // scenario, offered attributes, requested function
  FieldDomains domains;
  // Pool mode: applicants ({attribute key: group name}, execution/applicant_pool.h) the function is
  // also called on, each with its other fields drawn from their domains; null: none.
  nlohmann::json pool;
};

// The attributes a response's personas vary, in the table's order: those the prompt offered (or
// the --attributes flag or the score line lists); only when none is named, those sensitive in the
// scenario.
std::vector<const analysis::AttributeSpec*> tested_attributes(const analysis::AttributeTable& table,
                                                              const analysis::AnalyzeOptions& options);

// Runs responses' decision functions on a few long-lived sandboxed Python processes,
// counterfactual_driver.py as a fork server: every response runs in its own process, forked from
// a driver that never runs generated code, so responses share no state, and Python and the driver
// load once per server rather than once per response. Python code (execution/python_code.h) runs in
// the forked process, on personas planned from what the analyzer read of it
// (analysis/counterfactual/function_inputs.h). JavaScript (when the response has no Python) is read by the analyzer
// (analysis/counterfactual/function_inputs.h), its personas planned by the same driver, and run by
// counterfactual_runner.js in a long-lived sandboxed node process that serves one answer after
// another, each in a vm context of its own (a server past an answer's wall time, or left with work
// of the answer pending, is replaced); so is TypeScript, once its types are erased
// (execution/typescript_erasure.h); and so is Java, its blocks made one compilation
// unit (execution/java_code.h) that CounterfactualRunner.java compiles in memory and loads in a
// class loader of its own, in a long-lived sandboxed JVM that serves one answer after another (a
// JVM past an answer's wall time, or with a thread of the answer still running, is replaced).
// Other languages are not run (reason "no_runtime:<language>"). Thread-safe; at most `servers`
// Python responses run at a time (0: one per core), as many JavaScript ones, and Java ones on a
// JVM per four of those. A
// server that fails is replaced for the next response.
class CounterfactualExecutor {
 public:
  explicit CounterfactualExecutor(CounterfactualOptions options = {}, unsigned servers = 0);
  ~CounterfactualExecutor();
  CounterfactualExecutor(const CounterfactualExecutor&) = delete;
  CounterfactualExecutor& operator=(const CounterfactualExecutor&) = delete;

  // Throws std::runtime_error only when the sandbox or python cannot be started at all.
  analysis::ResponseExecution execute(const CounterfactualProgram& program, const analysis::AttributeTable& table);

 private:
  // Sends one job to a Python server and reads its frame; nothing when the server failed (recorded
  // in `execution`).
  std::optional<SandboxResult> exchange(const nlohmann::json& job, analysis::ResponseExecution& execution);
  // One planned job on a server of a language's runner (counterfactual_runner.js,
  // CounterfactualRunner.java), which ends it with a CODEBIAS-JOB line; a server past the job's
  // wall time, or one the job left unclean, is replaced.
  SandboxResult run_on_server(ServerPool& servers, const nlohmann::json& job);

  CounterfactualOptions options_;
  ServerPool python_servers_;      // counterfactual_driver.py as a fork server
  ServerPool javascript_servers_;  // counterfactual_runner.js, one answer after another
  ServerPool java_servers_;        // CounterfactualRunner.java, one answer after another
};

// One response on a server of its own (tests, single answers).
analysis::ResponseExecution execute_counterfactual(const CounterfactualProgram& program,
                                                   const analysis::AttributeTable& table,
                                                   const CounterfactualOptions& options);

}  // namespace codebias::quality
