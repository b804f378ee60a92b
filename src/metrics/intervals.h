// 95 % percentile-bootstrap intervals of a cell's metrics (stats/bootstrap.h), resampling whole
// prompts: a prompt's samples are correlated, so prompts, not responses, are the units. The
// metrics covered are those metrics.json marks "interval".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/findings/report.h"
#include "metrics/fairness.h"

namespace codebias::metrics {

struct MetricInterval {
  std::string metric;  // a registry id: refusal_rate, preference_entropy, fairscore, bias_rate, ...
  double lower = 0;
  double upper = 0;
};

inline constexpr int kIntervalResamples = 1000;

// The interval of `metric` among `intervals`; nullptr when it has none.
const MetricInterval* find_interval(const std::vector<MetricInterval>& intervals, std::string_view metric);

// Each resample draws prompts (blocks of `block_sizes` consecutive reports) with replacement and
// recomputes the metrics from their responses. Seed: stats' kDefaultBootstrapSeed;
// kIntervalResamples resamples. A metric undefined on the data, or in every resample, has none.
std::vector<MetricInterval> prompt_bootstrap_intervals(const std::vector<analysis::ResponseReport>& reports,
                                                       const std::vector<std::size_t>& block_sizes,
                                                       const std::string& attribute,
                                                       const std::vector<std::string>& groups, double epsilon);

}  // namespace codebias::metrics
