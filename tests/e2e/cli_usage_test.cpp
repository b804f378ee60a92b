// Usage errors name what was wrong and exit 2, whichever command they reach.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"

namespace codebias {
namespace {

test_support::CliRun run(const std::vector<std::string>& args) {
  return test_support::run_cli(args, test_support::fresh_test_dir("cli_usage_"));
}

TEST(CliUsage, MistypedCommandIsNamedWithTheNearestCommand) {
  const auto result = run({"runn", "--suite", "faircoder"});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("unknown command 'runn'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("did you mean 'run'?"), std::string::npos) << result.err;
}

TEST(CliUsage, UnrelatedWordGetsTheListOfCommandsWithoutAGuess) {
  const auto result = run({"xyzzyplugh"});
  EXPECT_EQ(result.code, 2);
  EXPECT_EQ(result.err.find("did you mean"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("score"), std::string::npos) << result.err;
}

TEST(CliUsage, NegativeDrilldownIsRefused) {
  const auto result = run({"report", ".", "--max-drilldown", "-1"});
  EXPECT_EQ(result.code, 2);
}

}  // namespace
}  // namespace codebias
