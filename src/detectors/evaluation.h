// Scoring detectors against labels as ProbeDebias §4.4.3 reports them (accuracy, precision,
// recall, F1; AUROC for the score), with percentile bootstrap intervals over the test traces
// (stats/bootstrap.h), and the train/test splits: stratified and seeded, or by model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/bootstrap.h"

namespace codebias::detectors {

struct Confusion {
  long true_positives = 0;
  long false_positives = 0;
  long true_negatives = 0;
  long false_negatives = 0;
};

// Throws std::invalid_argument when the sizes differ.
Confusion confusion(const std::vector<bool>& truth, const std::vector<bool>& predicted);

// NaN where undefined: precision with no predicted positive, recall with no positive, F1 when
// precision + recall is 0 or either is undefined, accuracy with no trace.
double accuracy(const Confusion& counts);
double precision(const Confusion& counts);
double recall(const Confusion& counts);
double f1_score(const Confusion& counts);
// Probability that a biased trace scores above an unbiased one, ties counting one half
// (Mann–Whitney U / (n_pos n_neg)); NaN without both classes.
double auroc(std::span<const double> scores, const std::vector<bool>& truth);

struct IntervalEstimate {
  double estimate = 0;  // NaN when undefined on the test traces
  double lower = 0;     // NaN when no resample was defined
  double upper = 0;
};

struct DetectorEvaluation {
  std::string detector;
  std::string source;  // on a per-source row: the traces' source ("(none)" for traces without one)
  long traces = 0;     // traces scored (undecided ones not among them)
  long undecided = 0;  // traces the detector gave no verdict for (Verdict::undecided)
  long biased = 0;  // reference positives
  Confusion counts;
  IntervalEstimate accuracy, precision, recall, f1, auroc;
  stats::BootstrapOptions bootstrap;
  // The same figures on the test traces of each source, by name; empty when no trace names one.
  std::vector<DetectorEvaluation> by_source;
};

// Every metric with a percentile bootstrap interval over the traces (one resampling per metric,
// same seed); resamples where a metric is undefined are left out of its interval.
DetectorEvaluation evaluate_detector(std::string detector, const std::vector<bool>& truth, const std::vector<bool>& predicted,
                                     std::span<const double> scores, const stats::BootstrapOptions& bootstrap);

nlohmann::json evaluation_json(const DetectorEvaluation& evaluation);

struct TraceSplit {
  std::vector<std::size_t> train;  // indices, increasing
  std::vector<std::size_t> test;
};

// Each class shuffled with the seed (Fisher–Yates on stats::Xoshiro256StarStar) and its first
// round(train_fraction × class size) traces put in train. Throws std::invalid_argument for a
// fraction outside (0, 1) or a split that leaves a side without both classes.
TraceSplit stratified_split(const std::vector<bool>& labels, double train_fraction, std::uint64_t seed);
// Traces whose group (their model, or their source) is one of `test_groups` in test, the rest in
// train (ProbeDebias §4.4.3: train on some models' traces, test on the others). `what` names the
// group in errors ("model", "source"). Throws std::invalid_argument when a test group has no
// trace or a side is empty.
TraceSplit group_split(std::span<const std::string> groups, std::span<const std::string> test_groups, std::string_view what);

}  // namespace codebias::detectors
