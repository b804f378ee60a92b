// TF-IDF + LR / SVM detectors (detectors/linear_detector.h): training, evidence, model files.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "detectors/keyword_rules.h"
#include "detectors/linear_detector.h"

namespace {

using namespace codebias::detectors;
using nlohmann::json;

std::vector<LabelledTrace> toy_traces() {
  const std::vector<std::string> biased = {"women get a bonus of two points", "I give women a bonus here",
                                           "a bonus for women candidates", "female applicants get a bonus"};
  const std::vector<std::string> unbiased = {"skills decide the score alone", "the score uses skills only",
                                             "experience and skills decide", "only skills count here"};
  std::vector<LabelledTrace> traces;
  for (const std::string& text : biased) traces.push_back({{"b", text, "job", {"gender"}}, true, "", ""});
  for (const std::string& text : unbiased) traces.push_back({{"u", text, "job", {"gender"}}, false, "", ""});
  return traces;
}

LinearDetector trained(LinearKind kind) {
  LinearTrainOptions options;
  options.tfidf.min_df = 1;
  return LinearDetector::train(kind, toy_traces(), options, KeywordRules::builtin(), codebias::analysis::AttributeTable::builtin());
}

TEST(LinearDetector, SeparatesTheTrainingTracesWithEvidence) {
  for (LinearKind kind : {LinearKind::logistic_regression, LinearKind::linear_svm}) {
    const LinearDetector detector = trained(kind);
    const Verdict biased = detector.detect({"x", "women get a bonus", "job", {"gender"}});
    EXPECT_TRUE(biased.biased) << detector.name();
    EXPECT_GT(biased.score, 0.5);
    EXPECT_EQ(biased.biased_attributes, (std::vector<std::string>{"gender"}));
    ASSERT_FALSE(biased.evidence.empty());
    EXPECT_LE(biased.evidence.size(), 8u);
    for (const Evidence& evidence : biased.evidence) EXPECT_GT(*evidence.weight, 0);
    const Verdict unbiased = detector.detect({"y", "skills decide the score", "job", {}});
    EXPECT_FALSE(unbiased.biased) << detector.name();
    for (const Evidence& evidence : unbiased.evidence) EXPECT_LT(*evidence.weight, 0);
  }
}

TEST(LinearDetector, ModelFileRoundTripsToTheSameScores) {
  const LinearDetector detector = trained(LinearKind::linear_svm);
  const json file = json::parse(detector.to_json().dump());
  EXPECT_EQ(file["format"], "codebias-detector-model");
  EXPECT_EQ(file["version"], 1);
  EXPECT_EQ(file["detector"], "tfidf-svm");
  EXPECT_EQ(file["preprocessing"]["max_chars"], 3000);
  EXPECT_EQ(file["training"]["traces"], 8);
  const LinearDetector loaded = LinearDetector::from_json(file, "m.json", LinearKind::linear_svm, KeywordRules::builtin(),
                                                          codebias::analysis::AttributeTable::builtin());
  for (const LabelledTrace& trace : toy_traces())
    EXPECT_DOUBLE_EQ(loaded.detect(trace.trace).score, detector.detect(trace.trace).score);
}

std::string load_error(const json& file, LinearKind kind = LinearKind::logistic_regression) {
  try {
    LinearDetector::from_json(file, "m.json", kind, KeywordRules::builtin(), codebias::analysis::AttributeTable::builtin());
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(LinearDetector, WrongFilesGiveClearErrors) {
  const json good = trained(LinearKind::logistic_regression).to_json();
  json old = good;
  old["version"] = 0;
  EXPECT_NE(load_error(old).find("m.json: model format version 0 is not supported by this build (it reads version 1)"), std::string::npos);
  json other = good;
  other["format"] = "something-else";
  EXPECT_NE(load_error(other).find("not a codebias detector model"), std::string::npos);
  EXPECT_NE(load_error(good, LinearKind::linear_svm).find("the model is for detector tfidf-lr, not tfidf-svm"), std::string::npos);
  json short_weights = good;
  short_weights["weights"].erase(0);
  EXPECT_NE(load_error(short_weights).find("field weights"), std::string::npos);
  json bad_threshold = good;
  bad_threshold["threshold"] = 1.5;
  EXPECT_NE(load_error(bad_threshold).find("field threshold"), std::string::npos);
  EXPECT_EQ(load_error(good), "");
}

}  // namespace
