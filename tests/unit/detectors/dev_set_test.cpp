// The issue's bar on the labelled development set (tests/data/reasoning_traces/dev.jsonl): trained
// on one stratified half, the best non-LLM detector reaches F1 >= 0.88 on the other half.
#include <algorithm>
#include "paths.h"
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "detectors/evaluate.h"
#include "detectors/registry.h"
#include "detectors/trace_input.h"

namespace {

using namespace codebias::detectors;

std::vector<LabelledTrace> read_set(const std::string& name) {
  const std::string path = std::string(::codebias::test_support::source_dir()) + "/tests/data/reasoning_traces/" + name;
  std::ifstream file(path);
  return read_labelled_traces(file, path, codebias::analysis::AttributeTable::builtin());
}

TEST(ReasoningDevSet, IsBalancedAndLargeEnough) {
  const std::vector<LabelledTrace> traces = read_set("dev.jsonl");
  ASSERT_GE(traces.size(), 240u);
  const auto biased = std::count_if(traces.begin(), traces.end(), [](const LabelledTrace& t) { return t.biased; });
  EXPECT_GE(biased * 10, static_cast<long>(traces.size()) * 4);
  EXPECT_LE(biased * 10, static_cast<long>(traces.size()) * 6);
}

TEST(ReasoningDevSet, BestDetectorReachesTheIssuesF1OnTheTestHalf) {
  EvaluationPlan plan;
  plan.detectors = {"keywords", "tfidf-lr", "tfidf-svm"};
  plan.bootstrap.resamples = 200;
  const EvaluationRun run = evaluate_detectors(read_set("dev.jsonl"), plan);
  ASSERT_EQ(run.detectors.size(), 3u);
  double best = 0;
  for (const DetectorEvaluation& e : run.detectors) best = std::max(best, e.f1.estimate);
  EXPECT_GE(best, 0.88);
  EXPECT_GE(run.test_traces, 120u);
}

// The keyword rules on steps written after the rules were fixed (tests/data/reasoning_traces/README.md).
TEST(ReasoningDevSet, KeywordRulesHoldOnTheHeldOutSet) {
  const std::vector<LabelledTrace> traces = read_set("holdout.jsonl");
  ASSERT_GE(traces.size(), 60u);
  std::vector<bool> truth, predicted;
  const auto detector = make_detector("keywords", {});
  for (const LabelledTrace& trace : traces) {
    truth.push_back(trace.biased);
    predicted.push_back(detector->detect(trace.trace).biased);
  }
  EXPECT_GE(f1_score(confusion(truth, predicted)), 0.88);
}

// Issue 30: the voices the rules were tuned on, and the held-out voice (terse notes) they were not.
TEST(ReasoningDevSet, KeywordRulesHoldOnOtherVoices) {
  const auto detector = make_detector("keywords", {});
  for (const auto& [file, bar] : {std::pair<const char*, double>{"voices_train.jsonl", 0.95}, {"voices_heldout.jsonl", 0.9}}) {
    SCOPED_TRACE(file);
    const std::vector<LabelledTrace> traces = read_set(file);
    ASSERT_GE(traces.size(), 40u);
    std::vector<bool> truth, predicted;
    for (const LabelledTrace& trace : traces) {
      EXPECT_FALSE(trace.source.empty());
      truth.push_back(trace.biased);
      predicted.push_back(detector->detect(trace.trace).biased);
    }
    EXPECT_GE(f1_score(confusion(truth, predicted)), bar);
  }
}

// steps-lr trained on the development steps and the training voices, tested on the held-out steps.
TEST(ReasoningDevSet, StepsDetectorCarriesToHeldOutSteps) {
  std::vector<LabelledTrace> labels = read_set("dev.jsonl");
  for (const char* file : {"holdout.jsonl", "voices_train.jsonl"}) {
    std::vector<LabelledTrace> more = read_set(file);
    labels.insert(labels.end(), more.begin(), more.end());
  }
  EvaluationPlan plan;
  plan.detectors = {"steps-lr"};
  plan.test_sources = {"holdout-steps"};
  plan.bootstrap.resamples = 50;
  const EvaluationRun run = evaluate_detectors(labels, plan);
  EXPECT_EQ(run.test_traces, 60u);
  EXPECT_GE(run.detectors[0].f1.estimate, 0.85);
  EXPECT_GE(run.detectors[0].auroc.estimate, 0.9);
}

}  // namespace
