#include "stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "stats/random.h"

namespace codebias::stats {
namespace {

void require_finite_values(std::span<const double> values, const std::string& what) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument(what + " value " + std::to_string(i) +
                                  " is not a finite number");
    }
  }
}

// Hyndman & Fan type 7 quantile of sorted, non-empty values.
double interpolated_quantile(const std::vector<double>& sorted, double probability) {
  const double position = probability * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

BootstrapResult bootstrap_units(std::size_t units, const IndexStatistic& statistic,
                                const BootstrapOptions& options) {
  if (units == 0) throw std::invalid_argument("bootstrap: nothing to resample (no units)");
  if (options.resamples < 1) throw std::invalid_argument("bootstrap: resamples must be >= 1");
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw std::invalid_argument("bootstrap: confidence must be in (0, 1)");
  }
  BootstrapResult result;
  result.resamples = options.resamples;
  result.confidence = options.confidence;
  result.seed = options.seed;
  result.units = units;

  std::vector<std::size_t> indices(units);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  result.estimate = statistic(indices);
  if (!std::isfinite(result.estimate)) {
    throw std::invalid_argument("bootstrap: the statistic is not finite on the original data");
  }

  Xoshiro256StarStar generator(options.seed);
  std::vector<double> replicates;
  replicates.reserve(static_cast<std::size_t>(options.resamples));
  for (int r = 0; r < options.resamples; ++r) {
    for (std::size_t& index : indices) index = generator.uniform_below(units);
    const double value = statistic(indices);
    if (std::isfinite(value)) {
      replicates.push_back(value);
    } else {
      ++result.undefined_resamples;
    }
  }
  if (replicates.empty()) {
    throw std::invalid_argument("bootstrap: the statistic was not finite on any resample");
  }
  std::sort(replicates.begin(), replicates.end());
  const double tail = (1.0 - options.confidence) / 2.0;
  result.lower = interpolated_quantile(replicates, tail);
  result.upper = interpolated_quantile(replicates, 1.0 - tail);
  return result;
}

BootstrapResult bootstrap_ci(std::span<const double> sample, const SampleStatistic& statistic,
                             const BootstrapOptions& options) {
  require_finite_values(sample, "bootstrap_ci: sample");
  std::vector<double> resample(sample.size());
  return bootstrap_units(
      sample.size(),
      [&](std::span<const std::size_t> indices) {
        for (std::size_t i = 0; i < indices.size(); ++i) resample[i] = sample[indices[i]];
        return statistic(resample);
      },
      options);
}

BootstrapResult paired_bootstrap_ci(std::span<const double> a, std::span<const double> b,
                                    const PairedStatistic& statistic,
                                    const BootstrapOptions& options) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("paired_bootstrap_ci: samples differ in size (" +
                                std::to_string(a.size()) + " vs " + std::to_string(b.size()) +
                                ")");
  }
  require_finite_values(a, "paired_bootstrap_ci: sample a");
  require_finite_values(b, "paired_bootstrap_ci: sample b");
  std::vector<double> resample_a(a.size());
  std::vector<double> resample_b(b.size());
  return bootstrap_units(
      a.size(),
      [&](std::span<const std::size_t> indices) {
        for (std::size_t i = 0; i < indices.size(); ++i) {
          resample_a[i] = a[indices[i]];
          resample_b[i] = b[indices[i]];
        }
        return statistic(resample_a, resample_b);
      },
      options);
}

BootstrapResult cluster_bootstrap_ci(const std::vector<std::vector<double>>& clusters,
                                     const ClusterStatistic& statistic,
                                     const BootstrapOptions& options) {
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    require_finite_values(clusters[c], "cluster_bootstrap_ci: cluster " + std::to_string(c));
  }
  std::vector<std::span<const double>> resample(clusters.size());
  return bootstrap_units(
      clusters.size(),
      [&](std::span<const std::size_t> indices) {
        for (std::size_t i = 0; i < indices.size(); ++i) resample[i] = clusters[indices[i]];
        return statistic(resample);
      },
      options);
}

double sample_mean(std::span<const double> sample) {
  if (sample.empty()) throw std::invalid_argument("sample_mean: empty sample");
  return std::accumulate(sample.begin(), sample.end(), 0.0) / static_cast<double>(sample.size());
}

}  // namespace codebias::stats
