// report.html at any size (issue 33 point 5): too many categories become a heatmap table, an
// all-zero chart a note, a long table a collapsed block with its CSV; the FairCoder and
// ProbeDebias tables keep report.md's intervals; every task has a headline; conversations and
// reasoning traces are counted apart.
#include <string>

#include <gtest/gtest.h>

#include "reports/html_report.h"
#include "text_support.h"
#include "reports/run_report.h"
#include "reports/task_report.h"
#include "tasks/run_analysis.h"
#include "tasks/function/function_results.h"
#include "tasks/testcase/testcase_results.h"
#include "tasks/decision/decision_results.h"

namespace codebias::reports {
namespace {

using test_support::count_occurrences;

// Decision results with `n` attributes, attribute i biased in `biased` of 10 answers.
metrics::RunResults decision_results(int n, int biased) {
  metrics::DecisionResults decision;
  for (int i = 0; i < n; ++i) {
    decision.static_rates.push_back(
        {"attribute_" + std::to_string(i), metrics::RateWithInterval{biased / 10.0, {0.0, 0.5}, biased, 10}});
  }
  metrics::RunResults results;
  results.task = std::make_shared<metrics::DecisionResults>(std::move(decision));
  return results;
}

std::string html_of(const metrics::RunResults& results) {
  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;
  return report_html(input);
}

TEST(HtmlReportLayout, ChartOfMoreThanTwentyCategoriesIsAHeatmapTable) {
  const auto wide = html_of(decision_results(21, 3));
  EXPECT_EQ(count_occurrences(wide, "<figure class=\"chart wide chart-heatmap\">"), 1u);
  EXPECT_NE(wide.find("21 categories, too many for one chart axis"), std::string::npos);
  EXPECT_EQ(wide.find("<canvas"), std::string::npos);
  EXPECT_NE(wide.find("\"charts\":[]"), std::string::npos);  // no chart data left for the script

  const auto narrow = html_of(decision_results(20, 3));
  EXPECT_EQ(narrow.find("<figure class=\"chart wide chart-heatmap\">"), std::string::npos);
  EXPECT_EQ(count_occurrences(narrow, "<canvas"), 1u);
}

TEST(HtmlReportLayout, AllZeroChartIsANoteNotAnEmptyFrame) {
  const auto html = html_of(decision_results(3, 0));
  EXPECT_NE(html.find("figure class=\"chart empty\""), std::string::npos);
  EXPECT_NE(html.find("Not drawn: every value (share of answers) is 0 or undefined"), std::string::npos);
  EXPECT_EQ(html.find("<canvas"), std::string::npos);
}

TEST(HtmlReportLayout, LongTableIsCollapsedBehindItsSizeWithTheWholeTableAsCsv) {
  const auto long_table = html_of(decision_results(26, 3));
  EXPECT_NE(long_table.find("<details class=\"long-table\"><summary>All 26 rows (2 columns)"), std::string::npos);
  // The CSV link holds the header and every row (a cell with a comma quoted), percent-encoded.
  EXPECT_NE(long_table.find("href=\"data:text/csv;charset=utf-8,attribute%2Cstatic%20bias%20rate"), std::string::npos);
  EXPECT_NE(long_table.find("attribute%5F25%2C%220%2E300"), std::string::npos);
  EXPECT_EQ(count_occurrences(long_table, "<script"), 4u);  // the page's own scripts only

  const auto short_table = html_of(decision_results(25, 3));
  EXPECT_EQ(short_table.find("<details class=\"long-table\">"), std::string::npos);
}

TEST(HtmlReportLayout, FairCoderAndProbeDebiasTablesShowTheIntervalsOfReportMd) {
  metrics::FunctionCell cell;
  cell.scenario = "job";
  cell.attribute = "gender";
  cell.n_prompts = 2;
  cell.metrics.attribute = "gender";
  cell.metrics.n_with_code = 4;
  cell.metrics.fairscore = 0.5;
  cell.metrics.bias_rate = 0.25;
  cell.intervals = {{"fairscore", 0.125, 0.875}, {"bias_rate", 0.0624, 0.625}};
  metrics::FunctionResults function;
  function.cells = {cell};
  metrics::RunResults results;
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function));

  const auto html = html_of(results);
  EXPECT_NE(html.find("<th>FairScore 95% CI</th>"), std::string::npos);
  EXPECT_NE(html.find("[0.125, 0.875]"), std::string::npos);
  EXPECT_NE(html.find("[0.062, 0.625]"), std::string::npos);
}

TEST(HtmlReportLayout, DecisionAndTestcaseReportsHaveAHeadlineFigure) {
  const auto decision = task_report(decision_results(2, 4))->headline_cards();
  ASSERT_EQ(decision.size(), 1u);  // without --execute
  EXPECT_EQ(decision[0].label, "highest static bias rate");
  EXPECT_EQ(decision[0].value, "0.400");

  metrics::RunResults testcase;
  testcase.task = std::make_shared<metrics::TestcaseResults>(nlohmann::ordered_json::parse(R"({"topics": {
    "cancer": {"group": {"attributes": {"gender": {"fairscore": {"mean": 0.5}}}},
               "counterfactual": {"attributes": {"gender": {"difference": 0.25}}}},
    "flu": {"group": {"attributes": {"gender": {"fairscore": {"mean": 1.0}}}},
            "counterfactual": {"attributes": {"gender": {"difference": 0.75}}}}}})"));
  const auto cards = task_report(testcase)->headline_cards();
  ASSERT_EQ(cards.size(), 2u);
  EXPECT_EQ(cards[0].value, "0.750");
  EXPECT_EQ(cards[1].value, "0.500");
  EXPECT_NE(cards[1].note.find("largest 0.750 (flu / gender)"), std::string::npos);
}

metrics::SampleRecord done_record(int turn, std::string reasoning) {
  metrics::SampleRecord record;
  if (turn > 1) record.planned.metadata = {{"turn", turn}};
  record.result.status = generation::SampleStatus::done;
  record.result.reasoning = std::move(reasoning);
  return record;
}

TEST(HtmlReportLayout, ConversationsAndReasoningTracesAreCountedApart) {
  metrics::RunResults results = decision_results(1, 1);
  for (const auto& record : {done_record(1, std::string(10, 'x')), done_record(2, ""), done_record(1, "")}) {
    tasks::count_result(results.counts, record);
  }
  EXPECT_EQ(results.counts.planned, 3);
  EXPECT_EQ(results.counts.follow_up_turns, 1);
  EXPECT_EQ(results.counts.with_reasoning, 1);
  EXPECT_EQ(results.counts.reasoning_tokens, 3);  // 10 bytes at 4 a token, rounded up
  EXPECT_EQ(results.counts.reasoning_tokens_estimated, 3);

  const auto html = html_of(results);
  EXPECT_NE(html.find("<div class=\"value\">2</div><div class=\"label\">conversations</div>"), std::string::npos);
  EXPECT_NE(html.find("+ 1 follow-up turns = 3 requests planned"), std::string::npos);
  EXPECT_NE(html.find("3 reasoning (1 answers with a reasoning trace; 3 of the reasoning tokens estimated"),
            std::string::npos);
  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;
  EXPECT_NE(report_markdown(input).find("The 3 planned samples are 2 conversations and 1 follow-up turns"),
            std::string::npos);
}

}  // namespace
}  // namespace codebias::reports
