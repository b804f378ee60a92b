// The text of a metric in report.md and report.html: one table cell per column of metrics.json's
// outputs, "–" for an undefined value. Markdown and HTML escape the text themselves.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/metric_registry.h"
#include "metrics/run_results.h"

namespace codebias::reports {

std::string fixed(std::optional<double> value, int digits = 3);
std::string mean_sd(std::optional<double> mean, std::optional<double> sd, int digits = 3);
// The preferred group, "tie: a b" when groups share the top vote, "none" without votes.
std::string preferred_text(const metrics::AttributeMetrics& m);

// The column's header: the metric's label, "<label> 95% CI" for its interval.
std::string column_label(const metrics::MetricColumn& column);
// A function-task cell's value in that column: mean ± sd for a metric with a spread, the
// interval as "[lower, upper]".
std::string cell_text(const metrics::FunctionCell& cell, const metrics::MetricColumn& column, int digits);
// A test-case metric read from its attribute object in testcase_metrics (metrics/testcase_metrics.h):
// {"mean", "sd"} objects as mean ± sd, groups per name as "group value, ...", a group or "none".
std::string testcase_text(const nlohmann::ordered_json& attribute, const metrics::MetricSpec& metric, int digits);

}  // namespace codebias::reports
