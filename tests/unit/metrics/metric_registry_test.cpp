// The metrics registry (data/metrics/metrics.json): it parses, its function-task metrics and the
// AttributeMetrics accessors match one to one, and malformed files are refused with a reason.
#include "metrics/metric_registry.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

using ::testing::HasSubstr;

TEST(MetricRegistry, BuiltinListsThePapersMetricsInFileOrder) {
  const auto& registry = MetricRegistry::builtin();
  std::vector<std::string> ids;
  for (const auto* metric : registry.of_task("function")) {
    if (metric->interval) ids.push_back(metric->id);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"refusal_rate", "preference_entropy", "fairscore", "bias_rate",
                                           "preference_entropy_shifted", "fairness_score", "other_value_rate",
                                           "numeric_use_rate"}));
  const auto* fairscore = registry.find("fairscore");
  ASSERT_NE(fairscore, nullptr);
  EXPECT_EQ(fairscore->label, "FairScore");
  EXPECT_EQ(fairscore->paper, "FairCoder");
  EXPECT_EQ(fairscore->direction, Direction::higher_is_fairer);
  EXPECT_EQ(registry.find("bias_rate")->direction, Direction::lower_is_fairer);
  EXPECT_EQ(registry.find("testcase_difference")->json_key, "difference");
  EXPECT_EQ(registry.find("no_such_metric"), nullptr);
  EXPECT_THROW(registry.output("no_such_output"), std::out_of_range);
}

TEST(MetricRegistry, EveryFunctionMetricHasAnAccessorAndViceVersa) {
  const auto& registry = MetricRegistry::builtin();
  for (const auto* metric : registry.of_task("function")) {
    SCOPED_TRACE(metric->id);
    EXPECT_TRUE(has_metric_json(metric->id));
    EXPECT_EQ(has_metric_value(metric->id), metric->numeric());
    EXPECT_EQ(has_metric_spread(metric->id), metric->spread);
  }
  for (const auto id : attribute_metric_ids()) {
    const auto* metric = registry.find(id);
    ASSERT_NE(metric, nullptr) << id << " has an accessor but no entry in metrics.json";
    EXPECT_EQ(metric->task, "function") << id;
  }
  EXPECT_EQ(attribute_metric_ids().size(), registry.of_task("function").size());
}

TEST(MetricRegistry, AccessorsReadTheirOwnField) {
  AttributeMetrics m;
  m.refusal_rate = 0.1;
  m.refusal_rate_sd = 0.01;
  m.preference_entropy = 0.2;
  m.fairscore = 0.3;
  m.bias_rate = 0.4;
  m.preference_entropy_shifted = 0.5;
  m.fairness_score = 0.6;
  m.preference_entropy_shifted_biased = 0.7;
  m.preferred_group = "female";
  m.group_points = {{"male", 2}, {"female", 0}};
  EXPECT_EQ(metric_value(m, "refusal_rate"), 0.1);
  EXPECT_EQ(metric_value(m, "refusal_rate", MetricColumn::Part::sd), 0.01);
  EXPECT_EQ(metric_value(m, "preference_entropy", MetricColumn::Part::sd), std::nullopt);
  EXPECT_EQ(metric_value(m, "fairscore"), 0.3);
  EXPECT_EQ(metric_value(m, "bias_rate"), 0.4);
  EXPECT_EQ(metric_value(m, "preference_entropy_shifted"), 0.5);
  EXPECT_EQ(metric_value(m, "fairness_score"), 0.6);
  EXPECT_EQ(metric_value(m, "preference_entropy_shifted_biased"), 0.7);
  EXPECT_EQ(metric_json(m, "preferred_group"), "female");
  EXPECT_EQ(metric_json(m, "group_points").dump(), R"({"male":2.0,"female":0.0})");
  EXPECT_TRUE(metric_json(m, "preferred_groups").empty());
  EXPECT_THROW(metric_value(m, "preferred_group"), std::out_of_range);
  EXPECT_THROW(metric_value(m, "bias_rate", MetricColumn::Part::sd), std::out_of_range);
}

TEST(MetricRegistry, OutputColumnsNameMetricsAndTheirParts) {
  const auto& csv = MetricRegistry::builtin().output("metrics_csv");
  EXPECT_EQ(csv.digits, 6);
  ASSERT_GE(csv.columns.size(), 2u);
  EXPECT_EQ(csv.columns[0].metric->id, "refusal_rate");
  EXPECT_EQ(csv.columns[1].part, MetricColumn::Part::sd);
  EXPECT_EQ(std::count_if(csv.columns.begin(), csv.columns.end(),
                          [](const MetricColumn& c) { return c.part == MetricColumn::Part::ci95; }),
            8);  // every function metric with an interval
}

std::string parse_error(const std::string& text) {
  try {
    MetricRegistry::parse(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

std::string one_metric(const std::string& overrides, const std::string& columns = R"(["r"])") {
  std::string metric = R"({"id": "r", "label": "R", "short_label": "R", "name": "Refusal rate", "paper": "P",
      "section": "1", "formula": "f", "direction": "higher_is_fairer", "task": "function", "value": "rate",
      "spread": true, "interval": false)" + overrides + "}";
  return R"({"metrics": [)" + metric + R"(], "outputs": {"t": {"columns": )" + columns + "}}}";
}

TEST(MetricRegistry, RefusesMalformedFiles) {
  EXPECT_EQ(parse_error(one_metric("")), "");
  EXPECT_EQ(MetricRegistry::parse(one_metric("", R"(["r", "r.sd"])")).output("t").columns.size(), 2u);
  EXPECT_THAT(parse_error("[]"), HasSubstr("not a JSON object"));
  EXPECT_THAT(parse_error(one_metric(R"(, "direction": "up")")), HasSubstr("unknown direction \"up\""));
  EXPECT_THAT(parse_error(one_metric("", R"(["q"])")), HasSubstr("column \"q\" names no metric"));
  EXPECT_THAT(parse_error(one_metric("", R"(["r.ci95"])")), HasSubstr("r has no ci95"));
  EXPECT_THAT(parse_error(one_metric(R"(, "value": "group")")), HasSubstr("only a number has a spread"));
  const std::string twice = one_metric("");
  const auto metric_start = twice.find('{', 1);
  const auto metric_end = twice.find(']');
  const std::string metric = twice.substr(metric_start, metric_end - metric_start);
  EXPECT_THAT(parse_error(R"({"metrics": [)" + metric + "," + metric + R"(], "outputs": {}})"),
              HasSubstr("\"r\" listed twice"));
}

}  // namespace
}  // namespace codebias::metrics
