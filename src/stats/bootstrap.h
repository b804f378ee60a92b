// Percentile bootstrap confidence intervals (Efron & Tibshirani 1993, ch. 13), seeded and
// reproducible on every platform (stats/random.h).
//
// Three resampling units, one engine:
//   * bootstrap_ci: values of one sample (i.i.d. observations).
//   * paired_bootstrap_ci: pairs (a_i, b_i) resampled together, so the pairing (same prompt,
//     two runs) survives into every resample.
//   * cluster_bootstrap_ci: whole clusters. FairCoder and ProbeDebias draw several responses per
//     prompt, and responses to one prompt are correlated (same wording, same groups); their
//     metrics are per prompt block. Resampling responses would treat them as independent and
//     give intervals that are too narrow; resampling prompts (blocks) keeps the within-prompt
//     correlation, so the interval reflects the uncertainty from which prompts were asked.
//   * bootstrap_units: the engine itself, for statistics over anything indexable (e.g. the
//     per-prompt blocks of ResponseReports the metrics take).
//
// Procedure (docs/statistics.md, "Bootstrap"): one Xoshiro256StarStar(seed) per call; for each
// of `resamples` resamples, draw n unit indices in order with uniform_below(n); evaluate the
// statistic. Resamples where it is not finite (undefined, e.g. an entropy with no data) are
// left out and counted. The bounds are the (1 − confidence)/2 and (1 + confidence)/2 quantiles
// of the rest, linearly interpolated between order statistics (Hyndman & Fan type 7, numpy's
// default). The estimate is the statistic on the original data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace codebias::stats {

inline constexpr std::uint64_t kDefaultBootstrapSeed = 20260101;
inline constexpr int kDefaultBootstrapResamples = 2000;

struct BootstrapOptions {
  int resamples = kDefaultBootstrapResamples;  // ≥ 1
  double confidence = 0.95;                    // in (0, 1)
  std::uint64_t seed = kDefaultBootstrapSeed;
};

struct BootstrapResult {
  double estimate = 0;  // statistic on the original data
  double lower = 0;
  double upper = 0;
  int resamples = 0;            // resamples drawn
  int undefined_resamples = 0;  // of those, left out because the statistic was not finite
  double confidence = 0;
  std::uint64_t seed = 0;
  std::size_t units = 0;  // values, pairs or clusters resampled
};

// Statistic of a resample given as indices into the n units (repeats allowed).
using IndexStatistic = std::function<double(std::span<const std::size_t> indices)>;
// Several statistics of one resample at once (e.g. every metric of a table cell, which one pass
// over the resampled data computes together).
using IndexStatistics = std::function<std::vector<double>(std::span<const std::size_t> indices)>;
using SampleStatistic = std::function<double(std::span<const double> sample)>;
using PairedStatistic = std::function<double(std::span<const double> a, std::span<const double> b)>;
using ClusterStatistic = std::function<double(std::span<const std::span<const double>> clusters)>;

// Every function throws std::invalid_argument when there are no units, a value is not finite,
// the options are out of range, the statistic is not finite on the original data, or no
// resample gave a finite statistic.
BootstrapResult bootstrap_units(std::size_t units, const IndexStatistic& statistic,
                                const BootstrapOptions& options = {});
// `count` statistics over the same resamples: result i equals bootstrap_units on statistic i
// alone with the same options, or is empty where that call would throw because statistic i is not
// finite on the original data or on any resample. Still throws for no units, bad options, or a
// statistic that returns other than `count` values.
std::vector<std::optional<BootstrapResult>> bootstrap_units_jointly(std::size_t units, std::size_t count,
                                                                    const IndexStatistics& statistics,
                                                                    const BootstrapOptions& options = {});
BootstrapResult bootstrap_ci(std::span<const double> sample, const SampleStatistic& statistic,
                             const BootstrapOptions& options = {});
// a and b must have the same size; the statistic sees the resampled a and b, aligned.
BootstrapResult paired_bootstrap_ci(std::span<const double> a, std::span<const double> b,
                                    const PairedStatistic& statistic,
                                    const BootstrapOptions& options = {});
// Each inner vector is one cluster (prompt); clusters may differ in size and may be empty.
BootstrapResult cluster_bootstrap_ci(const std::vector<std::vector<double>>& clusters,
                                     const ClusterStatistic& statistic,
                                     const BootstrapOptions& options = {});

// Arithmetic mean; throws std::invalid_argument when empty. A convenience SampleStatistic.
double sample_mean(std::span<const double> sample);

}  // namespace codebias::stats
