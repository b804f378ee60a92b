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
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "stats/random.h"

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

// --- Monte-Carlo p-value under fixed margins ------------------------------------------------
// The alternative when expected counts are small (low_expected_count): the null distribution of
// X² is that of tables drawn uniformly among those with the observed row and column totals
// (Hope 1968; R's chisq.test(simulate.p.value = TRUE)). Each table is drawn cell by cell, every
// cell from its hypergeometric distribution given the margins still free (Patefield 1981, AS 159),
// and p = (1 + #{X²_sim ≥ X²_obs}) / (B + 1), which is never 0 and is a valid p-value for finite B.
// X²_sim is compared with X²_obs·(1 − 64ε) so that tables with the same statistic count as ties
// despite rounding (the same tolerance as R).

inline constexpr std::size_t kDefaultMonteCarloReplicates = 10000;
inline constexpr std::uint64_t kDefaultMonteCarloSeed = 20260101;

struct MonteCarloOptions {
  std::size_t replicates = kDefaultMonteCarloReplicates;  // B ≥ 1
  std::uint64_t seed = kDefaultMonteCarloSeed;
};

struct MonteCarloResult {
  double statistic = 0;  // X² of the observed table (no Yates correction)
  double p_value = 1;    // (1 + at_least_as_large) / (replicates + 1)
  std::size_t replicates = 0;
  std::size_t at_least_as_large = 0;
  std::uint64_t seed = 0;
};

// counts as for chi_squared_independence, but every cell a whole number (a simulated table is
// a table of counts). All-zero rows and columns are left out. Throws std::invalid_argument for
// a non-integer cell, a table chi_squared_independence refuses, or replicates 0.
MonteCarloResult chi_squared_monte_carlo(const std::vector<std::vector<double>>& counts,
                                         const MonteCarloOptions& options = {});

// One table drawn uniformly among the tables with these margins (the sums must agree).
// Throws std::invalid_argument when they do not.
std::vector<std::vector<std::int64_t>> random_table_with_margins(
    std::span<const std::int64_t> row_totals, std::span<const std::int64_t> column_totals,
    Xoshiro256StarStar& generator);

// --- Fisher's exact test for a 2×2 table ---------------------------------------------------
// Table [[a, b], [c, d]]; conditional on the margins, a is hypergeometric. The two-sided p-value
// sums the probabilities of the tables no more likely than the observed one (relative tolerance
// 1e-7, as R's fisher.test), the one-sided ones are the tails of a.
struct FisherExactResult {
  double p_two_sided = 1;
  double p_less = 1;     // P(A ≤ a): odds ratio < 1
  double p_greater = 1;  // P(A ≥ a): odds ratio > 1
  // ad / bc, the sample odds ratio (not R's conditional maximum-likelihood estimate); unset when
  // it is 0/0, +inf when only bc is 0.
  std::optional<double> sample_odds_ratio;
};

// Throws std::invalid_argument for a negative count.
FisherExactResult fisher_exact_2x2(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d);

}  // namespace codebias::stats
