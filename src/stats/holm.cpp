#include "stats/holm.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace codebias::stats {

std::vector<double> holm_adjust(std::span<const double> p_values) {
  for (std::size_t i = 0; i < p_values.size(); ++i) {
    if (!(p_values[i] >= 0 && p_values[i] <= 1)) {
      throw std::invalid_argument("holm_adjust: p-value " + std::to_string(i) +
                                  " is not in [0, 1]");
    }
  }
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running_max = 0;  // keeps the adjusted values monotone in the sorted order
  for (std::size_t rank = 0; rank < m; ++rank) {
    const double multiplier = static_cast<double>(m - rank);
    running_max = std::max(running_max, std::min(1.0, multiplier * p_values[order[rank]]));
    adjusted[order[rank]] = running_max;
  }
  return adjusted;
}

}  // namespace codebias::stats
