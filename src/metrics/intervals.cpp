#include "metrics/intervals.h"

#include <limits>
#include <span>

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
  std::vector<const MetricSpec*> metrics;
  for (const auto* metric : MetricRegistry::builtin().of_task("function")) {
    if (metric->interval) metrics.push_back(metric);
  }
  // One pass over a resample computes every metric, so all of them share the resamples.
  std::vector<const analysis::ResponseReport*> resampled;
  const auto statistics = [&](std::span<const std::size_t> prompts) {
    resampled.clear();
    MetricsOptions resampled_options;
    resampled_options.epsilon = epsilon;
    for (std::size_t prompt : prompts) {
      for (std::size_t i = 0; i < block_sizes[prompt]; ++i) resampled.push_back(&reports[block_starts[prompt] + i]);
      resampled_options.block_sizes.push_back(block_sizes[prompt]);
    }
    const auto computed = compute_attribute_metrics_over(resampled, attribute, groups, resampled_options);
    std::vector<double> values;
    for (const auto* metric : metrics) {
      const auto value = metric_value(computed, metric->id);
      values.push_back(value ? *value : std::numeric_limits<double>::quiet_NaN());
    }
    return values;
  };
  std::vector<MetricInterval> intervals;
  if (block_sizes.empty() || metrics.empty()) return intervals;
  stats::BootstrapOptions options;
  options.resamples = kIntervalResamples;
  const auto results = stats::bootstrap_units_jointly(block_sizes.size(), metrics.size(), statistics, options);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    // Undefined on the data or in every resample: no interval.
    if (results[i]) intervals.push_back({metrics[i]->id, results[i]->lower, results[i]->upper});
  }
  return intervals;
}

}  // namespace codebias::metrics
