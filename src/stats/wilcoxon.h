// Wilcoxon signed-rank test for paired samples (Wilcoxon 1945), the test ProbeDebias (seeds/001,
// §4.1.3, Table 3) uses to compare Reasoning and Vanilla runs prompt by prompt or model by model.
//
// Variant (docs/statistics.md, "Wilcoxon signed-rank"):
//   * Zero differences are dropped before ranking (Wilcoxon's method, scipy's default
//     zero_method="wilcox"); n_used counts the rest.
//   * Tied |differences| (exact equality) get mid-ranks.
//   * Exact p-value from the null distribution of W+ (enumerated by dynamic programming) when
//     n_used ≤ exact_max_n and there are no ties; otherwise the normal approximation with the tie
//     correction of the variance and, by default, a continuity correction of 1/2.
//   * Two-sided p = 2·min(P(W+ ≤ w), P(W+ ≥ w)), capped at 1 (scipy and R do the same).
#pragma once

#include <span>
#include <string_view>

#include "stats/alternative.h"

namespace codebias::stats {

enum class WilcoxonMethod {
  exact,           // null distribution enumerated
  normal,          // normal approximation
  no_differences,  // every difference was zero: nothing to test, p = 1
};

constexpr std::string_view to_string(WilcoxonMethod method) {
  switch (method) {
    case WilcoxonMethod::exact: return "exact";
    case WilcoxonMethod::normal: return "normal";
    case WilcoxonMethod::no_differences: return "no-differences";
  }
  return "unknown";
}

struct WilcoxonOptions {
  Alternative alternative = Alternative::two_sided;
  // Largest n_used for the exact distribution (ties force the normal approximation anyway).
  // scipy ≥ 1.9 uses 50, R uses 49 and older scipy 25; the cost is negligible up to 60.
  int exact_max_n = 25;
  // Moves |W+ − mean| toward the mean by 1/2 in the normal approximation (R's default; scipy's
  // `correction` defaults to false).
  bool continuity_correction = true;
};

struct WilcoxonResult {
  double w_plus = 0;   // sum of the ranks of positive differences
  double w_minus = 0;  // sum of the ranks of negative differences
  // The reported statistic, as scipy reports it: min(W+, W−) for two-sided, W+ otherwise.
  double statistic = 0;
  int n_used = 0;   // non-zero differences
  int n_zero = 0;   // zero differences dropped
  bool ties = false;  // some |differences| were tied
  // Standardised W+ ((W+ − mean ± 1/2) / sd, with tie correction); also filled for the exact
  // method, as an effect-size input (r = z / √n). 0 when there are no differences.
  double z = 0;
  double p_value = 1;
  WilcoxonMethod method = WilcoxonMethod::no_differences;
  Alternative alternative = Alternative::two_sided;
};

// The test on differences d_i = x_i − y_i. Throws std::invalid_argument for a non-finite value
// or exact_max_n outside [0, 60].
WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    const WilcoxonOptions& options = {});
// The test on pairs (x_i, y_i); "greater" means x tends to exceed y. Throws
// std::invalid_argument when the sizes differ.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                    const WilcoxonOptions& options = {});

}  // namespace codebias::stats
