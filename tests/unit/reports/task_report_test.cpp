// Each task's results bring their own report sections: the function task's FairCoder and
// ProbeDebias tables, the test-case task's per-topic tables, never the other's.
#include <string>

#include <gtest/gtest.h>

#include "reports/html_report.h"
#include "reports/run_report.h"
#include "reports/task_report.h"
#include "tasks/function/function_results.h"
#include "tasks/testcase/testcase_results.h"
#include "tasks/pipelines/pipeline_results.h"

namespace codebias::reports {
namespace {

nlohmann::ordered_json one_topic() {
  return nlohmann::ordered_json::parse(R"({"n": 2, "block": 2, "topics": {"cancer": {"category": "illness",
    "group": {"attributes": {"gender": {"refusal_rate": {"mean": 0.5, "sd": 0.0, "n": 1},
      "fairscore": {"mean": 0.75, "sd": 0.0, "n": 1}, "preferred_group": "male",
      "preference_votes": {"male": 1.0, "female": 0.0}, "group_counts": {"male": 3, "female": 1}}}},
    "counterfactual": {"attributes": {}}}}})");
}

TEST(TaskReport, TestcaseResultsWriteTheTopicTablesOnly) {
  metrics::RunResults results;
  results.task = std::make_shared<metrics::TestcaseResults>(one_topic());
  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;

  const auto markdown = report_markdown(input);
  EXPECT_NE(markdown.find("## FairCoder test-case metrics (per topic)"), std::string::npos);
  EXPECT_NE(markdown.find("| cancer | gender | 0.500 ± 0.000 |"), std::string::npos);
  EXPECT_EQ(markdown.find("## ProbeDebias metrics"), std::string::npos);

  const auto summary = summary_json(input);
  EXPECT_EQ(summary["testcase_metrics"]["topics"].size(), 1u);
  EXPECT_TRUE(summary["metrics"].empty());

  const auto html = report_html(input);
  EXPECT_NE(html.find("id=\"testcase\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"faircoder\""), std::string::npos);
  EXPECT_NE(html.find("<caption>gender</caption>"), std::string::npos);  // the heatmap row of the topic
}

TEST(TaskReport, FunctionResultsWriteTheCellTablesAndTheirHeadline) {
  metrics::RunResults results;
  metrics::FunctionCell cell;
  cell.scenario = "job";
  cell.attribute = "gender";
  cell.n_prompts = 1;
  cell.metrics.attribute = "gender";
  cell.metrics.n_with_code = 4;
  cell.metrics.n_biased = 1;
  cell.metrics.fairscore = 0.5;
  metrics::FunctionResults function;
  function.cells = {cell};
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function));

  const auto report = task_report(results);
  const auto cards = report->headline_cards();
  ASSERT_EQ(cards.size(), 2u);
  EXPECT_EQ(cards[0].value, "0.250");  // 1 biased of 4 programs
  EXPECT_EQ(cards[1].value, "0.500");
  EXPECT_STREQ(report->amount_name(), "points");

  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;
  const auto markdown = report_markdown(input);
  EXPECT_NE(markdown.find("## ProbeDebias metrics"), std::string::npos);
  EXPECT_EQ(markdown.find("test-case metrics"), std::string::npos);
}

TEST(TaskReport, FunctionCellsOfTestcaseResultsAreALogicError) {
  metrics::RunResults results;
  results.task = std::make_shared<metrics::TestcaseResults>(one_topic());
  EXPECT_THROW(results.function_cells(), std::logic_error);
}

TEST(TaskReport, PipelineResultsWriteTheCbsTablesAndTheMoreBiasedCount) {
  std::vector<metrics::PipelineAnswer> answers;
  for (int v = 0; v < 10; ++v) {
    for (const char* path : {metrics::kConditionalPath, metrics::kPipelinePath}) {
      metrics::PipelineAnswer a;
      a.prompt_id = std::string(path) + std::to_string(v);
      a.dataset = "adult_income";
      a.path = path;
      a.level = a.path == metrics::kPipelinePath ? "select" : "";
      a.mitigation = "none";
      a.attribute_set = "all";
      a.variant = v;
      a.with_code = true;
      a.attributes = {{"sex", "sensitive", a.path == metrics::kPipelinePath}, {"favorite_color", "irrelevant", false}};
      answers.push_back(a);
    }
  }
  metrics::RunResults results;
  results.task = std::make_shared<metrics::PipelineResults>(metrics::compute_pipeline_metrics(answers));
  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;

  const auto markdown = report_markdown(input);
  EXPECT_NE(markdown.find("Pipelines are more biased than conditionals in 1 of 1 combinations"), std::string::npos);
  EXPECT_NE(markdown.find("| pipeline | 10 | 10 | 1.000 |"), std::string::npos);
  EXPECT_NE(markdown.find("| conditional | 10 | 0 | 0.000 |"), std::string::npos);
  const auto summary = summary_json(input);
  EXPECT_EQ(summary["pipeline_metrics"]["combinations"]["pipeline_more_biased_significant"], 1);
  const auto csv = metrics_csv(input);
  EXPECT_NE(csv.find(",adult_income,pipeline,select,none,all,sex,sensitive,10,10,10,10,1.000000,"), std::string::npos);
  const auto html = report_html(input);
  EXPECT_NE(html.find("id=\"ml-pipelines\""), std::string::npos);
}

}  // namespace
}  // namespace codebias::reports
