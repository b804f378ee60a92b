// McNemar's test (McNemar 1947) for paired binary outcomes, e.g. the same prompt judged biased or
// unbiased under run A and run B. Only the discordant pairs matter: b = biased in A only,
// c = biased in B only. Under H0 (same marginal rate), given b + c, b ~ Bin(b + c, 1/2).
//
// Variant (docs/statistics.md, "McNemar"): exact binomial test when b + c < exact_below
// (default 25, the usual rule of thumb; R's mcnemar.test has no exact branch;
// statsmodels' `mcnemar(exact=True)` is the same exact test), otherwise the chi-squared statistic
// (|b − c| − 1)² / (b + c) with one degree of freedom, continuity-corrected by default
// (Edwards 1948; R's default).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace codebias::stats {

enum class McNemarMethod {
  exact,            // two-sided exact binomial
  chi_squared,      // asymptotic, 1 dof
  no_discordance,   // b + c = 0: nothing to test, p = 1
};

constexpr std::string_view to_string(McNemarMethod method) {
  switch (method) {
    case McNemarMethod::exact: return "exact";
    case McNemarMethod::chi_squared: return "chi-squared";
    case McNemarMethod::no_discordance: return "no-discordance";
  }
  return "unknown";
}

struct McNemarOptions {
  std::int64_t exact_below = 25;  // b + c below this: exact test; 0 = never exact
  bool continuity_correction = true;
};

struct McNemarResult {
  std::int64_t b = 0;
  std::int64_t c = 0;
  // The chi-squared statistic (filled for every method with b + c > 0, for reporting), 1 dof.
  double statistic = 0;
  // Two-sided; for the exact method 2·P(X ≤ min(b, c)), X ~ Bin(b + c, 1/2), capped at 1.
  double p_value = 1;
  McNemarMethod method = McNemarMethod::no_discordance;
};

// Throws std::invalid_argument for negative counts or a negative exact_below.
McNemarResult mcnemar(std::int64_t b, std::int64_t c, const McNemarOptions& options = {});
// The same from the outcomes themselves: outcome_a[i] and outcome_b[i] are prompt i under run
// A and run B (b counts true in A only, c true in B only). Throws std::invalid_argument when
// the sizes differ.
McNemarResult mcnemar(const std::vector<bool>& outcome_a, const std::vector<bool>& outcome_b,
                      const McNemarOptions& options = {});

}  // namespace codebias::stats
