// Pearson chi-squared tests against published tables.
#include "stats/chi_squared.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/distributions.h"

namespace codebias::stats {
namespace {

// SciPy reference, scipy.stats.chi2_contingency, "Examples": a 2×3 table. Published:
// statistic 2.7777777777777777, p = 0.24935220877729619, dof 2, expected [[12, 12, 16],
// [18, 18, 24]]. (dof 2: p = e^{−X²/2} exactly.)
TEST(StatsChiSquared, ScipyContingencyExample) {
  const IndependenceResult result = chi_squared_independence({{10, 10, 20}, {20, 20, 20}});
  EXPECT_NEAR(result.statistic, 2.7777777777777777, 1e-13);
  EXPECT_NEAR(result.p_value, 0.24935220877729619, 1e-13);
  EXPECT_EQ(result.dof, 2);
  const std::vector<std::vector<double>> expected = {{12, 12, 16}, {18, 18, 24}};
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(result.expected[i][j], expected[i][j]);
  }
  EXPECT_DOUBLE_EQ(result.min_expected, 12);
  EXPECT_FALSE(result.low_expected_count);
  EXPECT_EQ(result.total, 100);
  // Cramér's V = √(2.7778 / (100·1)).
  EXPECT_NEAR(result.cramers_v, std::sqrt(2.7777777777777777 / 100), 1e-12);
}

// Agresti, An Introduction to Categorical Data Analysis (2nd ed., 2007), §2.4, Table 2.5:
// party identification by gender (GSS). Females: Democrat 762, Independent 327, Republican
// 468; males 484, 239, 477. Published: X² = 30.1, df = 2, P-value < 0.0001 (30.0702 by hand).
TEST(StatsChiSquared, AgrestiPartyIdentificationByGender) {
  const IndependenceResult result =
      chi_squared_independence({{762, 327, 468}, {484, 239, 477}});
  EXPECT_NEAR(result.statistic, 30.1, 0.05);
  EXPECT_NEAR(result.statistic, 30.070149, 1e-5);
  EXPECT_EQ(result.dof, 2);
  EXPECT_LT(result.p_value, 0.0001);
  EXPECT_NEAR(result.p_value, std::exp(-result.statistic / 2), 1e-18);
}

// Hand-computed 2×2: [[10, 20], [20, 10]], every expected count 15, |O − E| = 5.
// Pearson: 4·25/15 = 6.6667, V = √(6.6667/60) = 1/3. Yates: 4·4.5²/15 = 5.4.
TEST(StatsChiSquared, TwoByTwoWithAndWithoutYates) {
  const std::vector<std::vector<double>> table = {{10, 20}, {20, 10}};
  const IndependenceResult pearson = chi_squared_independence(table);
  EXPECT_NEAR(pearson.statistic, 100.0 / 15, 1e-12);
  EXPECT_NEAR(pearson.cramers_v, 1.0 / 3, 1e-12);
  EXPECT_FALSE(pearson.yates_applied);
  const IndependenceResult yates = chi_squared_independence(table, {.yates_correction = true});
  EXPECT_TRUE(yates.yates_applied);
  EXPECT_NEAR(yates.statistic, 5.4, 1e-12);
  EXPECT_NEAR(yates.p_value, std::erfc(std::sqrt(5.4 / 2)), 1e-15);
  // Yates applies to 1 dof only.
  EXPECT_FALSE(
      chi_squared_independence({{10, 10, 20}, {20, 20, 20}}, {.yates_correction = true})
          .yates_applied);
}

TEST(StatsChiSquared, EmptyRowsAndColumnsAreLeftOut) {
  const IndependenceResult with_empty =
      chi_squared_independence({{10, 0, 10, 20}, {0, 0, 0, 0}, {20, 0, 20, 20}});
  EXPECT_EQ(with_empty.rows_used, 2u);
  EXPECT_EQ(with_empty.columns_used, 3u);
  EXPECT_EQ(with_empty.dof, 2);
  EXPECT_NEAR(with_empty.statistic, 2.7777777777777777, 1e-13);
}

TEST(StatsChiSquared, FlagsExpectedCountsBelowFive) {
  const IndependenceResult result = chi_squared_independence({{1, 4}, {4, 1}});
  EXPECT_TRUE(result.low_expected_count);
  EXPECT_DOUBLE_EQ(result.min_expected, 2.5);
}

TEST(StatsChiSquared, IndependenceRejectsBadTables) {
  EXPECT_THROW(chi_squared_independence({}), std::invalid_argument);
  EXPECT_THROW(chi_squared_independence({{1, 2}, {3}}), std::invalid_argument);
  EXPECT_THROW(chi_squared_independence({{1, -2}, {3, 4}}), std::invalid_argument);
  EXPECT_THROW(chi_squared_independence({{1, NAN}, {3, 4}}), std::invalid_argument);
  EXPECT_THROW(chi_squared_independence({{1, 2}}), std::invalid_argument);
  EXPECT_THROW(chi_squared_independence({{1, 0}, {3, 0}}), std::invalid_argument);
}

// BAD (seeds/003, §5.2) reports X² = 72.3, p = 0.00031 (JobTitle × EstimatedEthnicity) and
// X² = 58.96, p = 1.829e-05 (JobArea × EstimatedEthnicity) without the degrees of freedom; the
// χ² tail reproduces both with dof 36 and 21, a check of the survival function far out.
TEST(StatsChiSquared, ReproducesBadReportedPValues) {
  EXPECT_NEAR(chi_squared_sf(72.3, 36), 0.00031, 5e-6);
  EXPECT_NEAR(chi_squared_sf(58.96, 21), 1.829e-05, 1e-7);
}

// Mendel's dihybrid cross (1866): 315 round-yellow, 108 round-green, 101 wrinkled-yellow,
// 32 wrinkled-green against 9:3:3:1, the classic textbook goodness-of-fit example: X² = 0.470,
// df = 3, P ≈ 0.925.
TEST(StatsChiSquared, MendelPeasGoodnessOfFit) {
  const std::vector<double> observed = {315, 108, 101, 32};
  const std::vector<double> ratio = {9, 3, 3, 1};
  const GoodnessOfFitResult result = chi_squared_goodness_of_fit(observed, ratio);
  EXPECT_NEAR(result.statistic, 0.470024, 1e-6);
  EXPECT_EQ(result.dof, 3);
  EXPECT_NEAR(result.p_value, 0.925, 0.0005);
  EXPECT_DOUBLE_EQ(result.expected[0], 312.75);
  EXPECT_DOUBLE_EQ(result.expected[3], 34.75);
  EXPECT_FALSE(result.low_expected_count);
}

TEST(StatsChiSquared, GoodnessOfFitRejectsBadInput) {
  const std::vector<double> two = {1, 2};
  const std::vector<double> three = {1, 2, 3};
  const std::vector<double> one = {5};
  const std::vector<double> zeros = {0, 0};
  const std::vector<double> with_zero_share = {0.5, 0};
  EXPECT_THROW(chi_squared_goodness_of_fit(two, three), std::invalid_argument);
  EXPECT_THROW(chi_squared_goodness_of_fit(one, one), std::invalid_argument);
  EXPECT_THROW(chi_squared_goodness_of_fit(zeros, two), std::invalid_argument);
  EXPECT_THROW(chi_squared_goodness_of_fit(two, with_zero_share), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
