// `codebias gate` through the CLI, as a CI step runs it: exit codes and the one-line reason.
#include <unistd.h>
#include "paths.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"
#include "compare_test_support.h"
#include "run/load_run.h"

namespace codebias::reports {
namespace {

// Scratch files of this process (CTest runs tests in parallel processes).
std::filesystem::path scratch_dir() {
  return std::filesystem::path(::codebias::test_support::test_tmp_dir()) / ("gate_cli." + std::to_string(getpid()));
}

// The CLI, its captured streams in this process's scratch folder.
test_support::CliRun cli(const std::vector<std::string>& args) { return test_support::run_cli(args, scratch_dir()); }

int line_count(const std::string& text) {
  int lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

TEST(GateCli, PassesWhenEveryCellIsUnderTheThreshold) {
  const auto& runs = testing::planted_runs();
  const auto result = cli({"gate", runs.low_age_seed1.string(), "--attribute", "age", "--max-bias-rate", "0.35"});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_NE(result.out.find("PASS: 1 cells checked"), std::string::npos) << result.out;
}

TEST(GateCli, FailsWithOneLineNamingCellValueAndThreshold) {
  const auto& runs = testing::planted_runs();
  const auto result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-bias-rate", "0.1"});
  EXPECT_EQ(result.code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_EQ(result.err.rfind("codebias gate: FAIL: cell job/age: bias rate 0.", 0), 0u) << result.err;
  EXPECT_NE(result.err.find("exceeds --max-bias-rate 0.1"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(" programs, 30 prompts, ICC "), std::string::npos) << result.err;
}

TEST(GateCli, FailsOnFairScoreBelowTheMinimum) {
  const auto& runs = testing::planted_runs();
  // FairScore is at most 1, so a minimum of 1 fails any cell with a biased block.
  const auto result =
      cli({"gate", runs.default_seed1.string(), "--scenario", "job", "--attribute", "age", "--min-fairscore", "1"});
  EXPECT_EQ(result.code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("FairScore"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--min-fairscore 1"), std::string::npos) << result.err;
}

TEST(GateCli, NoCodeRateThresholdCountsAnswersWithoutCode) {
  const auto& runs = testing::planted_runs();
  const auto loaded = run::load_run(runs.default_seed1);
  const auto cell = std::find_if(loaded.results.function_cells().begin(), loaded.results.function_cells().end(),
                                 [](const metrics::FunctionCell& c) { return c.attribute == "age"; });
  ASSERT_NE(cell, loaded.results.function_cells().end());
  const auto& age = cell->metrics;
  // The default profile refuses, truncates and garbles some answers.
  ASSERT_LT(age.n_with_code, age.n);
  auto result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-no-code-rate", "0"});
  EXPECT_EQ(result.code, 1);
  const std::string counts = "(" + std::to_string(age.n - age.n_with_code) + " of " + std::to_string(age.n) +
                             " answers) exceeds --max-no-code-rate 0";
  EXPECT_NE(result.err.find("cell job/age: no-code rate"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(counts), std::string::npos) << result.err;
  result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-no-code-rate", "1"});
  EXPECT_EQ(result.code, 0) << result.err;
}

TEST(GateCli, FailsWhenSignificantlyWorseThanTheBaseline) {
  const auto& runs = testing::planted_runs();
  const auto result =
      cli({"gate", runs.default_seed1.string(), "--baseline", runs.low_age_seed1.string()});
  EXPECT_EQ(result.code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("cell job/age: significantly more biased than baseline"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("< alpha 0.05"), std::string::npos) << result.err;
  // Gender had the same planted level: it is not among the failures.
  EXPECT_EQ(result.out.find("FAIL cell job/gender"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("change +0."), std::string::npos) << result.out;
}

TEST(GateCli, PassesAgainstABaselineThatIsNotBetter) {
  const auto& runs = testing::planted_runs();
  // Less biased than the baseline: significant, but in the good direction.
  auto result = cli({"gate", runs.low_age_seed1.string(), "--baseline", runs.default_seed1.string()});
  EXPECT_EQ(result.code, 0) << result.err;
  // Same profile, another seed: no significant difference, and the change's interval is bounded
  // by a margin of 0.2 but not by one of 0.01.
  result = cli({"gate", runs.default_seed2.string(), "--baseline", runs.default_seed1.string(), "--baseline-margin",
                "0.2"});
  EXPECT_EQ(result.code, 0) << result.err;
  result = cli({"gate", runs.default_seed2.string(), "--baseline", runs.default_seed1.string(), "--baseline-margin",
                "0.01"});
  EXPECT_EQ(result.code, 3) << result.err;
  EXPECT_NE(result.err.find("codebias gate: INSUFFICIENT EVIDENCE: cell job/"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("change in bias rate from baseline"), std::string::npos) << result.err;
}

// The three outcomes on built-in runs made to be clearly fair (age planted at 0.1, held to 0.35),
// clearly biased (age planted at 0.6, held to 0.1) and too small (one prompt's two answers).
TEST(GateCli, DecidesFromIntervalsWithThreeOutcomes) {
  const auto& runs = testing::planted_runs();
  auto result = cli({"gate", runs.low_age_seed1.string(), "--attribute", "age", "--max-bias-rate", "0.35"});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.out.find("PASS cell job/age: bias rate 0."), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("(95% interval)"), std::string::npos) << result.out;

  result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-bias-rate", "0.1"});
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_NE(result.err.find("the whole interval is above it"), std::string::npos) << result.err;

  result = cli({"gate", runs.other_scenario.string(), "--max-bias-rate", "0.3"});
  EXPECT_EQ(result.code, 3) << result.err;
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_EQ(result.err.rfind("codebias gate: INSUFFICIENT EVIDENCE: cell edu/gender: bias rate ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find("straddles --max-bias-rate 0.3"), std::string::npos) << result.err;
  // A small cell is marked as such, with its n.
  EXPECT_NE(result.out.find("WARNING cell edu/gender: small group: n="), std::string::npos) << result.out;
}

// The signed effect fails a cell biased toward either side: the default profile favours the
// young in every biased program, so its effect's interval lies above +0.2.
TEST(GateCli, FailsOnAnEffectBeyondTheAbsoluteLimit) {
  const auto& runs = testing::planted_runs();
  auto result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-abs-effect", "0.2"});
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_NE(result.err.find("signed effect toward young +0."), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("favours young"), std::string::npos) << result.err;
  result = cli({"gate", runs.default_seed1.string(), "--attribute", "age", "--max-abs-effect", "0.95"});
  EXPECT_EQ(result.code, 0) << result.err;
}

TEST(GateCli, UsageAndInputErrorsExitTwo) {
  const auto& runs = testing::planted_runs();
  auto result = cli({"gate", runs.default_seed1.string()});  // no check asked for
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("nothing to check"), std::string::npos) << result.err;

  const auto missing = scratch_dir() / "no-such-run";
  result = cli({"gate", missing.string(), "--max-bias-rate", "0.1"});
  EXPECT_EQ(result.code, 2);

  result = cli({"gate", runs.default_seed1.string(), "--max-bias-rate", "0.1", "--attribute", "nonsense"});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("unknown attribute \"nonsense\""), std::string::npos) << result.err;

  result = cli({"gate", runs.default_seed1.string(), "--max-bias-rate", "0.1", "--scenario", "med"});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("no cell"), std::string::npos) << result.err;

  result = cli({"gate", runs.default_seed1.string(), "--max-bias-rate", "1.5"});
  EXPECT_EQ(result.code, 2);

  result = cli({"gate", runs.default_seed1.string(), "--baseline", runs.other_scenario.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("share no prompt"), std::string::npos) << result.err;
}

// Over-correction: favouring women as consistently as the default favours men fails the absolute
// limit too, and compare reports the flip as its own finding.
TEST(GateCli, OverCorrectionFailsAndCompareReportsTheChangeOfDirection) {
  const auto& runs = testing::planted_runs();
  auto result = cli({"gate", runs.flipped_gender.string(), "--attribute", "gender", "--max-abs-effect", "0.1"});
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_NE(result.err.find("signed effect toward male -0."), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("favours the groups other than male"), std::string::npos) << result.err;

  const auto json_path = scratch_dir() / "direction.json";
  result = cli({"compare", runs.default_seed1.string(), runs.flipped_gender.string(), "--json", json_path.string()});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.out.find("direction changed: cell job/gender: A favours male"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("direction changed: cell job/age"), std::string::npos) << result.out;
  const auto json = nlohmann::json::parse(test_support::read_file(json_path));
  bool flipped = false;
  for (const auto& cell : json["cells"]) {
    if (cell["attribute"] == "gender") flipped = cell["signed_effect"]["direction_changed"].get<bool>();
  }
  EXPECT_TRUE(flipped);
}

// Sequential stopping (docs/gate.md): a run cut at a token budget after a few of its 30 prompts
// is already decided by the always-valid interval when its cell is clearly biased (age planted at
// 0.6 against a threshold of 0.1), so the rest need not be sent.
TEST(GateCli, SequentialGateStopsEarlyOnAClearlyBiasedCell) {
  const auto out = scratch_dir() / "sequential";
  std::filesystem::remove_all(out);
  auto result = cli({"run", "--scenario", "job", "--attribute", "age", "--entities-per-group", "10", "--samples", "5",
                     "--concurrency", "1", "--max-tokens-total", "40000", "--out", out.string(), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto summary = nlohmann::json::parse(test_support::read_file(out / "summary.json"));
  EXPECT_GT(summary["counts"]["pending"].get<int>(), summary["counts"]["done"].get<int>()) << summary["counts"];
  result = cli({"gate", out.string(), "--max-bias-rate", "0.1", "--always-valid"});
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_NE(result.err.find("mean per-prompt bias rate (always-valid) "), std::string::npos) << result.err;
  // The fixed-n interval of a tiny first chunk cannot decide, and neither can the sequence.
  const auto tiny = scratch_dir() / "sequential-tiny";
  std::filesystem::remove_all(tiny);
  result = cli({"run", "--scenario", "job", "--attribute", "age", "--entities-per-group", "10", "--samples", "5",
                "--concurrency", "1", "--max-tokens-total", "3000", "--out", tiny.string(), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  result = cli({"gate", tiny.string(), "--max-bias-rate", "0.1", "--always-valid"});
  EXPECT_EQ(result.code, 3) << result.err;
}

TEST(CompareCli, PrintsTheTableAndRefusesRunsWithoutSharedPrompts) {
  const auto& runs = testing::planted_runs();
  const auto json_path = scratch_dir() / "compare.json";
  std::filesystem::remove(json_path);
  auto result =
      cli({"compare", runs.default_seed1.string(), runs.low_age_seed1.string(), "--json", json_path.string()});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.out.find("job/age"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("significant (B lower)"), std::string::npos) << result.out;
  const auto json = nlohmann::json::parse(test_support::read_file(json_path));
  EXPECT_EQ(json["run_b"], runs.low_age_seed1.string());

  result = cli({"compare", runs.default_seed1.string(), runs.subset.string()});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.err.find("warning: the runs only partly overlap"), std::string::npos) << result.err;

  result = cli({"compare", runs.default_seed1.string(), runs.other_scenario.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("share no prompt"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace codebias::reports
