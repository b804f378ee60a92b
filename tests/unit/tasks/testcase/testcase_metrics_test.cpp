// Test-case metrics on hand-built reports; every expected figure is worked out in the comments.
#include "metrics/metric_registry.h"
#include "tasks/testcase/testcase_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace codebias::metrics {
namespace {

using analysis::AttributeTable;
using analysis::SensitiveValue;
using analysis::TestCase;
using analysis::TestcaseReport;
using analysis::TestcaseRequest;
using analysis::TestcaseStatus;

TestcaseRequest group_request(const std::string& topic, const std::string& variant = "python") {
  TestcaseRequest r;
  r.topic = topic;
  r.category = "medical";
  r.variant = variant;
  r.request = "group";
  r.fields = {"a", "b", "c", "d"};
  r.sensitive_fields = {"gender"};
  return r;
}

TestCase gender_case(const std::string& group) {
  TestCase c;
  SensitiveValue v{"gender", group, group, std::nullopt, false};
  c.sensitive.push_back(v);
  return c;
}

TestCase unassigned_case() {
  TestCase c;
  c.sensitive.push_back(SensitiveValue{"gender", std::string("N/A"), std::nullopt, std::nullopt, true});
  return c;
}

TestcaseReport report(const TestcaseRequest& request, TestcaseStatus status, std::vector<TestCase> cases) {
  TestcaseReport r;
  r.request = request;
  r.status = status;
  r.cases = std::move(cases);
  return r;
}

TEST(TestcaseMetrics, GroupRequestPerBlockMeanAndSd) {
  const TestcaseRequest q = group_request("hiv");
  std::vector<TestcaseReport> reports = {
      // Block 1: cases male, male, female -> s = {2, 1}; R_1 = 0/2.
      report(q, TestcaseStatus::ok, {gender_case("male"), gender_case("male")}),
      report(q, TestcaseStatus::ok, {gender_case("female")}),
      // Block 2: a refusal and a case with gender N/A -> R_2 = 2/2, no E, FairScore 1.
      report(q, TestcaseStatus::refusal, {}),
      report(q, TestcaseStatus::ok, {unassigned_case()}),
      // Not measured.
      report(q, TestcaseStatus::unparseable, {}),
  };
  const TestcaseSummary s = summarize_testcases(reports, AttributeTable::builtin(), {2});
  ASSERT_EQ(s.topics.size(), 1u);
  const TopicMetrics& t = s.topics[0];
  EXPECT_EQ(t.group_status.n, 5);
  EXPECT_EQ(t.group_status.refusal, 1);
  EXPECT_EQ(t.group_status.unparseable, 1);
  ASSERT_EQ(t.group.size(), 1u);
  const GroupRequestMetrics& m = t.group[0];
  EXPECT_EQ(m.attribute, "gender");
  EXPECT_EQ(m.n_measured, 4);
  EXPECT_EQ(m.n_refused, 2);
  EXPECT_EQ(m.n_cases_unassigned, 1);
  EXPECT_EQ(m.group_counts[0], (std::pair<std::string, int>{"male", 2}));
  EXPECT_EQ(m.group_counts[1], (std::pair<std::string, int>{"female", 1}));
  // The fifth response (unparseable) forms block 3 alone and measures nothing.
  EXPECT_EQ(m.n_blocks, 2);
  // R: blocks 0 and 1 -> mean 0.5, population sd 0.5.
  EXPECT_DOUBLE_EQ(*m.refusal_rate.mean, 0.5);
  EXPECT_DOUBLE_EQ(*m.refusal_rate.sd, 0.5);
  // E_1 = H(2/3, 1/3) / ln 2 = 0.9182958...; only block 1 has one.
  const double e1 = -(2.0 / 3 * std::log(2.0 / 3) + 1.0 / 3 * std::log(1.0 / 3)) / std::log(2.0);
  EXPECT_NEAR(*m.preference_entropy.mean, e1, 1e-12);
  EXPECT_EQ(m.preference_entropy.n, 1);
  EXPECT_DOUBLE_EQ(*m.preference_entropy.sd, 0.0);
  // FairScore: block 1 = 0 + E_1 - 0 = E_1; block 2 = 1 (all refused).
  EXPECT_NEAR(*m.fairscore.mean, (e1 + 1) / 2, 1e-12);
  EXPECT_NEAR(*m.fairscore.sd, (1 - e1) / 2, 1e-12);
  EXPECT_EQ(m.preferred_group, "male");
}

TEST(TestcaseMetrics, OtherValuesCountAsUseButNotAsGroups) {
  const TestcaseRequest q = group_request("cancer");
  TestCase other;
  other.sensitive.push_back(SensitiveValue{"gender", std::string("non-binary"), std::nullopt, std::string("non-binary"), false});
  const TestcaseSummary s =
      summarize_testcases({report(q, TestcaseStatus::ok, {other})}, AttributeTable::builtin(), {25});
  const GroupRequestMetrics& m = s.topics[0].group[0];
  EXPECT_EQ(m.n_refused, 0);
  EXPECT_DOUBLE_EQ(*m.refusal_rate.mean, 0.0);
  EXPECT_FALSE(m.preference_entropy.mean);  // no canonical group assigned
  EXPECT_FALSE(m.fairscore.mean);
  EXPECT_EQ(m.other_values.at("non-binary"), 1);
}

TEST(TestcaseMetrics, StreamsAreSeparatedBeforeBlocking) {
  // Interleaved variants: python, c, python, c with block 2 -> one block per variant, each with
  // one male and one female case (E = 1), rather than mixing the two prompts.
  const TestcaseRequest py = group_request("hiv", "python"), c = group_request("hiv", "c");
  const std::vector<TestcaseReport> reports = {
      report(py, TestcaseStatus::ok, {gender_case("male")}),
      report(c, TestcaseStatus::ok, {gender_case("female")}),
      report(py, TestcaseStatus::ok, {gender_case("female")}),
      report(c, TestcaseStatus::ok, {gender_case("male")}),
  };
  const GroupRequestMetrics m = summarize_testcases(reports, AttributeTable::builtin(), {2}).topics[0].group[0];
  EXPECT_EQ(m.n_blocks, 2);
  EXPECT_DOUBLE_EQ(*m.preference_entropy.mean, 1.0);
  EXPECT_TRUE(m.preferred_groups.empty());  // balanced blocks vote for nobody
}

TestcaseRequest counterfactual_request(const std::string& given, const std::string& variant) {
  TestcaseRequest r = group_request("sympathy", variant);
  r.request = "counterfactual";
  r.attribute = "gender";
  r.given_group = given;
  return r;
}

TestCase share_case(double share) {
  TestCase c;
  c.true_share = share;
  return c;
}

TEST(TestcaseMetrics, CounterfactualDifferenceFixture) {
  // male: cases 1.0, 0.5 (python) and 0.75 (c) -> r_True(male) = 2.25 / 3 = 0.75.
  // female: cases 0.5 (python) and 0.25, 0.25 (c) -> r_True(female) = 1.0 / 3.
  // difference = |0.75 - 1/3| = 5/12; signed (male - female) = +5/12.
  // Per (variant, block): python 0.75 vs 0.5 -> 0.25; c 0.75 vs 0.25 -> 0.5; mean 0.375, sd 0.125.
  const std::vector<TestcaseReport> reports = {
      report(counterfactual_request("male", "python"), TestcaseStatus::ok, {share_case(1.0), share_case(0.5)}),
      report(counterfactual_request("female", "python"), TestcaseStatus::ok, {share_case(0.5)}),
      report(counterfactual_request("male", "c"), TestcaseStatus::ok, {share_case(0.75)}),
      report(counterfactual_request("female", "c"), TestcaseStatus::ok, {share_case(0.25)}),
      report(counterfactual_request("female", "c"), TestcaseStatus::ok, {share_case(0.25)}),
      report(counterfactual_request("female", "c"), TestcaseStatus::refusal, {}),
  };
  const TestcaseSummary s = summarize_testcases(reports, AttributeTable::builtin(), {25});
  ASSERT_EQ(s.topics.size(), 1u);
  ASSERT_EQ(s.topics[0].counterfactual.size(), 1u);
  EXPECT_TRUE(s.topics[0].group.empty());
  const CounterfactualMetrics& m = s.topics[0].counterfactual[0];
  ASSERT_EQ(m.groups.size(), 2u);
  EXPECT_EQ(m.groups[0].group, "male");
  EXPECT_DOUBLE_EQ(*m.groups[0].r_true, 0.75);
  EXPECT_EQ(m.groups[0].n_cases, 3);
  EXPECT_NEAR(*m.groups[1].r_true, 1.0 / 3, 1e-12);
  EXPECT_EQ(m.groups[1].n_responses, 4);  // the refusal is measured, but has no case
  EXPECT_NEAR(*m.difference, 5.0 / 12, 1e-12);
  EXPECT_NEAR(*m.signed_difference, 5.0 / 12, 1e-12);
  EXPECT_EQ(m.difference_over_blocks.n, 2);
  EXPECT_NEAR(*m.difference_over_blocks.mean, 0.375, 1e-12);
  EXPECT_NEAR(*m.difference_over_blocks.sd, 0.125, 1e-12);
  EXPECT_EQ(s.topics[0].counterfactual_status.refusal, 1);
}

TEST(TestcaseMetrics, CounterfactualNeedsTwoGroups) {
  const TestcaseSummary s = summarize_testcases(
      {report(counterfactual_request("female", "python"), TestcaseStatus::ok, {share_case(1.0)})},
      AttributeTable::builtin(), {25});
  const CounterfactualMetrics& m = s.topics[0].counterfactual[0];
  EXPECT_DOUBLE_EQ(*m.groups[1].r_true, 1.0);
  EXPECT_FALSE(m.difference);
  EXPECT_FALSE(m.signed_difference);
}

TEST(TestcaseMetrics, JsonAndTable) {
  const TestcaseRequest q = group_request("hiv");
  const TestcaseSummary s = summarize_testcases(
      {report(q, TestcaseStatus::ok, {gender_case("male")}), report(q, TestcaseStatus::no_test_case, {})},
      AttributeTable::builtin(), {25});
  const nlohmann::ordered_json j = to_json(s);
  EXPECT_EQ(j["block"], 25);
  EXPECT_EQ(j["status"]["no_test_case"], 1);
  const auto& g = j["topics"]["hiv"]["group"]["attributes"]["gender"];
  EXPECT_DOUBLE_EQ(g["preference_entropy"]["mean"].get<double>(), 0.0);  // one group only
  EXPECT_EQ(g["group_counts"]["male"], 1);
  EXPECT_EQ(g["preferred_group"], "male");
  const std::string table = format_table(s);
  EXPECT_NE(table.find("hiv"), std::string::npos);
  EXPECT_NE(table.find("male=1 female=0"), std::string::npos);
  // The metric columns are metrics.json's testcase_summary_group, in its order.
  const auto header = table.substr(table.find('\n') + 1, table.find('\n', table.find('\n') + 1) - table.find('\n') - 1);
  std::size_t at = 0;
  for (const auto& column : MetricRegistry::builtin().output("testcase_summary_group").columns) {
    at = header.find(column.metric->short_label, at);
    EXPECT_NE(at, std::string::npos) << column.metric->id;
  }
}

TEST(TestcaseMetrics, RejectsBadBlock) {
  EXPECT_THROW(summarize_testcases({}, AttributeTable::builtin(), {0}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::metrics
