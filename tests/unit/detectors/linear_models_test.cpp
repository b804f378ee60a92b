// The LR and SVM learners (detectors/linear_models.h) on problems whose solutions are known.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "detectors/linear_models.h"

namespace {

using namespace codebias::detectors;

const std::vector<SparseVector> kSymmetric = {{{0, 1.0}}, {{0, -1.0}}};  // x = +1 biased, x = -1 not
const std::vector<bool> kSymmetricLabels = {true, false};

TEST(LogisticRegression, SymmetricPairSatisfiesTheStationaryCondition) {
  for (double c : {0.5, 1.0, 10.0}) {
    LogisticRegressionOptions options;
    options.c = c;
    TrainingReport report;
    const LinearModel model = train_logistic_regression(kSymmetric, kSymmetricLabels, 1, options, &report);
    EXPECT_TRUE(report.converged);
    // ½w² + 2C log(1 + e^{-w}) is minimal where w = 2C σ(-w); by symmetry b = 0.
    EXPECT_NEAR(model.weights[0], 2 * c * sigmoid(-model.weights[0]), 1e-5);
    EXPECT_NEAR(model.bias, 0, 1e-6);
  }
}

TEST(LogisticRegression, NonSeparableConstantFeatureGivesTheLogOdds) {
  const std::vector<SparseVector> rows = {{{0, 1.0}}, {{0, 1.0}}, {{0, 1.0}}};
  const std::vector<bool> labels = {true, true, false};
  LogisticRegressionOptions options;
  options.balanced = false;
  // The regularised weight goes to 0 and the free bias takes the log-odds ln(2/1).
  const LinearModel plain = train_logistic_regression(rows, labels, 1, options);
  EXPECT_NEAR(plain.weights[0], 0, 1e-5);
  EXPECT_NEAR(plain.bias, std::log(2.0), 1e-5);
  // Balanced weights make the two classes count equally: log-odds 0.
  options.balanced = true;
  const LinearModel balanced = train_logistic_regression(rows, labels, 1, options);
  EXPECT_NEAR(balanced.bias, 0, 1e-5);
}

TEST(LinearModels, ClassWeightsAreBalanced) {
  const std::vector<double> weights = class_weights({true, true, true, false}, true);
  EXPECT_DOUBLE_EQ(weights[0], 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(weights[3], 2.0);
  EXPECT_THROW(class_weights({true, true}, true), std::invalid_argument);
}

TEST(LinearSvm, SeparablePairHasMarginOne) {
  LinearSvmOptions options;
  options.c = 10;
  TrainingReport report;
  const LinearModel model = train_linear_svm(kSymmetric, kSymmetricLabels, 1, options, &report);
  EXPECT_TRUE(report.converged);
  EXPECT_NEAR(model.weights[0], 1, 1e-6);
  EXPECT_NEAR(model.bias, 0, 1e-6);
  // With C = 0.25 the dual variables are capped (α = C): w = Σ α y x = 0.5.
  options.c = 0.25;
  const LinearModel capped = train_linear_svm(kSymmetric, kSymmetricLabels, 1, options);
  EXPECT_NEAR(capped.weights[0], 0.5, 1e-6);
}

double svm_objective(const LinearModel& model, const std::vector<SparseVector>& rows, const std::vector<bool>& labels, double c) {
  double value = 0.5 * (model.weights[0] * model.weights[0] + model.weights[1] * model.weights[1] + model.bias * model.bias);
  for (std::size_t i = 0; i < rows.size(); ++i) value += c * std::max(0.0, 1 - (labels[i] ? 1 : -1) * model.margin(rows[i]));
  return value;
}

TEST(LinearSvm, NonSeparableSolutionIsAMinimumAndDeterministic) {
  const std::vector<SparseVector> rows = {{{0, 1.0}}, {{0, 0.8}, {1, 0.3}}, {{1, 1.0}}, {{0, 0.9}, {1, 0.9}}, {{1, 0.7}}, {{0, 0.2}, {1, 0.6}}};
  const std::vector<bool> labels = {true, true, false, false, false, true};
  LinearSvmOptions options;
  options.balanced = false;
  options.tolerance = 1e-9;
  options.max_epochs = 100000;
  options.seed = 7;
  const LinearModel model = train_linear_svm(rows, labels, 2, options);
  const double best = svm_objective(model, rows, labels, options.c);
  for (double step : {1e-3, -1e-3})
    for (int coordinate = 0; coordinate < 3; ++coordinate) {
      LinearModel moved = model;
      if (coordinate < 2) moved.weights[static_cast<std::size_t>(coordinate)] += step;
      else moved.bias += step;
      EXPECT_GE(svm_objective(moved, rows, labels, options.c), best - 1e-9);
    }
  const LinearModel again = train_linear_svm(rows, labels, 2, options);
  EXPECT_EQ(again.weights, model.weights);
  EXPECT_EQ(again.bias, model.bias);
}

TEST(LinearModels, RejectMismatchedInput) {
  EXPECT_THROW(train_linear_svm(kSymmetric, {true}, 1, {}), std::invalid_argument);
  EXPECT_THROW(train_logistic_regression(kSymmetric, kSymmetricLabels, 0, {}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(sigmoid(0), 0.5);
  EXPECT_GT(sigmoid(800), 0.999);
  EXPECT_LT(sigmoid(-800), 1e-300 + 1e-12);
}

}  // namespace
