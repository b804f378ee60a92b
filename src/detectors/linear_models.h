// The two linear learners of the classical baselines (ProbeDebias Table 5: TF-IDF + LR, TF-IDF +
// SVM), over sparse rows. Both weight each class by n / (2 n_class) when `balanced`
// (scikit-learn's class_weight="balanced").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "detectors/tfidf.h"

namespace codebias::detectors {

struct LinearModel {
  std::vector<double> weights;
  double bias = 0;
  double margin(const SparseVector& row) const;  // w·x + b
};

struct TrainingReport {
  int iterations = 0;  // L-BFGS iterations or SVM epochs
  bool converged = false;
  double objective = 0;  // the primal objective at the end
};

// Per-sample weights: 1, or n / (2 n_class) when balanced. Throws std::invalid_argument when a
// class is absent.
std::vector<double> class_weights(const std::vector<bool>& labels, bool balanced);

struct LogisticRegressionOptions {
  double c = 10;  // inverse regularisation strength, as scikit-learn's C
  bool balanced = true;
  int max_iterations = 500;
  double gradient_tolerance = 1e-6;  // stop when the gradient's max-norm falls below this × its first value
};

// Minimises ½‖w‖² + C Σ s_i log(1 + exp(−y_i (w·x_i + b))) (the bias is not regularised) by
// L-BFGS (Nocedal & Wright 2006, Alg. 7.4, memory 10) with a backtracking Armijo line search.
// Deterministic. Throws std::invalid_argument for mismatched sizes or a single class.
LinearModel train_logistic_regression(std::span<const SparseVector> rows, const std::vector<bool>& labels,
                                      std::size_t features, const LogisticRegressionOptions& options,
                                      TrainingReport* report = nullptr);

struct LinearSvmOptions {
  double c = 1;
  bool balanced = true;
  int max_epochs = 1000;
  double tolerance = 1e-3;  // stop when the projected gradient's spread falls below
  std::uint64_t seed = 1;   // order of the coordinates in each epoch
};

// L2-regularised hinge-loss SVM ½‖w‖² + ½b² + C Σ s_i max(0, 1 − y_i (w·x_i + b)) by dual
// coordinate descent (Hsieh et al. 2008, Alg. 1; the bias is a constant feature, as LIBLINEAR's).
// Deterministic given the seed. Throws as train_logistic_regression.
LinearModel train_linear_svm(std::span<const SparseVector> rows, const std::vector<bool>& labels, std::size_t features,
                             const LinearSvmOptions& options, TrainingReport* report = nullptr);

double sigmoid(double margin);

// The features of `row` that pushed the model towards its verdict (positive contributions w·x for
// a biased verdict, negative ones otherwise) as (contribution, feature index), the largest push
// first, ties by index so the order is stable; at most `limit`. A verdict's evidence.
std::vector<std::pair<double, std::uint32_t>> deciding_features(const LinearModel& model, const SparseVector& row,
                                                                bool biased, std::size_t limit);

}  // namespace codebias::detectors
