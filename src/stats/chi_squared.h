// Pearson chi-squared tests on counts: independence in an r×c contingency table (BAD, seeds/003
// §5.2, tests JobTitle × EstimatedEthnicity this way) and goodness of fit of observed group counts
// to expected proportions (e.g. generated résumés per group against labour statistics).
//
// Variant (docs/statistics.md, "Chi-squared"): Pearson's X² = Σ (O − E)² / E, no Yates
// correction unless asked for (scipy's chi2_contingency applies it to 2×2 tables by default,
// R's chisq.test too); the p-value is the χ² upper tail, which needs expected counts of about 5
// or more (Cochran 1954), hence the low_expected_count flag.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace codebias::stats {

struct IndependenceOptions {
  // Yates's continuity correction (|O − E| − 1/2, floored at 0); applied only when dof = 1.
  bool yates_correction = false;
};

struct IndependenceResult {
  double statistic = 0;  // X²
  double dof = 0;        // (rows_used − 1)(columns_used − 1)
  double p_value = 1;
  double cramers_v = 0;  // √(X² / (N·(min(rows_used, columns_used) − 1))), in [0, 1]
  std::size_t rows_used = 0;     // rows with a non-zero total
  std::size_t columns_used = 0;  // columns with a non-zero total
  double total = 0;              // N
  // Expected counts E_ij = row_i · column_j / N for the rows and columns used, row-major.
  std::vector<std::vector<double>> expected;
  double min_expected = 0;
  bool low_expected_count = false;  // some E_ij < 5: the χ² p-value may be off
  bool yates_applied = false;
};

// counts[row][column], non-negative and finite (weighted counts allowed). All-zero rows and
// columns (a group that never occurs) are left out: they have no expected counts and carry no
// information about association. Throws std::invalid_argument for a ragged or negative table,
// or when fewer than two non-empty rows or columns remain.
IndependenceResult chi_squared_independence(const std::vector<std::vector<double>>& counts,
                                            const IndependenceOptions& options = {});

struct GoodnessOfFitResult {
  double statistic = 0;  // X²
  double dof = 0;        // categories − 1
  double p_value = 1;
  double total = 0;      // N
  std::vector<double> expected;  // N · proportion_i
  double min_expected = 0;
  bool low_expected_count = false;  // some expected count < 5
};

// observed[i] counts of category i; expected_proportions[i] > 0 its share under H0 (rescaled
// to sum to 1, so raw population counts work too). Throws std::invalid_argument for sizes that
// differ, fewer than two categories, negative or non-finite counts, a non-positive proportion,
// or no observations.
GoodnessOfFitResult chi_squared_goodness_of_fit(std::span<const double> observed,
                                                std::span<const double> expected_proportions);

}  // namespace codebias::stats
