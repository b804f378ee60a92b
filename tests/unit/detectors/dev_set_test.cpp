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

}  // namespace
