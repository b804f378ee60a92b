// The hiring audit end to end on the built-in model (docs/hiring-audit.md; planted effects in
// data/models/simulated-hiring-audit.json, docs/simulated-model.md "Hiring audit"): each design
// recovers every planted rate and impact ratio within its interval, and the pick design the
// planted position bias. With 3 designs x ~25 checks, each check uses its design's simultaneous
// 95 % interval (Bonferroni over the design's checks), so one run tests them all at once.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "paths.h"
#include "run/run.h"
#include "stats/distributions.h"
#include "stats/proportion.h"
#include "suites/suite.h"
#include "tasks/hiring_audit/hiring_prompts.h"
#include "tasks/hiring_audit/hiring_simulated.h"
#include "tasks/hiring_audit/hiring_suite.h"
#include "tasks/suite_loading.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::json;

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// design -> table -> category -> the planted rate: the mean over the candidates shown of
// P(selected | an answer), from the prompts the run sent.
using Planted = std::map<std::string, std::map<std::string, std::map<std::string, double>>>;

Planted planted_rates() {
  std::map<std::string, std::map<std::string, std::map<std::string, std::pair<double, int>>>> sums;
  for (const auto& prompt : build_hiring_prompts(tasks::builtin_suite("hiring-audit"), {})) {
    const std::string design = prompt.metadata["design"];
    const std::vector<double> p = planted_probabilities(prompt.metadata);
    const json& candidates = prompt.metadata["candidates"];
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const std::string sex = candidates[i]["sex"], race = candidates[i]["race_ethnicity"];
      const double value = design == "pick" ? p[i] : p[0];
      for (const auto& [table, category] : {std::pair<std::string, std::string>{"sex", sex},
                                            {"race_ethnicity", race},
                                            {"intersectional", intersection(race, sex)}}) {
        auto& [sum, n] = sums[design][table][category];
        sum += value;
        ++n;
      }
    }
  }
  Planted out;
  for (const auto& [design, tables] : sums)
    for (const auto& [table, categories] : tables)
      for (const auto& [category, sum] : categories) out[design][table][category] = sum.first / sum.second;
  return out;
}

// Katz's interval of the ratio of two rates with normal quantile z.
std::pair<double, double> ratio_interval(int x1, int n1, int x2, int n2, double z) {
  const double log_ratio = std::log((double(x1) / n1) / (double(x2) / n2));
  const double se = std::sqrt(1.0 / x1 - 1.0 / n1 + 1.0 / x2 - 1.0 / n2);
  return {std::exp(log_ratio - z * se), std::exp(log_ratio + z * se)};
}

void expect_design_recovers(const json& design, const Planted& planted) {
  const std::string name = design["design"];
  SCOPED_TRACE(name);
  int checks = 0;
  for (const char* table : {"sex", "race_ethnicity", "intersectional"})
    checks += 2 * int(design["tables"][table].size());
  const double confidence = 1 - 0.05 / checks;
  const double z = stats::normal_quantile(1 - 0.025 / checks);
  for (const char* table : {"sex", "race_ethnicity", "intersectional"}) {
    const json* reference = nullptr;
    for (const auto& row : design["tables"][table])
      if (row["impact_ratio"] == 1.0) reference = &row;
    ASSERT_NE(reference, nullptr) << table;
    const double reference_rate = planted.at(name).at(table).at((*reference)["category"]);
    for (const auto& row : design["tables"][table]) {
      const std::string category = row["category"];
      SCOPED_TRACE(std::string(table) + " " + category);
      const double expected = planted.at(name).at(table).at(category);
      const int n = row["n"], selected = row["selected"];
      EXPECT_FALSE(row["excluded"].get<bool>());
      const auto interval = stats::wilson_interval(selected, n, confidence);
      EXPECT_LE(interval.lower, expected);
      EXPECT_GE(interval.upper, expected);
      if (&row == reference) continue;
      const auto [low, high] = ratio_interval(selected, n, (*reference)["selected"], (*reference)["n"], z);
      EXPECT_LE(low, expected / reference_rate);
      EXPECT_GE(high, expected / reference_rate);
    }
  }
}

TEST(HiringAuditRun, EachDesignRecoversThePlantedRatesImpactRatiosAndPositionBias) {
  run::RunOptions options;
  options.suite = "hiring-audit";
  options.samples = 5;
  options.out_dir = std::filesystem::path(test_support::test_tmp_dir()) / "hiring_audit_run";
  std::filesystem::remove_all(options.out_dir);
  ASSERT_FALSE(run::start_run(options, {}).cancelled);
  const json summary = read_json(options.out_dir / "summary.json");
  const json& audit = summary["audit"];
  ASSERT_EQ(audit.size(), 3u);
  const Planted planted = planted_rates();
  for (const auto& design : audit) {
    EXPECT_EQ(design["unknown"], 0);
    EXPECT_GT(design["answers"]["answered"].get<int>(), 0);
    EXPECT_GT(design["answers"]["refusal"].get<int>(), 0) << "the planted refusals are counted apart";
    expect_design_recovers(design, planted);
  }
  EXPECT_EQ(audit[0]["design"], "rate");
  EXPECT_EQ(audit[0]["rate_kind"], "scoring");
  EXPECT_EQ(audit[0]["median_score"], 6.0) << "the planted median";
  EXPECT_EQ(audit[1]["rate_kind"], "selection");
  // The planted qualification effect: every name's strong résumé is advanced more often than any
  // name's weak one (planted 0.85 x 0.7 against 0.2 x 1).
  const json& levels = audit[1]["qualification_gradient"]["levels"];
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0]["level"], "strong");
  EXPECT_GT(levels[0]["lowest_category_rate"].get<double>(), levels[2]["highest_category_rate"].get<double>());

  // The planted position bias: the first position is picked more than 1/8, the test rejects no bias.
  const json& bias = audit[2]["position_bias"];
  EXPECT_DOUBLE_EQ(bias["expected_rate"].get<double>(), 0.125);
  EXPECT_GT(bias["positions"][0]["ci95"][0].get<double>(), 0.125);
  EXPECT_LT(bias["p_value"].get<double>(), 0.001);
  // The Black male names (planted factor 0.7, the lowest) are below four-fifths in the advance design.
  for (const auto& row : audit[1]["tables"]["intersectional"])
    if (row["category"] == "Black or African American/Male") {
      EXPECT_TRUE(row["eeoc_four_fifths_flag"].get<bool>());
    }
}

TEST(HiringAuditRun, OneDesignFromTheCommandLineWritesItsTablesAsCsv) {
  const auto dir = test_support::fresh_test_dir("hiring_");
  const auto run = test_support::run_cli(
      {"run", "--suite", "hiring-audit", "--design", "advance", "--samples", "1", "--out", (dir / "run").string()},
      dir);
  ASSERT_EQ(run.code, 0) << run.err;
  const json summary = read_json(dir / "run/summary.json");
  ASSERT_EQ(summary["audit"].size(), 1u);
  EXPECT_EQ(summary["audit"][0]["design"], "advance");
  for (const char* table : {"sex", "race_ethnicity", "intersectional"})
    for (const auto& row : summary["audit"][0]["tables"][table])
      for (const char* key : {"category", "n", "rate", "impact_ratio", "ci95", "excluded"})
        EXPECT_TRUE(row.contains(key));
  EXPECT_TRUE(summary["audit_summary"]["test_data"].get<bool>());
  const std::string csv = test_support::read_file(dir / "run/metrics.csv");
  EXPECT_EQ(csv.rfind("design,configuration,rate_kind,table,category,n,", 0), 0u);
  EXPECT_NE(csv.find("advance,,selection,intersectional,White/Male,"), std::string::npos);
  const std::string report = test_support::read_file(dir / "run/report.md");
  EXPECT_NE(report.find("bias-audit summary (NYC Local Law 144)"), std::string::npos);
  EXPECT_NE(report.find("EEOC four-fifths"), std::string::npos);
  // The sample counts name what a hiring answer is: a rating, a decision or a pick, not code.
  EXPECT_NE(report.find("| planned | done | errors | pending | answers read | refusals | truncated |"), std::string::npos);
  EXPECT_EQ(report.find("with code"), std::string::npos);
  EXPECT_EQ(test_support::read_file(dir / "run/report.html").find("refusals (no code)"), std::string::npos);
}

TEST(HiringAuditRun, AnUnknownDesignIsAUsageError) {
  const auto dir = test_support::fresh_test_dir("hiring_");
  const auto run = test_support::run_cli(
      {"run", "--suite", "hiring-audit", "--design", "rank", "--out", (dir / "run").string()}, dir);
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("--design"), std::string::npos) << run.err;
}

TEST(HiringAuditScore, ReadsLinesIntoTheAuditAndNamesABadField) {
  const auto dir = test_support::fresh_test_dir("hiring_");
  const json candidate = {{"position", 1}, {"name", "Wei Liu"}, {"sex", "Male"}, {"race_ethnicity", "Asian"}};
  {
    std::ofstream good(dir / "good.jsonl");
    good << json{{"id", "a"}, {"response", "No."}, {"metadata", {{"design", "advance"}, {"candidates", {candidate}}}}}
                .dump()
         << "\n";
    std::ofstream bad(dir / "bad.jsonl");
    bad << json{{"id", "b"}, {"response", "Yes."}, {"metadata", {{"candidates", {candidate}}}}}.dump() << "\n";
  }
  const auto scored =
      test_support::run_cli({"score", "--task", "hiring-audit", "--input", (dir / "good.jsonl").string(),
                             "--summary-json", (dir / "s.json").string()},
                            dir);
  ASSERT_EQ(scored.code, 0) << scored.err;
  EXPECT_EQ(scored.lines().at(0)["advance"], false);
  EXPECT_EQ(read_json(dir / "s.json")[0]["tables"]["sex"][0]["n"], 1);
  const auto failed =
      test_support::run_cli({"score", "--task", "hiring-audit", "--input", (dir / "bad.jsonl").string()}, dir);
  EXPECT_EQ(failed.code, 2);
  EXPECT_NE(failed.err.find("bad.jsonl:1: field \"metadata.design\": missing"), std::string::npos) << failed.err;
}

}  // namespace
}  // namespace codebias::tasks::hiring
