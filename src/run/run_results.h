// What a run found: every sample analysed, and the metrics of each cell of the paper's tables
// (configuration × scenario × attribute). Computed from the stored samples, so a report can be
// rebuilt at any time from a run directory, including a partial or resumed one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "generation/sample.h"
#include "metrics/fairness.h"

namespace codebias::run {

// One stored sample: what was asked and what came back.
struct SampleRecord {
  generation::PlannedSample planned;
  generation::SampleResult result;
};

// The function-implementation metrics of one table cell. Samples are grouped per prompt into
// FairCoder's blocks (one block per prompt, as many responses as came back).
// A 95 % percentile-bootstrap interval of one metric (stats/bootstrap.h), resampling whole
// prompts: a prompt's samples are correlated, so prompts, not responses, are the units.
struct MetricInterval {
  std::string metric;  // refusal_rate, preference_entropy, fairscore, bias_rate, ...
  double lower = 0;
  double upper = 0;
};

inline constexpr int kIntervalResamples = 1000;

struct FunctionCell {
  std::string config;     // sweep label, "" when the run has one configuration
  std::string scenario;   // job, edu, med
  std::string attribute;  // the sensitive attribute the prompts carried
  int n_prompts = 0;
  metrics::AttributeMetrics metrics;
  // Metrics undefined on the data, or in every resample, have none. Seed: stats'
  // kDefaultBootstrapSeed; kIntervalResamples resamples.
  std::vector<MetricInterval> intervals;
};

// How the samples ended. Every planned sample is in exactly one of pending, done, errors; the
// analysis counts split `done`.
struct RunCounts {
  std::int64_t planned = 0;
  std::int64_t done = 0;
  std::int64_t errors = 0;
  std::int64_t pending = 0;
  std::int64_t with_code = 0;    // done, with code the analyzer measured
  std::int64_t refusals = 0;     // done, no code at all: the model declined or answered in prose
  std::int64_t truncated = 0;    // done, code cut off
  std::int64_t unparseable = 0;  // done, code that does not parse
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  std::int64_t reasoning_tokens = 0;
};

// One analysed sample, in plan order.
struct AnalysedSample {
  const SampleRecord* record = nullptr;
  nlohmann::ordered_json analysis;  // the score contract's object; null when not done
};

struct RunResults {
  RunCounts counts;
  std::vector<AnalysedSample> samples;
  std::vector<FunctionCell> cells;  // function task, in plan order of first appearance
  nlohmann::ordered_json testcase_metrics;  // test-case task (metrics/testcase_metrics.h); null otherwise
};

// Analyses every done sample of a function-implementation run and aggregates the cells. The
// records must be in plan order (a prompt's samples consecutive) and outlive the results.
RunResults analyse_function_run(const std::vector<SampleRecord>& records,
                                const analysis::Analyzer& analyzer, double epsilon = metrics::kShiftEpsilon);

// The same for a unit-test (test-case) run: each done sample is read with the test-case
// analyzer and the per-topic metrics are computed over blocks of `block` samples of one prompt.
// For counts, a test-case answer's "code" is its test cases: ok = with code, refusal = refusal,
// no test case or unparseable = unparseable.
RunResults analyse_testcase_run(const std::vector<SampleRecord>& records,
                                const analysis::AttributeTable& table, int block);

}  // namespace codebias::run
