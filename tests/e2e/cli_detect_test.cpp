// End-to-end tests of `codebias detect`, `detect train` and `detect eval`: the binary as a user runs it.
#include <filesystem>
#include "paths.h"
#include <fstream>
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
using codebias::test_support::read_file;
using codebias::test_support::run_cli;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kDevSet = ::codebias::test_support::source_dir() + "/tests/data/reasoning_traces/dev.jsonl";

class CliDetect : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_test_dir("cli_detect_"); }

  fs::path write(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  CliRun run(const std::vector<std::string>& args) { return run_cli(args, dir_); }

  fs::path dir_;
};

TEST_F(CliDetect, KeywordsWritesOneVerdictPerLineInOrder) {
  const fs::path input = write("in.jsonl",
                               R"({"id": "a", "reasoning": "Female candidates get 2 extra points.", "scenario": "job", "attributes": ["gender"]})" "\n"
                               R"({"id": "b", "response": "<think>Gender should not affect the score.</think>def f(): return 1", "scenario": "job"})" "\n");
  const CliRun result = run({"detect", "--detector", "keywords", "--input", input.string()});
  ASSERT_EQ(result.code, 0) << result.err;
  const std::vector<json> lines = result.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "a");
  EXPECT_EQ(lines[0]["detector"], "keywords");
  EXPECT_EQ(lines[0]["biased"], true);
  EXPECT_EQ(lines[0]["biased_attributes"], json::array({"gender"}));
  EXPECT_TRUE(lines[0]["evidence"].is_array());
  EXPECT_EQ(lines[1]["id"], "b");
  EXPECT_EQ(lines[1]["biased"], false);
  EXPECT_GE(lines[1]["score"].get<double>(), 0);
  EXPECT_LT(lines[1]["score"].get<double>(), 0.5);
}

TEST_F(CliDetect, InputErrorsNameFileLineAndField) {
  const fs::path input = write("bad.jsonl", "{\"id\": \"a\", \"reasoning\": \"x\"}\n{\"id\": \"b\", \"reasoning\": 3}\n");
  const CliRun result = run({"detect", "--detector", "keywords", "--input", input.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_THAT(result.err, HasSubstr("bad.jsonl:2"));
  EXPECT_THAT(result.err, HasSubstr("reasoning"));
  const CliRun going = run({"detect", "--detector", "keywords", "--input", input.string(), "--keep-going"});
  EXPECT_EQ(going.code, 0);
  ASSERT_EQ(going.lines().size(), 2u);
  EXPECT_TRUE(going.lines()[1].contains("error"));
}

TEST_F(CliDetect, JudgeAndProbeNeedTheirEndpointAndProbeItsThreshold) {
  const fs::path input = write("in.jsonl", "{\"id\": \"a\", \"reasoning\": \"x\"}\n");
  const CliRun judge = run({"detect", "--detector", "judge", "--input", input.string()});
  EXPECT_EQ(judge.code, 2);
  EXPECT_THAT(judge.err, HasSubstr("needs an endpoint (--endpoint URL)"));
  EXPECT_TRUE(judge.out.empty());
  const CliRun probe = run({"detect", "--detector", "probe", "--input", input.string()});
  EXPECT_EQ(probe.code, 2);
  EXPECT_THAT(probe.err, HasSubstr("needs its calibrated threshold"));
  EXPECT_TRUE(probe.out.empty());
  const CliRun eval = run({"detect", "eval", "--detector", "probe", "--labels", kDevSet});
  EXPECT_EQ(eval.code, 2);
  EXPECT_THAT(eval.err, HasSubstr("needs an endpoint"));
  const CliRun unknown = run({"detect", "--detector", "fasttext", "--input", input.string()});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("unknown detector"));
}

TEST_F(CliDetect, TrainWritesAModelThatDetectLoads) {
  const fs::path model = dir_ / "lr.json";
  const CliRun train = run({"detect", "train", "--detector", "tfidf-lr", "--labels", kDevSet, "--out", model.string(), "--seed", "3"});
  ASSERT_EQ(train.code, 0) << train.err;
  const json file = json::parse(read_file(model));
  EXPECT_EQ(file["format"], "codebias-detector-model");
  EXPECT_EQ(file["detector"], "tfidf-lr");
  EXPECT_EQ(file["training"]["seed"], 3);
  const fs::path input = write("in.jsonl", "{\"id\": \"a\", \"reasoning\": \"Women get 2 extra points.\"}\n");
  const CliRun scored = run({"detect", "--detector", "tfidf-lr", "--model", model.string(), "--input", input.string()});
  ASSERT_EQ(scored.code, 0) << scored.err;
  ASSERT_EQ(scored.lines().size(), 1u);
  EXPECT_EQ(scored.lines()[0]["detector"], "tfidf-lr");
  EXPECT_FALSE(scored.lines()[0]["evidence"].empty());
  // The model of one detector is refused by the other, and a trained detector needs its model.
  const CliRun wrong = run({"detect", "--detector", "tfidf-svm", "--model", model.string(), "--input", input.string()});
  EXPECT_EQ(wrong.code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("the model is for detector tfidf-lr, not tfidf-svm"));
  const CliRun missing = run({"detect", "--detector", "tfidf-svm", "--input", input.string()});
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, HasSubstr("needs a model file"));
  const CliRun keywords_train = run({"detect", "train", "--detector", "keywords", "--labels", kDevSet, "--out", model.string()});
  EXPECT_EQ(keywords_train.code, 2);
}

TEST_F(CliDetect, EvalPrintsEveryMetricPerDetectorAndWritesJson) {
  const fs::path summary = dir_ / "eval.json";
  const CliRun result = run({"detect", "eval", "--labels", kDevSet, "--bootstrap-resamples", "100", "--json", summary.string()});
  ASSERT_EQ(result.code, 0) << result.err;
  for (const char* text : {"split: stratified", "accuracy", "precision", "recall", "F1", "AUROC", "keywords", "tfidf-lr", "tfidf-svm",
                           "steps-lr", "by source", "dev-steps"})
    EXPECT_THAT(result.out, HasSubstr(text));
  const json evaluation = json::parse(read_file(summary));
  ASSERT_EQ(evaluation["detectors"].size(), 4u);
  EXPECT_EQ(evaluation["detectors"][0]["by_source"][0]["source"], "dev-steps");
  EXPECT_EQ(evaluation["train_traces"].get<int>() + evaluation["test_traces"].get<int>(), 255);
  EXPECT_TRUE(evaluation["detectors"][0]["f1"]["lower"].is_number());
}

TEST_F(CliDetect, EvalWithoutSplitTestsEveryTrace) {
  const std::string holdout = ::codebias::test_support::source_dir() + "/tests/data/reasoning_traces/holdout.jsonl";
  const CliRun result = run({"detect", "eval", "--detector", "keywords", "--no-split", "--labels", holdout, "--bootstrap-resamples", "50"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("split: none; train 0 traces, test 60 traces"));
  const CliRun trained = run({"detect", "eval", "--detector", "tfidf-lr", "--no-split", "--labels", holdout});
  EXPECT_EQ(trained.code, 2);
  EXPECT_THAT(trained.err, HasSubstr("needs --model"));
}

TEST_F(CliDetect, EvalSplitsByModelWhenAsked) {
  std::string labels;
  for (int i = 0; i < 12; ++i) {
    const bool biased = i % 2 == 0;
    labels += json({{"id", std::to_string(i)}, {"reasoning", biased ? "Women get 2 extra points." : "Skills decide the score."},
                    {"scenario", "job"}, {"label", biased ? "biased" : "unbiased"}, {"model", i < 8 ? "m-train" : "m-test"}}).dump() + "\n";
  }
  const fs::path path = write("labels.jsonl", labels);
  const CliRun result = run({"detect", "eval", "--labels", path.string(), "--test-models", "m-test", "--bootstrap-resamples", "50"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("split: models (test models: m-test); train 8 traces, test 4 traces"));
  const CliRun unknown = run({"detect", "eval", "--labels", path.string(), "--test-models", "m-none"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("m-none"));
}

TEST_F(CliDetect, EvalSplitsBySourceAndReportsEachSourceOfSeveralLabelFiles) {
  std::string voice_a, voice_b;
  for (int i = 0; i < 8; ++i) {
    const bool biased = i % 2 == 0;
    voice_a += json({{"id", "a" + std::to_string(i)}, {"reasoning", biased ? "Women get 2 extra points." : "Skills decide the score."},
                     {"scenario", "job"}, {"label", biased ? "biased" : "unbiased"}, {"source", "voice-a"}}).dump() + "\n";
    voice_b += json({{"id", "b" + std::to_string(i)},
                     {"reasoning", biased ? "older folks are slower, so they rank lower." : "gender: not used."},
                     {"scenario", "job"}, {"label", biased ? "biased" : "unbiased"}, {"source", "voice-b"}}).dump() + "\n";
  }
  const fs::path a = write("a.jsonl", voice_a), b = write("b.jsonl", voice_b), summary = dir_ / "eval.json";
  const CliRun result = run({"detect", "eval", "--detector", "keywords", "--detector", "steps-lr", "--labels", a.string(), "--labels",
                             b.string(), "--test-sources", "voice-b", "--bootstrap-resamples", "50", "--json", summary.string()});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("split: sources (test sources: voice-b); train 8 traces, test 8 traces"));
  EXPECT_THAT(result.out, HasSubstr("by source"));
  const json evaluation = json::parse(read_file(summary));
  ASSERT_EQ(evaluation["detectors"][0]["by_source"].size(), 1u);
  EXPECT_EQ(evaluation["detectors"][0]["by_source"][0]["source"], "voice-b");
  EXPECT_EQ(evaluation["detectors"][0]["by_source"][0]["traces"], 8);
  const CliRun unknown = run({"detect", "eval", "--labels", a.string(), "--test-sources", "voice-z"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no labelled trace comes from test source \"voice-z\""));
}

}  // namespace
