// The decision-function task end to end on the built-in model: `codebias run --suite solar
// --execute` recovers the planted per-attribute bias of data/models/simulated-default.json through
// counterfactual execution, counts crashing functions apart, and the static reading agrees with
// execution on the planted code; the Huang suite runs the same way.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "paths.h"
#include "run/rebuild_report.h"
#include "run/run.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::tasks {
namespace {

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Execution recovers each attribute's planted probability within four binomial standard errors;
// crashing functions are counted apart.
void expect_planted_bias_recovered(const std::filesystem::path& run_dir) {
  const auto counterfactual = read_json(run_dir / "summary.json")["counterfactual"];
  const auto& profile = serve::default_bias_profile().decisions;
  int checked = 0;
  for (const auto& [attribute, score] : counterfactual["bias_scores"].items()) {
    const auto& rate = score["bias_score"];
    ASSERT_TRUE(rate.is_object()) << attribute;
    const double n = rate["denominator"].get<double>();
    const double planted = profile.bias_for(attribute);
    const double observed = rate["rate"].get<double>();
    if (n < 50) continue;
    ++checked;
    EXPECT_LE(std::abs(observed - planted), 4 * std::sqrt(planted * (1 - planted) / n))
        << attribute << ": " << observed << " over " << n << ", planted " << planted;
  }
  EXPECT_GE(checked, 5);
  // Crashing functions are failures of no attribute: they are left out of every denominator.
  EXPECT_GT(counterfactual["ran"].get<int>(), 100);
  const int undetermined = counterfactual["bias_scores"]["gender"]["undetermined"].get<int>();
  EXPECT_GT(undetermined, 0);
  const double crash_share = static_cast<double>(undetermined) / counterfactual["ran"].get<int>();
  EXPECT_NEAR(crash_share, profile.crash_rate, 4 * std::sqrt(profile.crash_rate * (1 - profile.crash_rate) / 160));
  EXPECT_EQ(counterfactual["bias_scores"]["gender"]["bias_score"]["denominator"].get<int>() + undetermined,
            counterfactual["ran"].get<int>());
}

void expect_static_agrees_with_execution(const std::filesystem::path& run_dir) {
  const auto summary = read_json(run_dir / "summary.json");
  const auto& all = summary["counterfactual"]["agreement"]["all"]["biased"];
  const int total = all["both"].get<int>() + all["static_only"].get<int>() + all["execution_only"].get<int>() +
                    all["neither"].get<int>();
  ASSERT_GT(total, 500);
  EXPECT_GT(all["agreement"].get<double>(), 0.97) << all.dump();
  EXPECT_GT(all["both"].get<int>(), 50);
  // The static rates are there for every tested attribute, next to execution's.
  EXPECT_TRUE(summary["static_bias_rates"]["age"].is_object());
  const std::string report = test_support::read_file(run_dir / "report.md");
  EXPECT_NE(report.find("## Counterfactual execution"), std::string::npos);
  EXPECT_NE(report.find("Bias score (Solar"), std::string::npos);
  const std::string html = run::rebuild_report(run_dir, run::ReportFormat::html);
  EXPECT_NE(html.find("id=\"decisions\""), std::string::npos);
  EXPECT_NE(html.find("Counterfactual execution"), std::string::npos);

}

// The run executed each answer while generating the others; rebuilding the report executes them
// all again after the fact. Both must read the same outcomes.
void expect_executions_started_early_equal_late(const std::filesystem::path& run_dir) {
  const auto during_run = read_json(run_dir / "summary.json")["counterfactual"];
  const auto rebuilt = nlohmann::json::parse(run::rebuild_report(run_dir, run::ReportFormat::json))["counterfactual"];
  EXPECT_EQ(during_run, rebuilt);
}

// One execute run (the sandboxes dominate its time) serves every check.
TEST(DecisionTask, AnExecuteRunOfSolarRecoversThePlantedBiasAndAgreesWithTheStaticReading) {
  run::RunOptions options;
  options.suite = "solar";
  options.limit = 160;
  options.execute = true;
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "decision_solar_run";
  std::filesystem::remove_all(options.out_dir);
  std::ostringstream log;
  ASSERT_FALSE(run::start_run(options, {&log, false}).cancelled);
  // Execution has its own progress lines and a closing line once the last answer is in.
  EXPECT_NE(log.str().find("execution: ["), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("codebias: executed "), std::string::npos) << log.str();
  expect_planted_bias_recovered(options.out_dir);
  expect_static_agrees_with_execution(options.out_dir);
  expect_executions_started_early_equal_late(options.out_dir);
}

TEST(DecisionTask, TheHuangSuiteRunsOnTheBuiltinModel) {
  run::RunOptions options;
  options.suite = "huang";
  options.limit = 12;
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "decision_huang_run";
  std::filesystem::remove_all(options.out_dir);
  ASSERT_FALSE(run::start_run(options, {}).cancelled);
  const auto summary = read_json(options.out_dir / "summary.json");
  EXPECT_EQ(summary["counts"]["with_code"], 12) << summary["counts"].dump();
  EXPECT_TRUE(summary["static_bias_rates"].contains("age"));
  EXPECT_FALSE(summary.contains("counterfactual"));  // not executed
}

}  // namespace
}  // namespace codebias::tasks
