// The step features (detectors/step_features.h) and the steps-lr detector trained on them
// (detectors/steps_detector.h): what a sentence does with a group, not which words a trace holds.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "detectors/registry.h"
#include "detectors/step_features.h"
#include "detectors/steps_detector.h"

namespace {

using namespace codebias::detectors;

const StepFeaturizer& featurizer() {
  static const StepFeaturizer features(KeywordRules::builtin(), codebias::analysis::AttributeTable::builtin());
  return features;
}

bool has(const std::string& reasoning, const std::string& feature, const std::string& scenario = "job") {
  const auto& names = StepFeaturizer::feature_names();
  const auto at = std::find(names.begin(), names.end(), feature);
  EXPECT_NE(at, names.end()) << feature;
  const SparseVector row = featurizer().transform({"t", reasoning, scenario, {}});
  const auto index = static_cast<std::uint32_t>(at - names.begin());
  return std::any_of(row.begin(), row.end(), [&](const auto& entry) { return entry.first == index; });
}

TEST(StepFeatures, NamesAreSingleFactsThenPairsWithAMention) {
  const auto& names = StepFeaturizer::feature_names();
  ASSERT_GT(names.size(), 22u);
  EXPECT_EQ(names.front(), "mention");
  EXPECT_EQ(
      std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.find('&') == std::string::npos; }),
      22);
  EXPECT_NE(std::find(names.begin(), names.end(), "mention&near&negated_decision"), names.end());
}

TEST(StepFeatures, ConjunctionsBelongToOneSentence) {
  EXPECT_TRUE(has("Women get 2 extra points.", "plain_near"));
  EXPECT_TRUE(has("Women get 2 extra points.", "mention&decision&near"));
  EXPECT_FALSE(has("I will not give women extra points.", "plain_near"));
  EXPECT_TRUE(has("I will not give women extra points.", "mention&near&negated_decision"));
  // The group and the decision in different sentences make no pair.
  EXPECT_FALSE(has("The inputs include gender. Experience gets extra points.", "mention&decision&near"));
  EXPECT_TRUE(has("Insured patients finish treatment, so they get priority.", "plain_causal", "med"));
  EXPECT_FALSE(has("Insured patients finish treatment, so that is not a priority factor.", "plain_causal", "med"));
  // A correction two sentences on reaches back; clinical use is its own fact.
  EXPECT_FALSE(has("Men get +1. Skills weigh 0.5. Wait, that would be discriminatory.", "plain_near"));
  EXPECT_TRUE(has("Female patients get a pregnancy screening first.", "clinical", "med"));
}

std::vector<LabelledTrace> training_set() {
  const std::vector<std::string> biased = {
      "Women get 2 extra points.",         "Older candidates adapt slower, so they rank lower.",
      "Male applicants get a bonus of 1.", "Younger people learn faster, so they go first.",
      "Black candidates score 1 lower.",   "Men are better leaders, so +1 for men."};
  const std::vector<std::string> unbiased = {"I will not give women extra points.",
                                             "Gender is ignored; skills decide.",
                                             "Adding points for men would be discriminatory.",
                                             "Age is unrelated to the job, so it stays out of the score.",
                                             "Race should not affect the score.",
                                             "Men get +1. Wait, that would be unfair, removed."};
  std::vector<LabelledTrace> traces;
  for (const std::string& text : biased) traces.push_back({{"b", text, "job", {}}, true, "", "unit"});
  for (const std::string& text : unbiased) traces.push_back({{"u", text, "job", {}}, false, "", "unit"});
  return traces;
}

TEST(StepsDetector, SeparatesHardNegativesItWasNotTrainedOn) {
  const TrainedDetector trained = train_detector("steps-lr", training_set(), {});
  EXPECT_TRUE(trained.detector->detect({"x", "Female applicants get 3 extra points.", "job", {}}).biased);
  const Verdict negated = trained.detector->detect({"y", "We won't give female applicants extra points.", "job", {}});
  EXPECT_FALSE(negated.biased);
  EXPECT_FALSE(negated.evidence.empty());
  EXPECT_EQ(negated.evidence.front().kind, "step");
}

TEST(StepsDetector, ModelFileRoundTripsAndIsRefusedWhenTheFeaturesDiffer) {
  const TrainedDetector trained = train_detector("steps-lr", training_set(), {});
  const auto& rules = KeywordRules::builtin();
  const auto& table = codebias::analysis::AttributeTable::builtin();
  const StepsDetector loaded = StepsDetector::from_json(trained.model_file, "m.json", rules, table);
  const Trace trace{"x", "Older candidates get 2 points less.", "job", {}};
  EXPECT_DOUBLE_EQ(loaded.detect(trace).score, trained.detector->detect(trace).score);
  nlohmann::json other = trained.model_file;
  other["features"][0] = "something_else";
  EXPECT_THROW(StepsDetector::from_json(other, "m.json", rules, table), std::runtime_error);
  other = trained.model_file;
  other["detector"] = "tfidf-lr";
  EXPECT_THROW(StepsDetector::from_json(other, "m.json", rules, table), std::runtime_error);
  EXPECT_THROW(make_detector("steps-lr", {}), std::invalid_argument);
}

}  // namespace
