// The alternatives to the χ² p-value when expected counts are small: the Monte-Carlo p-value
// under fixed margins and Fisher's exact test; and the χ² tail at the degrees of freedom of the
// BAD paper's JobTitle × EstimatedEthnicity test (36).
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/chi_squared.h"
#include "stats/distributions.h"
#include "stats/random.h"

namespace codebias::stats {
namespace {

// R, ?chisq.test, first example (Agresti 2007, p. 39, party identification by gender):
// M <- as.table(rbind(c(762, 327, 468), c(484, 239, 477))); chisq.test(M) prints
// X-squared = 30.07, df = 2, p-value = 2.954e-07. Cramér's V = √(30.0701 / 2757).
TEST(StatsChiSquaredPublished, RChisqTestPartyIdentification) {
  const IndependenceResult result = chi_squared_independence({{762, 327, 468}, {484, 239, 477}});
  EXPECT_NEAR(result.statistic, 30.07, 0.005);
  EXPECT_EQ(result.dof, 2);
  EXPECT_NEAR(result.p_value, 2.954e-07, 0.0005e-07);
  EXPECT_EQ(result.total, 2757);
  EXPECT_NEAR(result.cramers_v, std::sqrt(30.0701 / 2757), 1e-5);
  EXPECT_NEAR(result.cramers_v, 0.1044, 5e-5);
  // Every expected count is far above 5 (smallest: 1200·566/2757 = 246.4).
  EXPECT_FALSE(result.low_expected_count);
  EXPECT_NEAR(result.min_expected, 1200.0 * 566 / 2757, 1e-9);
}

// Wikipedia, "Chi-squared test", example (650 residents of four neighbourhoods A–D by
// occupation): white collar 90 60 104 95, blue collar 30 50 51 20, no collar 30 40 45 35.
// Published: X² ≈ 24.6 with (3 − 1)(4 − 1) = 6 degrees of freedom, p ≈ 0.0004.
TEST(StatsChiSquaredPublished, WikipediaNeighbourhoodsByOccupation) {
  const IndependenceResult result =
      chi_squared_independence({{90, 60, 104, 95}, {30, 50, 51, 20}, {30, 40, 45, 35}});
  EXPECT_NEAR(result.statistic, 24.6, 0.05);
  EXPECT_EQ(result.dof, 6);
  EXPECT_NEAR(result.p_value, 0.0004, 0.00005);
  // V = √(X² / (650 · 2)).
  EXPECT_NEAR(result.cramers_v, std::sqrt(result.statistic / 1300), 1e-12);
}

// Upper critical values at 36 degrees of freedom, NIST/SEMATECH e-Handbook §1.3.6.7.4 (three
// decimals): 47.212 (0.10), 50.998 (0.05), 54.437 (0.025), 58.619 (0.01), 67.985 (0.001).
// Three printed decimals move the tail by at most density × 5e-4 < 1e-5.
TEST(StatsChiSquaredPublished, TailAtThirtySixDegreesOfFreedom) {
  EXPECT_NEAR(chi_squared_sf(47.212, 36), 0.10, 1e-5);
  EXPECT_NEAR(chi_squared_sf(50.998, 36), 0.05, 1e-5);
  EXPECT_NEAR(chi_squared_sf(54.437, 36), 0.025, 1e-5);
  EXPECT_NEAR(chi_squared_sf(58.619, 36), 0.01, 1e-5);
  EXPECT_NEAR(chi_squared_sf(67.985, 36), 0.001, 1e-6);
}

// R, ?fisher.test, "Tea tasting" (Agresti 1990, p. 61): matrix(c(3, 1, 1, 3)), the lady's
// guesses against the truth. fisher.test(TeaTasting, alternative = "greater") prints
// p-value = 0.2429; the two-sided p is 0.4857.
TEST(StatsFisherExact, RTeaTasting) {
  const FisherExactResult result = fisher_exact_2x2(3, 1, 1, 3);
  EXPECT_NEAR(result.p_greater, 0.2429, 5e-5);
  EXPECT_NEAR(result.p_two_sided, 0.4857, 5e-5);
  // Hand: P(a = 3) = 16/70, P(a = 4) = 1/70, so P(A ≥ 3) = 17/70 and P(A ≤ 3) = 69/70.
  EXPECT_NEAR(result.p_greater, 17.0 / 70, 1e-12);
  EXPECT_NEAR(result.p_less, 69.0 / 70, 1e-12);
  ASSERT_TRUE(result.sample_odds_ratio.has_value());
  EXPECT_DOUBLE_EQ(*result.sample_odds_ratio, 9);
}

// R, ?fisher.test, "Convictions" (Fisher 1962): Convictions <- matrix(c(2, 10, 15, 3), nrow = 2)
// (dizygotic / monozygotic twins of criminals, convicted or not); fisher.test(Convictions,
// alternative = "less") prints p-value = 0.0004652.
TEST(StatsFisherExact, RConvictions) {
  // Column-major in R: [[2, 15], [10, 3]].
  const FisherExactResult result = fisher_exact_2x2(2, 15, 10, 3);
  EXPECT_NEAR(result.p_less, 0.0004652, 5e-8);
  EXPECT_LE(result.p_two_sided, 2 * result.p_less + 1e-12);
  EXPECT_GE(result.p_two_sided, result.p_less);
}

TEST(StatsFisherExact, DegenerateAndInvalidTables) {
  // One margin zero: a single table is possible, every p is 1, the odds ratio is 0/0.
  const FisherExactResult empty_row = fisher_exact_2x2(0, 0, 4, 5);
  EXPECT_DOUBLE_EQ(empty_row.p_two_sided, 1);
  EXPECT_FALSE(empty_row.sample_odds_ratio.has_value());
  EXPECT_TRUE(std::isinf(*fisher_exact_2x2(3, 0, 0, 3).sample_odds_ratio));
  EXPECT_THROW(fisher_exact_2x2(-1, 2, 3, 4), std::invalid_argument);
}

TEST(StatsRandomTable, KeepsTheMarginsAndRejectsMismatchedOnes) {
  Xoshiro256StarStar generator(7);
  const std::vector<std::int64_t> rows = {5, 0, 12, 3};
  const std::vector<std::int64_t> columns = {7, 9, 4};
  for (int draw = 0; draw < 200; ++draw) {
    const auto table = random_table_with_margins(rows, columns, generator);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(std::accumulate(table[i].begin(), table[i].end(), std::int64_t{0}), rows[i]);
    }
    for (std::size_t j = 0; j < columns.size(); ++j) {
      std::int64_t sum = 0;
      for (const auto& row : table) {
        EXPECT_GE(row[j], 0);
        sum += row[j];
      }
      EXPECT_EQ(sum, columns[j]);
    }
  }
  const std::vector<std::int64_t> short_columns = {7, 9};
  EXPECT_THROW(random_table_with_margins(rows, short_columns, generator), std::invalid_argument);
}

// Under fixed margins the first cell is hypergeometric: rows (6, 14), columns (8, 12), N = 20
// gives mean 6·8/20 = 2.4 and variance 6·(8/20)(12/20)(14/19) = 1.06105. 20,000 draws put the
// sample mean within 4 standard errors (4·√(1.061/20000) = 0.029) of 2.4.
TEST(StatsRandomTable, FirstCellIsHypergeometric) {
  Xoshiro256StarStar generator(11);
  const std::vector<std::int64_t> rows = {6, 14};
  const std::vector<std::int64_t> columns = {8, 12};
  const int draws = 20000;
  double sum = 0, sum_squares = 0;
  for (int d = 0; d < draws; ++d) {
    const double cell = static_cast<double>(random_table_with_margins(rows, columns, generator)[0][0]);
    sum += cell;
    sum_squares += cell * cell;
  }
  const double mean = sum / draws;
  const double variance = sum_squares / draws - mean * mean;
  const double expected_variance = 6.0 * (8.0 / 20) * (12.0 / 20) * (14.0 / 19);
  EXPECT_NEAR(mean, 2.4, 4 * std::sqrt(expected_variance / draws));
  EXPECT_NEAR(variance, expected_variance, 0.05);
}

// For a 2×2 table X² grows with |a − E[a]|, so P(X² ≥ X²_obs) under fixed margins is the
// hypergeometric mass of the tables at least as far from E[a] as the observed one. Table
// [[1, 7], [6, 2]] (margins 8, 8 and 7, 9; E[a] = 3.5): that mass is P(a ≤ 1) + P(a ≥ 6) =
// 2·(C(9,8) + 7·C(9,7))/C(16,8) = 2·261/12870 = 0.040559. The Monte-Carlo p with B = 10,000
// lies within 4 binomial SEs (0.0079) of it.
TEST(StatsChiSquaredMonteCarlo, MatchesTheExactNullDistributionOfATwoByTwo) {
  const std::vector<std::vector<double>> table = {{1, 7}, {6, 2}};
  const double exact = 2.0 * 261 / 12870;
  const MonteCarloResult result = chi_squared_monte_carlo(table, {10000, 3});
  EXPECT_EQ(result.replicates, 10000u);
  EXPECT_NEAR(result.p_value, exact, 4 * std::sqrt(exact * (1 - exact) / 10000));
  EXPECT_DOUBLE_EQ(result.p_value, (1.0 + static_cast<double>(result.at_least_as_large)) / 10001);
  EXPECT_NEAR(result.statistic, chi_squared_independence(table).statistic, 1e-12);
}

// A 2×3 table, the SciPy chi2_contingency example [[10, 10, 20], [20, 20, 20]]: the exact null
// distribution under fixed margins (row 1 = 40 of 100 drawn from columns of 30, 30, 40) is the
// multivariate hypergeometric C(30, a)·C(30, b)·C(40, c) / C(100, 40), summed here over every
// table with X² ≥ X²_obs. It is 0.2777, above the χ² approximation's 0.2494 because tables tie at
// the observed value (columns 1 and 2 have equal totals). The Monte-Carlo p lies within 4 SEs.
TEST(StatsChiSquaredMonteCarlo, MatchesAnEnumeratedTwoByThree) {
  const std::vector<std::vector<double>> observed = {{10, 10, 20}, {20, 20, 20}};
  const double statistic = chi_squared_independence(observed).statistic;
  auto log_choose = [](int n, int k) {
    return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
  };
  double exact = 0;
  for (int a = 0; a <= 30; ++a) {
    for (int b = 0; b <= 30 && a + b <= 40; ++b) {
      const int c = 40 - a - b;
      if (c > 40) continue;
      const std::vector<std::vector<double>> table = {{double(a), double(b), double(c)},
                                                      {double(30 - a), double(30 - b), double(40 - c)}};
      double x2 = 0;
      const double expected[2][3] = {{12, 12, 16}, {18, 18, 24}};
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) x2 += (table[i][j] - expected[i][j]) * (table[i][j] - expected[i][j]) / expected[i][j];
      }
      if (x2 >= statistic * (1 - 1e-12)) {
        exact += std::exp(log_choose(30, a) + log_choose(30, b) + log_choose(40, c) - log_choose(100, 40));
      }
    }
  }
  EXPECT_NEAR(exact, 0.2777, 0.001);
  const MonteCarloResult result = chi_squared_monte_carlo(observed, {10000, 5});
  EXPECT_NEAR(result.p_value, exact, 4 * std::sqrt(exact * (1 - exact) / 10000));
}

// An extreme table: no simulated table reaches X² = 30.07 (p ≈ 3e-7), so p = 1/(B + 1), as R's
// chisq.test(M, simulate.p.value = TRUE, B = 2000) prints for the party-identification table
// (p-value = 0.0004998).
TEST(StatsChiSquaredMonteCarlo, ExtremeTableGivesOneOverBPlusOne) {
  const MonteCarloResult result = chi_squared_monte_carlo({{762, 327, 468}, {484, 239, 477}}, {2000, 1});
  EXPECT_EQ(result.at_least_as_large, 0u);
  EXPECT_NEAR(result.p_value, 0.0004998, 5e-8);
}

TEST(StatsChiSquaredMonteCarlo, SeededAndValidated) {
  const std::vector<std::vector<double>> table = {{3, 1, 0}, {1, 4, 2}, {0, 2, 5}};
  const MonteCarloResult a = chi_squared_monte_carlo(table, {2000, 42});
  const MonteCarloResult b = chi_squared_monte_carlo(table, {2000, 42});
  EXPECT_EQ(a.at_least_as_large, b.at_least_as_large);
  EXPECT_EQ(a.seed, 42u);
  EXPECT_THROW(chi_squared_monte_carlo({{1.5, 2}, {3, 4}}), std::invalid_argument);
  EXPECT_THROW(chi_squared_monte_carlo(table, {0, 1}), std::invalid_argument);
  EXPECT_THROW(chi_squared_monte_carlo({{1, 2}}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
