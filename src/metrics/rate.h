// A share with its 95 % Wilson interval, for every metric that reports a proportion of units.
#pragma once

#include <optional>

#include "stats/proportion.h"

namespace codebias::metrics {

struct RateWithInterval {
  double rate = 0;
  stats::ProportionInterval ci95;
  int numerator = 0;
  int denominator = 0;
};

// numerator / denominator with its interval; unset when the denominator is 0.
std::optional<RateWithInterval> rate_with_interval(int numerator, int denominator);

}  // namespace codebias::metrics
