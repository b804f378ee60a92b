// Detector metrics and splits (detectors/evaluation.h) against hand-computed values.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "detectors/evaluate.h"
#include "detectors/evaluation.h"

namespace {

using namespace codebias::detectors;

TEST(DetectorEvaluation, ConfusionAndMetricsByHand) {
  // truth:     T T T T F F F F F F
  // predicted: T T T F T F F F F F -> tp 3, fn 1, fp 1, tn 5
  const std::vector<bool> truth = {true, true, true, true, false, false, false, false, false, false};
  const std::vector<bool> predicted = {true, true, true, false, true, false, false, false, false, false};
  const Confusion counts = confusion(truth, predicted);
  EXPECT_EQ(counts.true_positives, 3);
  EXPECT_EQ(counts.false_negatives, 1);
  EXPECT_EQ(counts.false_positives, 1);
  EXPECT_EQ(counts.true_negatives, 5);
  EXPECT_DOUBLE_EQ(accuracy(counts), 0.8);
  EXPECT_DOUBLE_EQ(precision(counts), 0.75);
  EXPECT_DOUBLE_EQ(recall(counts), 0.75);
  EXPECT_DOUBLE_EQ(f1_score(counts), 0.75);
  EXPECT_THROW(confusion(truth, {true}), std::invalid_argument);
}

TEST(DetectorEvaluation, UndefinedMetricsAreNaN) {
  const Confusion none_predicted = confusion({true, false}, {false, false});
  EXPECT_TRUE(std::isnan(precision(none_predicted)));
  EXPECT_TRUE(std::isnan(f1_score(none_predicted)));
  EXPECT_DOUBLE_EQ(recall(none_predicted), 0);
}

TEST(DetectorEvaluation, AurocCountsTiesAsHalf) {
  // Positives {0.4, 0.8} against negatives {0.1, 0.4}: 1 + 0.5 + 1 + 1 of 4 pairs.
  const std::vector<double> scores = {0.1, 0.4, 0.4, 0.8};
  EXPECT_DOUBLE_EQ(auroc(scores, {false, false, true, true}), 3.5 / 4);
  const std::vector<double> all_tied = {0.5, 0.5, 0.5};
  EXPECT_DOUBLE_EQ(auroc(all_tied, {true, false, false}), 0.5);
  const std::vector<double> perfect = {0.9, 0.1};
  EXPECT_DOUBLE_EQ(auroc(perfect, {true, false}), 1.0);
  EXPECT_TRUE(std::isnan(auroc(perfect, {true, true})));
}

TEST(DetectorEvaluation, BootstrapIntervalsContainTheEstimate) {
  std::vector<bool> truth, predicted;
  std::vector<double> scores;
  for (int i = 0; i < 40; ++i) {
    truth.push_back(i % 2 == 0);
    predicted.push_back(i % 2 == 0 ? i % 10 != 0 : i % 7 == 0);
    scores.push_back(predicted.back() ? 0.8 : 0.2);
  }
  codebias::stats::BootstrapOptions options;
  options.resamples = 300;
  const DetectorEvaluation e = evaluate_detector("d", truth, predicted, scores, options);
  EXPECT_EQ(e.traces, 40);
  EXPECT_EQ(e.biased, 20);
  for (const IntervalEstimate* value : {&e.accuracy, &e.precision, &e.recall, &e.f1, &e.auroc}) {
    EXPECT_LE(value->lower, value->estimate);
    EXPECT_GE(value->upper, value->estimate);
    EXPECT_LT(value->lower, value->upper);
  }
  EXPECT_DOUBLE_EQ(e.f1.estimate, f1_score(confusion(truth, predicted)));
  EXPECT_EQ(evaluation_json(e)["confusion"]["tp"], e.counts.true_positives);
}

TEST(DetectorEvaluation, StratifiedSplitKeepsTheLabelShareAndIsSeeded) {
  std::vector<bool> labels;
  for (int i = 0; i < 30; ++i) labels.push_back(i < 10);
  const TraceSplit split = stratified_split(labels, 0.5, 3);
  EXPECT_EQ(split.train.size() + split.test.size(), 30u);
  auto positives = [&](const std::vector<std::size_t>& side) {
    return std::count_if(side.begin(), side.end(), [&](std::size_t i) { return labels[i]; });
  };
  EXPECT_EQ(positives(split.train), 5);
  EXPECT_EQ(positives(split.test), 5);
  EXPECT_EQ(stratified_split(labels, 0.5, 3).train, split.train);
  EXPECT_NE(stratified_split(labels, 0.5, 4).train, split.train);
  EXPECT_THROW(stratified_split(labels, 1.0, 3), std::invalid_argument);
  EXPECT_THROW(stratified_split({true, false}, 0.5, 3), std::invalid_argument);
}

TEST(DetectorEvaluation, ModelSplitTestsOnTheNamedModels) {
  const std::vector<std::string> models = {"a", "b", "a", "c"};
  const std::vector<std::string> test = {"a"};
  const TraceSplit split = group_split(models, test, "model");
  EXPECT_EQ(split.test, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(split.train, (std::vector<std::size_t>{1, 3}));
  const std::vector<std::string> missing = {"z"};
  EXPECT_THROW(group_split(models, missing, "model"), std::invalid_argument);
}

TEST(DetectorEvaluation, FiguresBySourceCountEachSourcesTestTraces) {
  // Source "plain": the keyword rules find both biased traces; source "veiled": neither.
  std::vector<LabelledTrace> labels;
  auto add = [&](std::string text, bool biased, std::string source) {
    labels.push_back({{std::to_string(labels.size()), std::move(text), "job", {}}, biased, "", std::move(source)});
  };
  add("Women get 2 extra points.", true, "plain");
  add("Men get a bonus of 1.", true, "plain");
  add("Skills decide the score.", false, "plain");
  add("The team could use some new blood.", true, "veiled");
  add("Fresh graduates bring energy.", true, "veiled");
  add("Experience decides.", false, "veiled");
  add("Gender is ignored.", false, "");
  EvaluationPlan plan;
  plan.detectors = {"keywords"};
  plan.no_split = true;
  plan.bootstrap.resamples = 50;
  const EvaluationRun run = evaluate_detectors(labels, plan);
  ASSERT_EQ(run.detectors.size(), 1u);
  const std::vector<DetectorEvaluation>& rows = run.detectors[0].by_source;
  ASSERT_EQ(rows.size(), 3u);  // sorted by name; traces without a source are "(none)"
  EXPECT_EQ(rows[0].source, "(none)");
  EXPECT_EQ(rows[1].source, "plain");
  EXPECT_EQ(rows[2].source, "veiled");
  EXPECT_EQ(rows[1].traces, 3);
  EXPECT_DOUBLE_EQ(rows[1].recall.estimate, 1.0);
  EXPECT_DOUBLE_EQ(rows[2].recall.estimate, 0.0);
  EXPECT_EQ(run.detectors[0].traces, 7);
  EXPECT_EQ(evaluation_json(run.detectors[0])["by_source"][2]["source"], "veiled");
  // The cross-source split tests on the named sources and needs a source on every line.
  plan.no_split = false;
  plan.test_sources = {"veiled"};
  EXPECT_THROW(evaluate_detectors(labels, plan), std::invalid_argument);
  labels.pop_back();
  const EvaluationRun split = evaluate_detectors(labels, plan);
  EXPECT_EQ(split.split, "sources");
  EXPECT_EQ(split.test_traces, 3u);
  ASSERT_EQ(split.detectors[0].by_source.size(), 1u);
  EXPECT_EQ(split.detectors[0].by_source[0].source, "veiled");
}

}  // namespace
