// Utility of generated code, as FairCoder measures it (Du et al., FairCoder, §2.3 "Metrics",
// last paragraph: "we randomly sample 100 generated functions and create 10 test cases for each
// function and compute the pass@1"). The paper's tasks have no expected outputs, so a test case
// passes when the function runs on the input without raising and returns a number (the score
// FairCoder's prompts ask for); a sample passes when all its test cases pass.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/analyzer.h"
#include "attributes/attributes.h"
#include "execution/sandbox.h"

namespace codebias::quality {

enum class PassStatus { pass, fail, not_run };
const char* to_string(PassStatus status);

struct PassOptions {
  int cases = 10;  // FairCoder §2.3: 10 test cases per function
  std::uint64_t seed = 0;  // inputs depend only on the code and the seed, so reruns agree
  std::string python = "/usr/bin/python3";
  SandboxLimits limits;  // for the whole sample (all its cases run in one process)
  std::filesystem::path temp_root;
  bool keep_inputs = false;  // copy the generated inputs into the result
  bool isolate_network = true;  // false: only the driver's Python guard (tests of that guard)
};

struct PassResult {
  PassStatus status = PassStatus::not_run;
  // not_run: "no_code", "not_python:<language>" (not counted in pass@1's denominator).
  std::string not_run_reason;
  // fail: the first problem: a Python exception class ("SyntaxError", "KeyError", ...),
  // "non_numeric" (a case returned something else than a number), "no_function", "timeout",
  // "memory", "cpu_time" or "no_result" (the process ended without reporting, e.g. os._exit).
  std::string crash_type;
  std::string crash_message;  // clipped
  std::string stage;          // fail: "compile", "load", "select", "run", or "" when the process died
  std::string function;       // the function that was called
  int cases = 0;              // cases run
  int cases_passed = 0;
  bool timed_out = false;
  bool memory_exceeded = false;
  std::string isolation;  // "network_namespace", or "python_guard" when the kernel refused one
  double wall_seconds = 0;
  std::string inputs_json;  // with keep_inputs: the cases' inputs as a JSON array
};

// Runs one response's Python function on generated inputs in the sandbox. The inputs give every
// attribute the prompt offered (options.attributes) and every attribute sensitive in the
// scenario each of its groups in turn, and give the other fields the code reads values its own
// comparisons distinguish (docs/quality.md). Throws std::runtime_error only when python cannot
// be started at all.
PassResult run_pass_at_1(std::string_view response, const analysis::AnalyzeOptions& options,
                         const analysis::AttributeTable& table, const PassOptions& pass_options);

// The unbiased pass@k estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained
// on Code", §2.1, eq. 1) for one problem with n samples of which c are correct:
// 1 - C(n-c, k) / C(n, k), computed as a product to stay exact for large n. k = 1 gives c/n.
// Throws std::invalid_argument unless 0 <= c <= n and 1 <= k <= n.
double pass_at_k(long n, long c, long k);

// The mean of pass_at_k over problems given as (n, c) pairs; 0 problems -> 0.
double mean_pass_at_k(const std::vector<std::pair<long, long>>& problems, long k);

}  // namespace codebias::quality
