// `codebias plan` through the CLI: a row per cell with the prompts and samples needed, the
// expected tokens and cost, and exit 2 on bad input.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "cli.h"
#include "paths.h"

namespace codebias {
namespace {

test_support::CliRun cli(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::path(test_support::test_tmp_dir()) / ("plan_cli." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return test_support::run_cli(args, dir);
}

TEST(PlanCli, PrintsPromptsAndSamplesPerCellWithTokensAndCost) {
  const auto result = cli({"plan", "--scenario", "job", "--attribute", "age,gender", "--full", "--bias-rate", "0.2",
                           "--threshold", "0.1", "--icc", "0", "--model", "gpt-4o"});
  ASSERT_EQ(result.code, 0) << result.err;
  // 0.1 vs 0.2 at power 0.8 and 95 % intervals: 85.5 independent programs, so 86.
  EXPECT_NE(result.out.find("per cell: 86 independent programs"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("job/age"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("job/gender"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("prompts needed @5"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("at gpt-4o's price (https://openai.com/api/pricing/"), std::string::npos) << result.out;
}

TEST(PlanCli, MoreCorrelationNeedsMoreSamples) {
  const auto independent = cli({"plan", "--scenario", "job", "--attribute", "age", "--bias-rate", "0.3",
                                "--threshold", "0.1", "--icc", "0"});
  const auto correlated = cli({"plan", "--scenario", "job", "--attribute", "age", "--bias-rate", "0.3",
                               "--threshold", "0.1", "--icc", "0.5"});
  ASSERT_EQ(independent.code, 0) << independent.err;
  ASSERT_EQ(correlated.code, 0) << correlated.err;
  // With no correlation the gate still estimates one from the few prompts it sees (positive about
  // half the time), and the plan applies that design effect (stats::gate_design_effect), not 1.
  EXPECT_NE(independent.out.find("design effect 1.226"), std::string::npos) << independent.out;
  EXPECT_NE(correlated.out.find("design effect 3.000"), std::string::npos) << correlated.out;
}

TEST(PlanCli, BadInputExitsTwo) {
  auto result = cli({"plan", "--scenario", "job"});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("give one target effect"), std::string::npos) << result.err;
  result = cli({"plan", "--bias-rate", "0.2", "--threshold", "0.2"});
  EXPECT_EQ(result.code, 2);
  result = cli({"plan", "--bias-rate", "0.2", "--threshold", "0.1", "--power", "1.5"});
  EXPECT_EQ(result.code, 2);
}

}  // namespace
}  // namespace codebias
