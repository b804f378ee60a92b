// `codebias run` flags that cannot go together are refused before anything is sent.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "paths.h"
#include "run/run_option_table.h"

namespace codebias {
namespace {

int exit_code(const std::vector<std::string>& args) {
  return test_support::run_cli(args, test_support::fresh_test_dir("run_cli_streams_")).code;
}

TEST(RunCli, ResumeRefusesOptionsThatWouldChangeThePlan) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_cli_resume";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(
      exit_code({"run", "--scenario", "job", "--entities-per-group", "1", "--samples", "1", "--out", dir.string()}), 0);
  EXPECT_EQ(exit_code({"run", "--resume", dir.string(), "--samples", "3"}), 2);
  EXPECT_EQ(exit_code({"run", "--resume", dir.string(), "--temperature", "0.2"}), 2);
  EXPECT_EQ(exit_code({"run", "--resume", dir.string(), "--retry-errors"}), 0);
}

TEST(RunCli, EveryOptionOfTheTableIsAFlag) {
  const auto result = test_support::run_cli({"run", "--help"}, test_support::fresh_test_dir("run_cli_help_"));
  const std::string help = result.out + result.err;
  for (const auto& row : codebias::run::run_option_table()) {
    if (row.flag.empty()) continue;
    EXPECT_NE(help.find(std::string(row.flag) + " "), std::string::npos) << row.flag;
  }
}

// The README's sweep `--temperature 0,0.7,1` is three configurations, as three repeated flags are.
TEST(RunCli, CommaSeparatedSweepFlagIsOneConfigurationPerValue) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_cli_comma_sweep";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(exit_code({"run", "--suite", "bad-cat", "--temperature", "0,0.7,1", "--mode", "vanilla,cot", "--limit",
                       "1", "--samples", "1", "--out", dir.string()}),
            0);
  std::ifstream summary_file(dir / "summary.json");
  const auto configurations = nlohmann::json::parse(summary_file)["provenance"]["configurations"];
  ASSERT_EQ(configurations.size(), 6u);
  std::vector<std::string> labels;
  for (const auto& configuration : configurations) labels.push_back(configuration["label"].get<std::string>());
  EXPECT_NE(std::find(labels.begin(), labels.end(), "t=0.7,mode=cot"), labels.end()) << nlohmann::json(labels).dump();
}

// A run ends with its answer: the task's headline table on the log, and report.html beside
// report.md unless --no-html.
TEST(RunCli, RunEndsWithItsHeadlineTableAndTheHtmlReport) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_cli_headline";
  std::filesystem::remove_all(dir);
  const auto run = test_support::run_cli(
      {"run", "--scenario", "job", "--entities-per-group", "1", "--samples", "1", "--out", dir.string()},
      test_support::fresh_test_dir("run_cli_headline_"));
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("## FairCoder metrics"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("| default | job | gender |"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("report: " + (dir / "report.html").string()), std::string::npos) << run.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "report.html"));
  EXPECT_TRUE(std::filesystem::exists(dir / "report.md"));

  const auto quiet_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_cli_no_html";
  std::filesystem::remove_all(quiet_dir);
  ASSERT_EQ(exit_code({"run", "--scenario", "job", "--entities-per-group", "1", "--samples", "1", "--no-html", "--out",
                       quiet_dir.string()}),
            0);
  EXPECT_FALSE(std::filesystem::exists(quiet_dir / "report.html"));
  EXPECT_TRUE(std::filesystem::exists(quiet_dir / "report.md"));
}

TEST(RunCli, RetryErrorsNeedsResume) { EXPECT_EQ(exit_code({"run", "--retry-errors"}), 2); }

TEST(RunCli, ExistingRunDirectoryIsNotOverwritten) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_cli_existing";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(
      exit_code({"run", "--scenario", "med", "--entities-per-group", "1", "--samples", "1", "--out", dir.string()}), 0);
  EXPECT_NE(
      exit_code({"run", "--scenario", "med", "--entities-per-group", "1", "--samples", "1", "--out", dir.string()}), 0);
}

}  // namespace
}  // namespace codebias
