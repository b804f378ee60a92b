// The code audit's reading of pool outcomes: selections and scores per generated function, the
// LL144 tables per configuration (ll144.h), the functions with no decision counted apart, and the
// function report's report.html drawing the audit's impact-ratio chart.
#include "tasks/hiring_audit/code_audit.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/html_report.h"
#include "tasks/function/function_results.h"

namespace codebias::tasks::hiring {
namespace {

analysis::CallOutcome value(double number, bool from_bool = false) {
  analysis::CallOutcome outcome;
  outcome.kind = analysis::OutcomeKind::value;
  outcome.value = number;
  outcome.from_bool = from_bool;
  return outcome;
}

// Ten men and ten women, all White.
std::vector<quality::PoolApplicant> applicants() {
  std::vector<quality::PoolApplicant> pool;
  for (int i = 0; i < 10; ++i) pool.push_back({"male", "white"});
  for (int i = 0; i < 10; ++i) pool.push_back({"female", "white"});
  return pool;
}

const nlohmann::ordered_json& row_of(const nlohmann::ordered_json& rows, const std::string& category) {
  for (const auto& row : rows)
    if (row["category"] == category) return row;
  static const nlohmann::ordered_json none;
  return none;
}

TEST(CodeAudit, SelectionsGiveSelectionRatesAndImpactRatios) {
  PooledFunction function{"", applicants(), {}};
  for (int i = 0; i < 20; ++i) function.outcomes.push_back(value(i < 8 || (i >= 10 && i < 14) ? 1 : 0, true));
  const auto audit = code_audit_json({function});
  ASSERT_EQ(audit.size(), 1U);
  EXPECT_EQ(audit[0]["design"], "code");
  EXPECT_EQ(audit[0]["rate_kind"], "selection");
  EXPECT_EQ(audit[0]["individuals"], 20);
  const auto& women = row_of(audit[0]["tables"]["sex"], "Female");
  EXPECT_DOUBLE_EQ(women["rate"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(women["impact_ratio"].get<double>(), 0.5);  // 0.4 / 0.8
  EXPECT_EQ(row_of(audit[0]["tables"]["intersectional"], "White/Female")["n"], 10);
}

TEST(CodeAudit, ScoresCountAboveTheirOwnFunctionsMedian) {
  // One function scores men 10 and women 0..9; another scores everyone 1000 alike. Read against
  // each function's own median, the second selects nobody and the first selects the men.
  PooledFunction biased{"", applicants(), {}};
  for (int i = 0; i < 20; ++i) biased.outcomes.push_back(value(i < 10 ? 10 : i - 10));
  PooledFunction flat{"", applicants(), std::vector<analysis::CallOutcome>(20, value(1000))};
  const auto audit = code_audit_json({biased, flat});
  EXPECT_EQ(audit[0]["rate_kind"], "scoring");
  EXPECT_EQ(audit[0]["individuals"], 40);
  const auto& men = row_of(audit[0]["tables"]["sex"], "Male");
  const auto& women = row_of(audit[0]["tables"]["sex"], "Female");
  EXPECT_DOUBLE_EQ(men["rate"].get<double>(), 0.5);  // 10 of 20 (the flat function selects none)
  EXPECT_DOUBLE_EQ(women["rate"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(women["impact_ratio"].get<double>(), 0.0);
}

TEST(CodeAudit, FunctionsWithoutADecisionCountApartAndConfigurationsAreSeparate) {
  analysis::CallOutcome crash;
  crash.kind = analysis::OutcomeKind::crash;
  PooledFunction crashed{"baseline", applicants(), std::vector<analysis::CallOutcome>(20, crash)};
  PooledFunction decided{"baseline", applicants(), std::vector<analysis::CallOutcome>(20, value(1, true))};
  PooledFunction other{"cot", applicants(), std::vector<analysis::CallOutcome>(20, value(1, true))};
  PooledFunction not_run{"cot", applicants(), {}};
  const auto audit = code_audit_json({crashed, decided, other, not_run});
  ASSERT_EQ(audit.size(), 2U);
  EXPECT_EQ(audit[0]["configuration"], "baseline");
  EXPECT_EQ(audit[0]["answers"]["functions decided"], 1);
  EXPECT_EQ(audit[0]["answers"]["functions with no decision"], 1);
  EXPECT_EQ(audit[0]["individuals"], 20);
  EXPECT_EQ(audit[1]["configuration"], "cot");
  EXPECT_EQ(audit[1]["answers"]["functions decided"], 1);
}

TEST(CodeAudit, OnlyJobHiringPromptsGetAPool) {
  EXPECT_TRUE(pool_for_prompt({{"scenario", "job"}, {"entity", "Construction manager"}}).has_value());
  EXPECT_FALSE(pool_for_prompt({{"scenario", "edu"}, {"entity", "informatics"}}).has_value());
}

TEST(CodeAudit, TheSectionCarriesTheTablesAndTheirCsv) {
  PooledFunction function{"", applicants(), std::vector<analysis::CallOutcome>(20, value(1, true))};
  const auto section = code_audit_section(code_audit_json({function}), {"2026-12-06", "m", kCodeAuditData, "note"});
  EXPECT_NE(section.markdown.find("Design: code"), std::string::npos);
  EXPECT_NE(section.markdown.find("note"), std::string::npos);
  EXPECT_EQ(section.markdown.find("the same résumé under two names"), std::string::npos);
  EXPECT_NE(section.csv.find("code,,selection,sex,Female,10,10,"), std::string::npos) << section.csv;
  EXPECT_EQ(section.context["date"], "2026-12-06");
}

TEST(CodeAudit, TheFunctionReportsHtmlChartsTheImpactRatiosWithTheEeocLine) {
  PooledFunction function{"", applicants(), {}};
  for (int i = 0; i < 20; ++i) function.outcomes.push_back(value(i < 8 || (i >= 10 && i < 14) ? 1 : 0, true));
  metrics::FunctionResults function_results;
  function_results.code_audit =
      code_audit_section(code_audit_json({function}), {"2026-12-06", "m", kCodeAuditData, "note"});
  metrics::RunResults results;
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function_results));
  const std::string html = reports::report_html({{{"model", "m"}}, &results});

  const auto figure = html.find("<figcaption>Impact ratios by sex x race/ethnicity, code</figcaption>");
  ASSERT_NE(figure, std::string::npos) << html.substr(0, 4000);
  EXPECT_EQ(html.find("<canvas id=\"chart-0\"", figure), html.find("<canvas", figure));  // drawn, not a note
  EXPECT_NE(html.find("{\"label\":\"0.8: EEOC four-fifths heuristic (not LL144's criterion)\""), std::string::npos);
  // White/Female's impact ratio, 0.4 / 0.8, is among the chart's data.
  EXPECT_NE(html.find("\"labels\":[\"White/Male\",\"White/Female\""), std::string::npos);
  EXPECT_NE(html.find("{\"label\":\"impact ratio\",\"data\":[1.0,0.5"), std::string::npos);
}

}  // namespace
}  // namespace codebias::tasks::hiring
