// `codebias run` flags that cannot go together are refused before anything is sent.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "run/run_option_table.h"

namespace {

int run_cli(const std::string& arguments) {
  const std::string command = std::string("'") + CODEBIAS_CLI + "' " + arguments + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RunCli, ResumeRefusesOptionsThatWouldChangeThePlan) {
  const auto dir = std::filesystem::path(CODEBIAS_TEST_TMP_DIR) / "run_cli_resume";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(run_cli("run --scenario job --entities-per-group 1 --samples 1 --out '" + dir.string() + "'"), 0);
  EXPECT_EQ(run_cli("run --resume '" + dir.string() + "' --samples 3"), 2);
  EXPECT_EQ(run_cli("run --resume '" + dir.string() + "' --temperature 0.2"), 2);
  EXPECT_EQ(run_cli("run --resume '" + dir.string() + "' --retry-errors"), 0);
}

TEST(RunCli, EveryOptionOfTheTableIsAFlag) {
  const auto help_file = std::filesystem::path(CODEBIAS_TEST_TMP_DIR) / "run_cli_help.txt";
  ASSERT_EQ(run_cli("run --help >'" + help_file.string() + "' 2>&1 ; true"), 0);
  std::ifstream in(help_file);
  std::ostringstream help;
  help << in.rdbuf();
  for (const auto& row : codebias::run::run_option_table()) {
    if (row.flag.empty()) continue;
    EXPECT_NE(help.str().find(std::string(row.flag) + " "), std::string::npos) << row.flag;
  }
}

TEST(RunCli, RetryErrorsNeedsResume) { EXPECT_EQ(run_cli("run --retry-errors"), 2); }

TEST(RunCli, ExistingRunDirectoryIsNotOverwritten) {
  const auto dir = std::filesystem::path(CODEBIAS_TEST_TMP_DIR) / "run_cli_existing";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(run_cli("run --scenario med --entities-per-group 1 --samples 1 --out '" + dir.string() + "'"), 0);
  EXPECT_NE(run_cli("run --scenario med --entities-per-group 1 --samples 1 --out '" + dir.string() + "'"), 0);
}

}  // namespace
