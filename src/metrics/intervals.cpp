#include "metrics/intervals.h"

#include <limits>
#include <span>
#include <stdexcept>

#include "metrics/metric_registry.h"
#include "stats/bootstrap.h"

namespace codebias::metrics {

const MetricInterval* find_interval(const std::vector<MetricInterval>& intervals, std::string_view metric) {
  for (const auto& interval : intervals) {
    if (interval.metric == metric) return &interval;
  }
  return nullptr;
}

std::vector<MetricInterval> prompt_bootstrap_intervals(const std::vector<analysis::ResponseReport>& reports,
                                                       const std::vector<std::size_t>& block_sizes,
                                                       const std::string& attribute,
                                                       const std::vector<std::string>& groups, double epsilon) {
  std::vector<std::size_t> block_starts;
  std::size_t start = 0;
  for (std::size_t size : block_sizes) {
    block_starts.push_back(start);
    start += size;
  }
  std::vector<MetricInterval> intervals;
  stats::BootstrapOptions options;
  options.resamples = kIntervalResamples;
  for (const auto* metric : MetricRegistry::builtin().of_task("function")) {
    if (!metric->interval) continue;
    const auto statistic = [&](std::span<const std::size_t> prompts) {
      std::vector<analysis::ResponseReport> resampled;
      MetricsOptions resampled_options;
      resampled_options.epsilon = epsilon;
      for (std::size_t prompt : prompts) {
        const auto first = reports.begin() + static_cast<std::ptrdiff_t>(block_starts[prompt]);
        resampled.insert(resampled.end(), first, first + static_cast<std::ptrdiff_t>(block_sizes[prompt]));
        resampled_options.block_sizes.push_back(block_sizes[prompt]);
      }
      const auto value = metric_value(compute_attribute_metrics(resampled, attribute, groups, resampled_options), metric->id);
      return value ? *value : std::numeric_limits<double>::quiet_NaN();
    };
    try {
      const auto result = stats::bootstrap_units(block_sizes.size(), statistic, options);
      intervals.push_back({metric->id, result.lower, result.upper});
    } catch (const std::invalid_argument&) {
      // Undefined on the data or in every resample: no interval.
    }
  }
  return intervals;
}

}  // namespace codebias::metrics
