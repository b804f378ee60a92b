#include "detectors/linear_models.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <stdexcept>

#include "stats/random.h"

namespace codebias::detectors {
namespace {

void check_inputs(std::span<const SparseVector> rows, const std::vector<bool>& labels, std::size_t features) {
  if (rows.size() != labels.size())
    throw std::invalid_argument(std::to_string(rows.size()) + " rows but " + std::to_string(labels.size()) + " labels");
  for (const SparseVector& row : rows)
    for (const auto& [index, value] : row)
      if (index >= features) throw std::invalid_argument("feature index " + std::to_string(index) + " out of range");
}

double dot(const std::vector<double>& weights, const SparseVector& row) {
  double sum = 0;
  for (const auto& [index, value] : row) sum += weights[index] * value;
  return sum;
}

// log(1 + exp(-m)) without overflow.
double logistic_loss(double m) { return m > 0 ? std::log1p(std::exp(-m)) : -m + std::log1p(std::exp(m)); }

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

double inner(const std::vector<double>& a, const std::vector<double>& b) {
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}

}  // namespace

double LinearModel::margin(const SparseVector& row) const { return dot(weights, row) + bias; }

std::vector<std::pair<double, std::uint32_t>> deciding_features(const LinearModel& model, const SparseVector& row,
                                                                bool biased, std::size_t limit) {
  std::vector<std::pair<double, std::uint32_t>> contributions;
  for (const auto& [index, value] : row) {
    const double contribution = model.weights[index] * value;
    if (contribution != 0 && (contribution > 0) == biased) contributions.emplace_back(contribution, index);
  }
  std::sort(contributions.begin(), contributions.end(), [](const auto& a, const auto& b) {
    if (std::abs(a.first) != std::abs(b.first)) return std::abs(a.first) > std::abs(b.first);
    return a.second < b.second;
  });
  if (contributions.size() > limit) contributions.resize(limit);
  return contributions;
}

double sigmoid(double margin) {
  if (margin >= 0) return 1 / (1 + std::exp(-margin));
  const double e = std::exp(margin);
  return e / (1 + e);
}

std::vector<double> class_weights(const std::vector<bool>& labels, bool balanced) {
  const auto positives = static_cast<double>(std::count(labels.begin(), labels.end(), true));
  const double negatives = static_cast<double>(labels.size()) - positives;
  if (positives == 0 || negatives == 0) throw std::invalid_argument("training needs traces of both labels");
  const double n = static_cast<double>(labels.size());
  std::vector<double> weights;
  weights.reserve(labels.size());
  for (bool label : labels) weights.push_back(balanced ? n / (2 * (label ? positives : negatives)) : 1.0);
  return weights;
}

LinearModel train_logistic_regression(std::span<const SparseVector> rows, const std::vector<bool>& labels,
                                      std::size_t features, const LogisticRegressionOptions& options,
                                      TrainingReport* report) {
  check_inputs(rows, labels, features);
  const std::vector<double> sample_weights = class_weights(labels, options.balanced);
  const std::size_t dims = features + 1;  // the last one is the bias
  // Objective and gradient at theta.
  auto evaluate = [&](const std::vector<double>& theta, std::vector<double>& gradient) {
    gradient.assign(dims, 0);
    double value = 0;
    for (std::size_t j = 0; j < features; ++j) {
      value += 0.5 * theta[j] * theta[j];
      gradient[j] = theta[j];
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double y = labels[i] ? 1 : -1;
      const double m = y * (dot(theta, rows[i]) + theta[features]);
      value += options.c * sample_weights[i] * logistic_loss(m);
      const double slope = -options.c * sample_weights[i] * y * sigmoid(-m);
      for (const auto& [index, x] : rows[i]) gradient[index] += slope * x;
      gradient[features] += slope;
    }
    return value;
  };

  std::vector<double> theta(dims, 0), gradient;
  double value = evaluate(theta, gradient);
  const double tolerance = options.gradient_tolerance * std::max(1.0, max_abs(gradient));
  constexpr std::size_t kMemory = 10;
  std::deque<std::vector<double>> steps, changes;  // s_k = Δθ, y_k = Δgradient
  TrainingReport done;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (max_abs(gradient) < tolerance) {
      done.converged = true;
      break;
    }
    // Two-loop recursion: direction = -H gradient.
    std::vector<double> direction = gradient;
    std::vector<double> alphas(steps.size());
    for (std::size_t k = steps.size(); k-- > 0;) {
      alphas[k] = inner(steps[k], direction) / inner(changes[k], steps[k]);
      for (std::size_t j = 0; j < dims; ++j) direction[j] -= alphas[k] * changes[k][j];
    }
    const double scale = steps.empty() ? 1 / std::max(1.0, max_abs(gradient))
                                       : inner(steps.back(), changes.back()) / inner(changes.back(), changes.back());
    for (double& d : direction) d *= scale;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const double beta = inner(changes[k], direction) / inner(changes[k], steps[k]);
      for (std::size_t j = 0; j < dims; ++j) direction[j] += (alphas[k] - beta) * steps[k][j];
    }
    for (double& d : direction) d = -d;
    double slope = inner(gradient, direction);
    if (slope >= 0) {  // not a descent direction: restart from steepest descent
      steps.clear();
      changes.clear();
      direction = gradient;
      for (double& d : direction) d = -d / std::max(1.0, max_abs(gradient));
      slope = inner(gradient, direction);
    }
    // Backtracking Armijo line search.
    double step = 1;
    std::vector<double> candidate(dims), candidate_gradient;
    double candidate_value = 0;
    bool accepted = false;
    for (int tries = 0; tries < 60; ++tries, step *= 0.5) {
      for (std::size_t j = 0; j < dims; ++j) candidate[j] = theta[j] + step * direction[j];
      candidate_value = evaluate(candidate, candidate_gradient);
      if (candidate_value <= value + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
    }
    done.iterations = iteration + 1;
    if (!accepted) break;  // no decrease possible at machine precision
    std::vector<double> s(dims), y(dims);
    for (std::size_t j = 0; j < dims; ++j) {
      s[j] = candidate[j] - theta[j];
      y[j] = candidate_gradient[j] - gradient[j];
    }
    if (inner(s, y) > 1e-12) {
      steps.push_back(std::move(s));
      changes.push_back(std::move(y));
      if (steps.size() > kMemory) {
        steps.pop_front();
        changes.pop_front();
      }
    }
    theta.swap(candidate);
    gradient.swap(candidate_gradient);
    value = candidate_value;
  }
  if (!done.converged && max_abs(gradient) < tolerance) done.converged = true;
  done.objective = value;
  if (report != nullptr) *report = done;
  LinearModel model;
  model.bias = theta[features];
  theta.pop_back();
  model.weights = std::move(theta);
  return model;
}

LinearModel train_linear_svm(std::span<const SparseVector> rows, const std::vector<bool>& labels, std::size_t features,
                             const LinearSvmOptions& options, TrainingReport* report) {
  check_inputs(rows, labels, features);
  const std::vector<double> sample_weights = class_weights(labels, options.balanced);
  const std::size_t n = rows.size();
  std::vector<double> diagonal(n), upper(n), alpha(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    diagonal[i] = 1;  // the constant bias feature
    for (const auto& [index, x] : rows[i]) diagonal[i] += x * x;
    upper[i] = options.c * sample_weights[i];
  }
  LinearModel model;
  model.weights.assign(features, 0);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  stats::Xoshiro256StarStar random(options.seed);
  TrainingReport done;
  for (int epoch = 0; epoch < options.max_epochs; ++epoch) {
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[random.uniform_below(i)]);
    double highest = -INFINITY, lowest = INFINITY;
    for (std::size_t i : order) {
      const double y = labels[i] ? 1 : -1;
      const double g = y * model.margin(rows[i]) - 1;
      double projected = g;
      if (alpha[i] <= 0) projected = std::min(g, 0.0);
      else if (alpha[i] >= upper[i]) projected = std::max(g, 0.0);
      highest = std::max(highest, projected);
      lowest = std::min(lowest, projected);
      if (std::abs(projected) <= 1e-12) continue;
      const double updated = std::clamp(alpha[i] - g / diagonal[i], 0.0, upper[i]);
      const double delta = (updated - alpha[i]) * y;
      alpha[i] = updated;
      for (const auto& [index, x] : rows[i]) model.weights[index] += delta * x;
      model.bias += delta;
    }
    done.iterations = epoch + 1;
    if (highest - lowest < options.tolerance) {
      done.converged = true;
      break;
    }
  }
  double objective = 0.5 * (inner(model.weights, model.weights) + model.bias * model.bias);
  for (std::size_t i = 0; i < n; ++i)
    objective += options.c * sample_weights[i] * std::max(0.0, 1 - (labels[i] ? 1 : -1) * model.margin(rows[i]));
  done.objective = objective;
  if (report != nullptr) *report = done;
  return model;
}

}  // namespace codebias::detectors
