#include "stats/confidence_sequence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace codebias::stats {
namespace {

constexpr double kVarianceProxy = 0.25;  // values in [0, 1]: Hoeffding's lemma

void check_confidence(double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("confidence sequence: confidence must be in (0, 1)");
}

}  // namespace

double normal_mixture_radius(std::size_t t, double confidence, double rho) {
  check_confidence(confidence);
  if (t == 0 || !(rho > 0)) throw std::invalid_argument("normal_mixture_radius: need t >= 1 and rho > 0");
  const double alpha = 1 - confidence;
  const double v = static_cast<double>(t) * kVarianceProxy + rho;
  return std::sqrt(v * std::log(v / (rho * alpha * alpha))) / static_cast<double>(t);
}

double normal_mixture_rho(std::size_t tightest_at, double confidence) {
  // Golden-section search on ln ρ: the radius at fixed t is unimodal in ρ.
  double low = std::log(1e-6), high = std::log(1e6);
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  const auto radius = [&](double log_rho) {
    return normal_mixture_radius(std::max<std::size_t>(tightest_at, 1), confidence, std::exp(log_rho));
  };
  for (int i = 0; i < 200; ++i) {
    const double a = high - ratio * (high - low), b = low + ratio * (high - low);
    if (radius(a) < radius(b)) {
      high = b;
    } else {
      low = a;
    }
  }
  return std::exp((low + high) / 2);
}

SequenceInterval mean_confidence_sequence(double sum, std::size_t count, double confidence,
                                          std::size_t tightest_at) {
  check_confidence(confidence);
  if (!(sum >= 0 && sum <= static_cast<double>(count)))
    throw std::invalid_argument("mean_confidence_sequence: the sum must be in [0, count]");
  if (count == 0) return {0, 0, 1};
  const double mean = sum / static_cast<double>(count);
  const double radius = normal_mixture_radius(count, confidence, normal_mixture_rho(tightest_at, confidence));
  return {mean, std::max(0.0, mean - radius), std::min(1.0, mean + radius)};
}

}  // namespace codebias::stats
