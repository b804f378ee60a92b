#include "stats/mcnemar.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "stats/distributions.h"

namespace codebias::stats {

McNemarResult mcnemar(std::int64_t b, std::int64_t c, const McNemarOptions& options) {
  if (b < 0 || c < 0) {
    throw std::invalid_argument("mcnemar: discordant counts must be >= 0, got b = " +
                                std::to_string(b) + ", c = " + std::to_string(c));
  }
  if (options.exact_below < 0) {
    throw std::invalid_argument("mcnemar: exact_below must be >= 0");
  }
  McNemarResult result;
  result.b = b;
  result.c = c;
  const std::int64_t discordant = b + c;
  if (discordant == 0) return result;

  const double correction = options.continuity_correction ? 1.0 : 0.0;
  const double distance =
      std::max(0.0, static_cast<double>(std::llabs(b - c)) - correction);
  result.statistic = distance * distance / static_cast<double>(discordant);
  if (discordant < options.exact_below) {
    result.method = McNemarMethod::exact;
    // The Bin(n, 1/2) null is symmetric, so doubling the smaller tail is the two-sided p.
    result.p_value =
        std::min(1.0, 2.0 * binomial_tail_at_most(std::min(b, c), discordant, 0.5));
  } else {
    result.method = McNemarMethod::chi_squared;
    result.p_value = chi_squared_sf(result.statistic, 1.0);
  }
  return result;
}

McNemarResult mcnemar(const std::vector<bool>& outcome_a, const std::vector<bool>& outcome_b,
                      const McNemarOptions& options) {
  if (outcome_a.size() != outcome_b.size()) {
    throw std::invalid_argument("mcnemar: paired outcomes differ in size (" +
                                std::to_string(outcome_a.size()) + " vs " +
                                std::to_string(outcome_b.size()) + ")");
  }
  std::int64_t only_a = 0;
  std::int64_t only_b = 0;
  for (std::size_t i = 0; i < outcome_a.size(); ++i) {
    only_a += outcome_a[i] && !outcome_b[i];
    only_b += !outcome_a[i] && outcome_b[i];
  }
  return mcnemar(only_a, only_b, options);
}

}  // namespace codebias::stats
