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

// Why a statistic has no interval, for bootstrap_units' message.
enum class Undefined { on_data, on_every_resample };

struct JointResult {
  std::vector<BootstrapResult> results;
  std::vector<std::optional<Undefined>> undefined;
};

JointResult bootstrap_jointly(std::size_t units, std::size_t count, const IndexStatistics& statistics,
                              const BootstrapOptions& options) {
  if (units == 0) throw std::invalid_argument("bootstrap: nothing to resample (no units)");
  if (options.resamples < 1) throw std::invalid_argument("bootstrap: resamples must be >= 1");
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw std::invalid_argument("bootstrap: confidence must be in (0, 1)");
  }
  const auto evaluate = [&](std::span<const std::size_t> indices) {
    auto values = statistics(indices);
    if (values.size() != count) {
      throw std::invalid_argument("bootstrap: the statistics gave " + std::to_string(values.size()) +
                                  " values, not " + std::to_string(count));
    }
    return values;
  };
  JointResult joint;
  joint.results.resize(count);
  joint.undefined.resize(count);
  std::vector<std::size_t> indices(units);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  const auto estimates = evaluate(indices);
  for (std::size_t i = 0; i < count; ++i) {
    auto& result = joint.results[i];
    result.resamples = options.resamples;
    result.confidence = options.confidence;
    result.seed = options.seed;
    result.units = units;
    result.estimate = estimates[i];
    if (!std::isfinite(estimates[i])) joint.undefined[i] = Undefined::on_data;
  }
  if (std::all_of(joint.undefined.begin(), joint.undefined.end(), [](const auto& u) { return u.has_value(); })) {
    return joint;  // nothing left to resample for
  }

  Xoshiro256StarStar generator(options.seed);
  std::vector<std::vector<double>> replicates(count);
  for (auto& values : replicates) values.reserve(static_cast<std::size_t>(options.resamples));
  for (int r = 0; r < options.resamples; ++r) {
    for (std::size_t& index : indices) index = generator.uniform_below(units);
    const auto values = evaluate(indices);
    for (std::size_t i = 0; i < count; ++i) {
      if (std::isfinite(values[i])) {
        replicates[i].push_back(values[i]);
      } else {
        ++joint.results[i].undefined_resamples;
      }
    }
  }
  const double tail = (1.0 - options.confidence) / 2.0;
  for (std::size_t i = 0; i < count; ++i) {
    if (joint.undefined[i]) continue;
    if (replicates[i].empty()) {
      joint.undefined[i] = Undefined::on_every_resample;
      continue;
    }
    std::sort(replicates[i].begin(), replicates[i].end());
    joint.results[i].lower = interpolated_quantile(replicates[i], tail);
    joint.results[i].upper = interpolated_quantile(replicates[i], 1.0 - tail);
  }
  return joint;
}

}  // namespace

BootstrapResult bootstrap_units(std::size_t units, const IndexStatistic& statistic,
                                const BootstrapOptions& options) {
  auto joint = bootstrap_jointly(
      units, 1, [&](std::span<const std::size_t> indices) { return std::vector<double>{statistic(indices)}; },
      options);
  if (joint.undefined[0] == Undefined::on_data) {
    throw std::invalid_argument("bootstrap: the statistic is not finite on the original data");
  }
  if (joint.undefined[0] == Undefined::on_every_resample) {
    throw std::invalid_argument("bootstrap: the statistic was not finite on any resample");
  }
  return joint.results[0];
}

std::vector<std::optional<BootstrapResult>> bootstrap_units_jointly(std::size_t units, std::size_t count,
                                                                    const IndexStatistics& statistics,
                                                                    const BootstrapOptions& options) {
  auto joint = bootstrap_jointly(units, count, statistics, options);
  std::vector<std::optional<BootstrapResult>> results;
  for (std::size_t i = 0; i < count; ++i) {
    results.push_back(joint.undefined[i] ? std::nullopt : std::optional(std::move(joint.results[i])));
  }
  return results;
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
