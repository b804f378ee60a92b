// Run files and sweep expansion.
#include "run/run_options.h"

#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::run {
namespace {

using ::testing::HasSubstr;

TEST(RunOptions, RunFileSetsEveryAxis) {
  RunOptions options;
  load_run_yaml(
      "suite: faircoder\n"
      "task: function\n"
      "scenario: [job, edu]\n"
      "samples: 3\n"
      "seed: 42\n"
      "model: qwen\n"
      "endpoint:\n  - http://127.0.0.1:8000\n  - http://127.0.0.1:8001\n"
      "temperature: [0.2, 1.0]\n"
      "mode: cot\n"
      "extra-body:\n  chat_template_kwargs:\n    enable_thinking: false\n  top_k: 20\n",
      "run.yaml", options);
  EXPECT_EQ(options.scenarios, (std::vector<std::string>{"job", "edu"}));
  EXPECT_EQ(options.samples, 3);
  EXPECT_EQ(options.seed, 42u);
  EXPECT_EQ(options.endpoints.size(), 2u);
  EXPECT_EQ(options.temperatures, (std::vector<double>{0.2, 1.0}));
  EXPECT_EQ(options.modes, (std::vector<std::string>{"cot"}));
  EXPECT_EQ(options.extra_body["chat_template_kwargs"]["enable_thinking"], false);
  EXPECT_EQ(options.extra_body["top_k"], 20);
  EXPECT_NO_THROW(validate(options));
}

TEST(RunOptions, ErrorsNameFileLineAndField) {
  RunOptions options;
  try {
    load_run_yaml("samples: 2\ntemperature: warm\n", "run.yaml", options);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("run.yaml:2: field \"temperature\""));
  }
  try {
    load_run_yaml("sample: 2\n", "run.yaml", options);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("run.yaml:1: field \"sample\": unknown option"));
  }
  EXPECT_THROW(load_run_yaml("samples: [1\n", "run.yaml", options), std::runtime_error);
}

TEST(RunOptions, SweepLabelsNameOnlyTheAxesThatVary) {
  RunOptions options;
  options.temperatures = {0.2, 0.8};
  options.modes = {"vanilla", "cot"};
  const auto configurations = expand_configurations(options);
  ASSERT_EQ(configurations.size(), 4u);
  EXPECT_EQ(configurations[0].label, "t=0.2,mode=vanilla");
  EXPECT_EQ(configurations[3].label, "t=0.8,mode=cot");
  EXPECT_EQ(configurations[3].position, "shuffled");

  RunOptions single;
  ASSERT_EQ(expand_configurations(single).size(), 1u);
  EXPECT_EQ(expand_configurations(single)[0].label, "");
}

TEST(RunOptions, ValidationRejectsOutOfRangeValues) {
  RunOptions options;
  options.temperatures = {3.0};
  EXPECT_THROW(validate(options), std::invalid_argument);
  options = {};
  options.modes = {"thinking"};
  EXPECT_THROW(validate(options), std::invalid_argument);
  options = {};
  options.api_key_env = "OPENAI_API_KEY";  // a key for the built-in model makes no sense
  EXPECT_THROW(validate(options), std::invalid_argument);
  options = {};
  options.endpoints = {"http://127.0.0.1:8000"};  // no --model
  EXPECT_THROW(validate(options), std::invalid_argument);
  options.model = "qwen";
  EXPECT_NO_THROW(validate(options));
  options.style = "cot";
  options.modes = {"cot"};  // the instruction twice
  EXPECT_THROW(validate(options), std::invalid_argument);
}

TEST(RunOptions, JsonRoundTripKeepsEveryField) {
  RunOptions options;
  options.scenarios = {"med"};
  options.samples = 4;
  options.top_p = 0.9;
  options.reasoning_budgets = {256, 1024};
  options.extra_body = {{"reasoning_effort", "low"}};
  const auto back = run_options_from_json(to_json(options));
  EXPECT_EQ(to_json(back), to_json(options));
}

}  // namespace
}  // namespace codebias::run

namespace codebias::run {
namespace {

std::string validation_error(const RunOptions& options) {
  try {
    validate(options);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(RunOptions, TheTraceDetectorMustBeKnownAndHaveItsModelFileWhenTrained) {
  RunOptions options;
  EXPECT_EQ(validation_error(options), "");  // keywords, no model file
  options.trace_detector = "fasttext";
  EXPECT_NE(validation_error(options).find("--trace-detector must be one of keywords"), std::string::npos);
  options.trace_detector = "tfidf-lr";
  EXPECT_NE(validation_error(options).find("needs --trace-detector-model FILE"), std::string::npos);
  options.trace_detector_model = "lr.json";
  EXPECT_EQ(validation_error(options), "");
  options.trace_detector = "keywords";
  EXPECT_NE(validation_error(options).find("only for a trained --trace-detector"), std::string::npos);
}

TEST(RunOptions, TheRewritingModelNeedsItsUrlAndName) {
  RunOptions options;
  options.rewrite_endpoint = "http://127.0.0.1:9000";
  EXPECT_NE(validation_error(options).find("--rewrite-endpoint and --rewrite-model go together"), std::string::npos);
  options.rewrite_model = "rewriter";
  EXPECT_EQ(validation_error(options), "");
  options.rewrite_endpoint.clear();
  options.rewrite_model.clear();
  options.rewrite_api_key_env = "KEY";
  EXPECT_NE(validation_error(options).find("--rewrite-api-key-env needs a --rewrite-endpoint"), std::string::npos);
}

}  // namespace
}  // namespace codebias::run
