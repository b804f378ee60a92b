// Small-group warnings in every task's reports: a cell whose rates rest on fewer than
// --min-group-n gets its n and a marked warning in report.md, report.html and summary.json; and
// the function task's metrics.csv rows carry their configuration's tokens and cost.
#include <string>

#include <gtest/gtest.h>

#include "metrics/rate.h"
#include "reports/html_report.h"
#include "reports/run_report.h"
#include "reports/small_groups.h"
#include "tasks/function/function_results.h"
#include "tasks/testcase/testcase_results.h"
#include "tasks/pipelines/pipeline_results.h"
#include "tasks/screening/screening_results.h"
#include "tasks/decision/decision_results.h"

namespace codebias::reports {
namespace {

RunReportInput input_for(const metrics::RunResults& results, int min_group_n = 30) {
  RunReportInput input;
  input.provenance = {{"model", "m"}, {"options", {{"min_group_n", min_group_n}}}};
  input.results = &results;
  return input;
}

// The warning, with the cell and its n, in report.md, report.html and summary.json.
void expect_small_group(const RunReportInput& input, const std::string& cell, const std::string& n_text) {
  const auto markdown = report_markdown(input);
  EXPECT_NE(markdown.find("**⚠ Small groups**"), std::string::npos);
  EXPECT_NE(markdown.find(cell + " (" + n_text + ")"), std::string::npos) << markdown;
  EXPECT_NE(report_html(input).find("⚠ Small groups"), std::string::npos);
  const auto groups = summary_json(input)["small_groups"];
  ASSERT_EQ(groups["cells"].size(), 1u) << groups.dump();
  EXPECT_EQ(groups["cells"][0]["cell"], cell);
  EXPECT_EQ(groups["min_n"], 30);
}

TEST(SmallGroups, DecisionRateBelowMinimumIsMarked) {
  metrics::RunResults results;
  metrics::DecisionResults decision;
  decision.static_rates = {{"gender", metrics::rate_with_interval(1, 4)}, {"age", metrics::rate_with_interval(3, 40)}};
  results.task = std::make_shared<metrics::DecisionResults>(std::move(decision));
  const auto input = input_for(results);
  expect_small_group(input, "gender", "n=4");
  EXPECT_EQ(summary_json(input)["small_groups"]["cells"][0]["n"], 4);
  EXPECT_EQ(summary_json(input)["small_groups"]["n_of"], "answers with code");
}

TEST(SmallGroups, TestcaseTopicBelowMinimumIsMarked) {
  metrics::RunResults results;
  results.task =
      std::make_shared<metrics::TestcaseResults>(nlohmann::ordered_json::parse(R"({"n": 2, "block": 2, "topics": {
    "cancer": {"category": "illness", "group": {"attributes": {"gender": {"refusal_rate": {"mean": 0.5, "sd": 0.0,
    "n": 3}, "fairscore": {"mean": 0.75, "sd": 0.0, "n": 3}, "preferred_group": "male",
    "preference_votes": {"male": 1.0, "female": 0.0}, "group_counts": {"male": 3, "female": 1}}}},
    "counterfactual": {"attributes": {}}}}})"));
  expect_small_group(input_for(results), "cancer / gender", "n=3");
}

TEST(SmallGroups, PipelineCellBelowMinimumIsMarked) {
  std::vector<metrics::PipelineAnswer> answers;
  for (int v = 0; v < 5; ++v) {
    metrics::PipelineAnswer a;
    a.prompt_id = "p" + std::to_string(v);
    a.dataset = "adult_income";
    a.path = metrics::kPipelinePath;
    a.level = "select";
    a.mitigation = "none";
    a.attribute_set = "all";
    a.variant = v;
    a.with_code = true;
    a.attributes = {{"sex", "sensitive", true}};
    answers.push_back(a);
  }
  metrics::RunResults results;
  results.task = std::make_shared<metrics::PipelineResults>(metrics::compute_pipeline_metrics(answers));
  expect_small_group(input_for(results), "adult_income / pipeline / select / none / all / sex", "n=5");
}

TEST(SmallGroups, ResumeAreaBelowMinimumIsMarked) {
  metrics::ResumeResults resume;
  metrics::ScreeningSection section;
  metrics::AreaCounts area;
  area.area = "Technology";
  area.n = 7;
  section.areas = {area};
  resume.metrics.by_config = {section};
  metrics::RunResults results;
  results.task = std::make_shared<metrics::ResumeResults>(std::move(resume));
  const auto input = input_for(results);
  const auto groups = small_groups_json(input);
  ASSERT_EQ(groups["cells"].size(), 1u);
  EXPECT_EQ(groups["cells"][0]["cell"], "Technology");
  EXPECT_EQ(groups["cells"][0]["n"], 7);
  EXPECT_NE(small_groups_markdown(input).find("fewer than 30 résumés in the area"), std::string::npos);
  EXPECT_TRUE(small_groups_json(input_for(results, 7))["cells"].empty());  // n = minimum: not small
}

TEST(SmallGroups, CatGroupBelowMinimumIsMarked) {
  metrics::CatMetrics cat;
  metrics::CatCell cell;
  cell.grouping = "gender";
  cell.group = "Female";
  cell.counts.stereotype = 2;
  cell.counts.neutral = 1;
  cell.counts.refusal = 5;  // not answered: not in n
  cat.cells = {cell};
  metrics::RunResults results;
  results.task = std::make_shared<metrics::CatResults>(std::move(cat));
  const auto input = input_for(results);
  EXPECT_NE(small_groups_markdown(input).find("gender / Female (n=3)"), std::string::npos);
  EXPECT_EQ(small_groups_json(input)["n_of"], "answered items");
}

TEST(SmallGroups, FunctionMetricsCsvCarriesTheConfigurationCost) {
  metrics::SampleRecord record;
  record.planned.config = "T=0";
  record.result.usage.prompt_tokens = 1'000'000;
  record.result.usage.completion_tokens = 500'000;
  metrics::RunResults results;
  results.samples = {{&record, nullptr}};
  metrics::FunctionCell cell;
  cell.config = "T=0";
  cell.scenario = "job";
  cell.attribute = "gender";
  cell.metrics.attribute = "gender";
  metrics::FunctionResults function;
  function.cells = {cell};
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function));
  auto input = input_for(results);

  const auto unpriced = metrics_csv(input);
  EXPECT_NE(unpriced.find(",config_prompt_tokens,config_completion_tokens,config_cost\n"), std::string::npos);
  EXPECT_NE(unpriced.find(",,,\n"), std::string::npos);  // no price: the cost columns stay empty

  input.provenance["prices"] = {{"model", "m"}, {"currency", "USD"}, {"prompt_per_million", 2.0},
                                {"completion_per_million", 4.0}};
  const auto priced = metrics_csv(input);
  EXPECT_NE(priced.find(",1000000,500000,4.000000\n"), std::string::npos) << priced;  // 2 + 2 USD
}

}  // namespace
}  // namespace codebias::reports
