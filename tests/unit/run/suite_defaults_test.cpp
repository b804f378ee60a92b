// What a run takes from its suite when the user leaves it open: the task and the temperature.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "run/run.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"

namespace codebias::run {
namespace {

TEST(SuiteDefaults, MlPipelinesRunsItsOwnTaskWithGreedyDecoding) {
  const RunOptions options = with_suite_defaults(RunOptions{}, tasks::builtin_suite("ml-pipelines"));
  EXPECT_EQ(options.task, "ml-pipeline");
  EXPECT_EQ(options.temperatures, (std::vector<double>{0.0}));
  const auto samples = plan_samples(options, tasks::find_task(options.task), tasks::builtin_suite("ml-pipelines"));
  ASSERT_EQ(samples.size(), 280u);
  EXPECT_EQ(samples[0].body["temperature"], 0.0);
  EXPECT_EQ(samples[0].metadata["task"], "ml-pipeline");
}

TEST(SuiteDefaults, FaircoderKeepsTheFunctionTaskAndTemperatureOne) {
  const RunOptions options = with_suite_defaults(RunOptions{}, tasks::builtin_suite("faircoder"));
  EXPECT_EQ(options.task, "function");
  EXPECT_EQ(options.temperatures, (std::vector<double>{kDefaultTemperature}));
}

TEST(SuiteDefaults, WhatTheUserGaveWins) {
  RunOptions given;
  given.temperatures = {0.7};
  given.task = "function";
  const RunOptions options = with_suite_defaults(given, tasks::builtin_suite("ml-pipelines"));
  EXPECT_EQ(options.temperatures, (std::vector<double>{0.7}));
  EXPECT_EQ(options.task, "function");
  EXPECT_THROW(plan_samples(options, tasks::find_task(options.task), tasks::builtin_suite("ml-pipelines")),
               std::invalid_argument);
}

TEST(SuiteDefaults, PipelineOptionsReachThePrompts) {
  RunOptions given;
  given.paths = {"pipeline"};
  given.levels = {"select"};
  given.mitigations = {"role"};
  given.variants = 2;
  given.scenarios = {"law_school"};
  const RunOptions options = with_suite_defaults(given, tasks::builtin_suite("ml-pipelines"));
  const auto samples = plan_samples(options, tasks::find_task(options.task), tasks::builtin_suite("ml-pipelines"));
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].prompt_id, "ml-pipelines/law_school/pipeline/select/all/role/v1/0");
}

}  // namespace
}  // namespace codebias::run
