#include "metrics/rate.h"

namespace codebias::metrics {

std::optional<RateWithInterval> rate_with_interval(int numerator, int denominator) {
  if (denominator <= 0) return std::nullopt;
  RateWithInterval r;
  r.numerator = numerator;
  r.denominator = denominator;
  r.rate = static_cast<double>(numerator) / denominator;
  r.ci95 = stats::wilson_interval(numerator, denominator);
  return r;
}

}  // namespace codebias::metrics
