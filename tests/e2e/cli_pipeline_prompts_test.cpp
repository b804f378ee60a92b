// End-to-end tests of `codebias prompts --suite ml-pipelines`: the binary is run as a user would run it.
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"

namespace {

using ::testing::HasSubstr;
using codebias::test_support::CliRun;
using codebias::test_support::fresh_test_dir;
using codebias::test_support::run_cli;
namespace fs = std::filesystem;

class CliPipelinePrompts : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_test_dir("cli_pipeline_prompts_"); }

  CliRun run(std::vector<std::string> args) {
    args.insert(args.begin(), {"prompts", "--suite", "ml-pipelines"});
    return run_cli(args, dir_);
  }

  fs::path dir_;
};

TEST_F(CliPipelinePrompts, WithoutTaskTheSuitesOwnTaskBuildsTheDefaultSlice) {
  CliRun result = run({});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto lines = result.lines();
  ASSERT_EQ(lines.size(), 280u);
  std::set<std::string> ids;
  for (const auto& line : lines) {
    ids.insert(line["id"].get<std::string>());
    EXPECT_EQ(line["metadata"]["task"], "ml-pipeline");
    EXPECT_TRUE(line["metadata"].contains("columns"));
  }
  EXPECT_EQ(ids.size(), lines.size());
  EXPECT_EQ(lines[0]["id"], "ml-pipelines/german_credit/conditional/-/all/none/v0/0");
  EXPECT_THAT(result.err, HasSubstr("280 prompts (suite ml-pipelines, task ml-pipeline)"));
  CliRun again = run({});
  EXPECT_EQ(again.out, result.out);
}

TEST_F(CliPipelinePrompts, FlagsSelectDatasetsRoutesSetsMitigationsAndVariants) {
  CliRun result = run({"--scenario", "adult_income", "--path", "pipeline", "--level", "select,full", "--attribute-set",
                       "normal=3,sensitive=1", "--attribute-set", "all", "--mitigation", "explicit", "--variants", "2"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto lines = result.lines();
  // 2 levels x (all + 4 one-sensitive) x 2 variants.
  ASSERT_EQ(lines.size(), 20u);
  std::set<std::string> sets;
  for (const auto& line : lines) {
    EXPECT_EQ(line["metadata"]["dataset"], "adult_income");
    EXPECT_EQ(line["metadata"]["path"], "pipeline");
    EXPECT_EQ(line["metadata"]["mitigation"], "explicit");
    EXPECT_LT(line["metadata"]["variant"].get<int>(), 2);
    sets.insert(line["metadata"]["attribute_set"].get<std::string>());
  }
  EXPECT_EQ(sets, (std::set<std::string>{"all", "normal=3,sensitive=1"}));
  EXPECT_EQ(lines[0]["id"], "ml-pipelines/adult_income/pipeline/select/all/explicit/v0/0");
}

TEST_F(CliPipelinePrompts, TaskAndSuiteMustMatch) {
  CliRun function = run({"--task", "function"});
  EXPECT_EQ(function.code, 2);
  EXPECT_THAT(function.err, HasSubstr("suite 'ml-pipelines' has no function task"));

  CliRun faircoder = run_cli({"prompts", "--suite", "faircoder", "--task", "ml-pipeline"}, dir_);
  EXPECT_EQ(faircoder.code, 2);
  EXPECT_THAT(faircoder.err, HasSubstr("suite 'faircoder' has no pipelines part"));

  CliRun mitigation = run_cli({"prompts", "--suite", "faircoder", "--mitigation", "explicit"}, dir_);
  EXPECT_EQ(mitigation.code, 2);
  EXPECT_THAT(mitigation.err, HasSubstr("apply to the ml-pipeline task only"));
}

TEST_F(CliPipelinePrompts, BadValuesExitTwoWithAMessage) {
  CliRun level = run({"--level", "tune"});
  EXPECT_EQ(level.code, 2);
  EXPECT_THAT(level.err, HasSubstr("level 'tune' is not one of: select, train, full"));
  CliRun variants = run({"--variants", "13"});
  EXPECT_EQ(variants.code, 2);
  EXPECT_THAT(variants.err, HasSubstr("variants 13 exceeds the 12 templates of conditional"));
  CliRun path = run({"--path", "lookup"});
  EXPECT_EQ(path.code, 2);
}

}  // namespace
