// `codebias gate` through the CLI, as a CI step runs it: exit codes and the one-line reason.
#include <unistd.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "run/load_run.h"

namespace codebias::reports {
namespace {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Scratch files of this process (CTest runs tests in parallel processes).
std::filesystem::path scratch_dir() {
  return std::filesystem::path(CODEBIAS_TEST_TMP_DIR) / ("gate_cli." + std::to_string(getpid()));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

CliResult run_cli(const std::string& arguments) {
  const auto dir = scratch_dir();
  std::filesystem::create_directories(dir);
  const auto out = dir / "stdout.txt";
  const auto err = dir / "stderr.txt";
  const std::string command =
      std::string("'") + CODEBIAS_CLI + "' " + arguments + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

int line_count(const std::string& text) {
  int lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

TEST(GateCli, PassesWhenEveryCellIsUnderTheThreshold) {
  const auto& runs = testing::planted_runs();
  const auto result = run_cli("gate " + quoted(runs.low_age_seed1) + " --attribute age --max-bias-rate 0.35");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_NE(result.out.find("PASS: 1 cells checked"), std::string::npos) << result.out;
}

TEST(GateCli, FailsWithOneLineNamingCellValueAndThreshold) {
  const auto& runs = testing::planted_runs();
  const auto result = run_cli("gate " + quoted(runs.default_seed1) + " --attribute age --max-bias-rate 0.1");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_EQ(result.err.rfind("codebias gate: FAIL: cell job/age: bias rate 0.", 0), 0u) << result.err;
  EXPECT_NE(result.err.find("exceeds --max-bias-rate 0.1"), std::string::npos) << result.err;
}

TEST(GateCli, FailsOnFairScoreBelowTheMinimum) {
  const auto& runs = testing::planted_runs();
  // FairScore is at most 1, so a minimum of 1 fails any cell with a biased block.
  const auto result = run_cli("gate " + quoted(runs.default_seed1) + " --scenario job --attribute age --min-fairscore 1");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("FairScore"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--min-fairscore 1"), std::string::npos) << result.err;
}

TEST(GateCli, NoCodeRateThresholdCountsAnswersWithoutCode) {
  const auto& runs = testing::planted_runs();
  const auto loaded = run::load_run(runs.default_seed1);
  const auto cell = std::find_if(loaded.results.cells.begin(), loaded.results.cells.end(),
                                 [](const metrics::FunctionCell& c) { return c.attribute == "age"; });
  ASSERT_NE(cell, loaded.results.cells.end());
  const auto& age = cell->metrics;
  // The default profile refuses, truncates and garbles some answers.
  ASSERT_LT(age.n_with_code, age.n);
  auto result = run_cli("gate " + quoted(runs.default_seed1) + " --attribute age --max-no-code-rate 0");
  EXPECT_EQ(result.exit_code, 1);
  const std::string counts = "(" + std::to_string(age.n - age.n_with_code) + " of " + std::to_string(age.n) +
                             " answers) exceeds --max-no-code-rate 0";
  EXPECT_NE(result.err.find("cell job/age: no-code rate"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(counts), std::string::npos) << result.err;
  result = run_cli("gate " + quoted(runs.default_seed1) + " --attribute age --max-no-code-rate 1");
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST(GateCli, FailsWhenSignificantlyWorseThanTheBaseline) {
  const auto& runs = testing::planted_runs();
  const auto result =
      run_cli("gate " + quoted(runs.default_seed1) + " --baseline " + quoted(runs.low_age_seed1));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(line_count(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("cell job/age: significantly more biased than baseline"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("< alpha 0.05"), std::string::npos) << result.err;
  // Gender had the same planted level: it is not among the failures.
  EXPECT_EQ(result.out.find("job/gender"), std::string::npos) << result.out;
}

TEST(GateCli, PassesAgainstABaselineThatIsNotBetter) {
  const auto& runs = testing::planted_runs();
  // Less biased than the baseline: significant, but in the good direction.
  auto result = run_cli("gate " + quoted(runs.low_age_seed1) + " --baseline " + quoted(runs.default_seed1));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // Same profile, another seed: no significant difference.
  result = run_cli("gate " + quoted(runs.default_seed2) + " --baseline " + quoted(runs.default_seed1));
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST(GateCli, UsageAndInputErrorsExitTwo) {
  const auto& runs = testing::planted_runs();
  auto result = run_cli("gate " + quoted(runs.default_seed1));  // no check asked for
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("nothing to check"), std::string::npos) << result.err;

  const auto missing = scratch_dir() / "no-such-run";
  result = run_cli("gate " + quoted(missing) + " --max-bias-rate 0.1");
  EXPECT_EQ(result.exit_code, 2);

  result = run_cli("gate " + quoted(runs.default_seed1) + " --max-bias-rate 0.1 --attribute nonsense");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown attribute \"nonsense\""), std::string::npos) << result.err;

  result = run_cli("gate " + quoted(runs.default_seed1) + " --max-bias-rate 0.1 --scenario med");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no cell"), std::string::npos) << result.err;

  result = run_cli("gate " + quoted(runs.default_seed1) + " --max-bias-rate 1.5");
  EXPECT_EQ(result.exit_code, 2);

  result = run_cli("gate " + quoted(runs.default_seed1) + " --baseline " + quoted(runs.other_scenario));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("share no prompt"), std::string::npos) << result.err;
}

TEST(CompareCli, PrintsTheTableAndRefusesRunsWithoutSharedPrompts) {
  const auto& runs = testing::planted_runs();
  const auto json_path = scratch_dir() / "compare.json";
  std::filesystem::remove(json_path);
  auto result = run_cli("compare " + quoted(runs.default_seed1) + " " + quoted(runs.low_age_seed1) + " --json " +
                        quoted(json_path));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("job/age"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("significant (B lower)"), std::string::npos) << result.out;
  const auto json = nlohmann::json::parse(read_file(json_path));
  EXPECT_EQ(json["run_b"], runs.low_age_seed1.string());

  result = run_cli("compare " + quoted(runs.default_seed1) + " " + quoted(runs.subset));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("warning: the runs only partly overlap"), std::string::npos) << result.err;

  result = run_cli("compare " + quoted(runs.default_seed1) + " " + quoted(runs.other_scenario));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("share no prompt"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace codebias::reports
