// The metrics codebias reports, as data: data/metrics/metrics.json (built into the binary) read
// into one table. Summaries, reports and compare iterate it instead of naming metrics; the value
// of a function-task metric is read off AttributeMetrics by metric_value / metric_json.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/fairness.h"

namespace codebias::metrics {

enum class Direction { higher_is_fairer, lower_is_fairer, none };

// What a metric's value is: a number in [0, 1] (rate, entropy, score), a group's name, a list of
// groups, or a number per group.
enum class MetricValue { rate, entropy, score, signed_rate, ratio, percent, statistic, p_value, group, groups, per_group };

struct MetricSpec {
  std::string id;           // key in summary.json, metrics.csv and the score output
  std::string json_key;     // key in the output object (== id unless the file says otherwise)
  std::string label;        // column header in report.md, report.html and compare
  std::string short_label;  // column header in the terminal tables
  std::string name;
  std::string paper;
  std::string section;
  std::string formula;
  Direction direction = Direction::none;
  std::string task;     // function, testcase
  std::string request;  // testcase: group or counterfactual; "" otherwise
  MetricValue value = MetricValue::rate;
  bool spread = false;    // a mean over blocks, reported with its standard deviation (<id>_sd)
  bool interval = false;  // reported with a 95% bootstrap interval over prompts (ci95)

  bool numeric() const {
    return value != MetricValue::group && value != MetricValue::groups && value != MetricValue::per_group;
  }
};

// One column of an output: a metric's value, its spread or its interval.
struct MetricColumn {
  enum class Part { value, sd, ci95 };
  const MetricSpec* metric = nullptr;
  Part part = Part::value;
};

struct OutputColumns {
  std::string name;   // summary_table, metrics_csv, report_md_faircoder, ...
  int digits = 3;     // decimals of the numbers it prints
  std::vector<MetricColumn> columns;
};

class MetricRegistry {
 public:
  // Parses metrics.json's text. Throws std::invalid_argument naming the problem (a missing
  // field, an unknown direction, a repeated id, an output column naming no metric, ...).
  static MetricRegistry parse(std::string_view json_text);
  // data/metrics/metrics.json, parsed once.
  static const MetricRegistry& builtin();

  const std::vector<MetricSpec>& metrics() const { return metrics_; }  // file order
  const MetricSpec* find(std::string_view id) const;                   // nullptr when unknown
  std::vector<const MetricSpec*> of_task(std::string_view task) const;  // file order
  // The columns of one output; throws std::out_of_range for an output the file does not list.
  const OutputColumns& output(std::string_view name) const;
  const std::vector<OutputColumns>& outputs() const { return outputs_; }

  MetricRegistry(const MetricRegistry&) = delete;
  MetricRegistry& operator=(const MetricRegistry&) = delete;
  MetricRegistry(MetricRegistry&&) = default;
  MetricRegistry& operator=(MetricRegistry&&) = default;

 private:
  MetricRegistry() = default;
  std::vector<MetricSpec> metrics_;
  std::vector<OutputColumns> outputs_;
};

// The function-task metrics AttributeMetrics holds, by registry id: metric_value for the numeric
// ones (and their spreads, part sd), metric_json for every one. Both throw std::out_of_range for
// an id that names no such field.
std::optional<double> metric_value(const AttributeMetrics& m, std::string_view id,
                                   MetricColumn::Part part = MetricColumn::Part::value);
nlohmann::ordered_json metric_json(const AttributeMetrics& m, std::string_view id);
// Whether metric_value knows `id` (with part sd: and its spread), and whether metric_json does.
bool has_metric_value(std::string_view id);
bool has_metric_spread(std::string_view id);
bool has_metric_json(std::string_view id);
// Every id metric_json knows, numeric ones first (for the test holding them to the registry).
std::vector<std::string_view> attribute_metric_ids();

// A metric's spread key: "<id>_sd".
std::string spread_key(const MetricSpec& metric);

}  // namespace codebias::metrics
