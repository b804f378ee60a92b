#include "stats/cliffs_delta.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace codebias::stats {
namespace {

void require_finite_sample(std::span<const double> sample, const char* name) {
  if (sample.empty()) {
    throw std::invalid_argument(std::string("cliffs_delta: sample ") + name + " is empty");
  }
  for (std::size_t i = 0; i < sample.size(); ++i) {
    if (!std::isfinite(sample[i])) {
      throw std::invalid_argument(std::string("cliffs_delta: sample ") + name + " value " +
                                  std::to_string(i) + " is not a finite number");
    }
  }
}

}  // namespace

EffectMagnitude cliffs_delta_magnitude(double delta) {
  const double size = std::abs(delta);
  if (size < 0.147) return EffectMagnitude::negligible;
  if (size < 0.33) return EffectMagnitude::small;
  if (size < 0.474) return EffectMagnitude::medium;
  return EffectMagnitude::large;
}

CliffsDeltaResult cliffs_delta(std::span<const double> x, std::span<const double> y) {
  require_finite_sample(x, "x");
  require_finite_sample(y, "y");
  std::vector<double> sorted_y(y.begin(), y.end());
  std::sort(sorted_y.begin(), sorted_y.end());
  CliffsDeltaResult result;
  result.n_x = x.size();
  result.n_y = y.size();
  for (double value : x) {
    const auto below = std::lower_bound(sorted_y.begin(), sorted_y.end(), value);
    const auto above = std::upper_bound(below, sorted_y.end(), value);
    result.greater_pairs += static_cast<std::size_t>(below - sorted_y.begin());
    result.less_pairs += static_cast<std::size_t>(sorted_y.end() - above);
  }
  const double pairs = static_cast<double>(x.size()) * static_cast<double>(y.size());
  result.delta = (static_cast<double>(result.greater_pairs) -
                  static_cast<double>(result.less_pairs)) / pairs;
  result.magnitude = cliffs_delta_magnitude(result.delta);
  return result;
}

}  // namespace codebias::stats
