// Distribution functions against published table values and exact closed forms.
#include "stats/distributions.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <gtest/gtest.h>

namespace codebias::stats {
namespace {

void expect_relative(double actual, double expected, double tolerance) {
  EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected))
      << "actual " << actual << " expected " << expected;
}

// NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.1 (cumulative standard normal) and
// the usual two-sided critical values, here to 15 digits.
TEST(StatsNormal, QuantileMatchesPublishedCriticalValues) {
  expect_relative(normal_quantile(0.975), 1.959963984540054, 1e-14);
  expect_relative(normal_quantile(0.95), 1.6448536269514722, 1e-14);
  expect_relative(normal_quantile(0.995), 2.5758293035489004, 1e-14);
  expect_relative(normal_quantile(0.025), -1.959963984540054, 1e-14);
  EXPECT_EQ(normal_quantile(0.5), 0.0);
  EXPECT_EQ(normal_quantile(0.0), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(normal_quantile(1.0), std::numeric_limits<double>::infinity());
}

TEST(StatsNormal, CdfMatchesPublishedTable) {
  EXPECT_NEAR(normal_cdf(1.96), 0.97500210485177952, 1e-15);
  EXPECT_NEAR(normal_cdf(0.0), 0.5, 0);
  EXPECT_NEAR(normal_cdf(-1.0), 0.15865525393145705, 1e-15);
  // The upper tail keeps relative precision far out: 1 − Φ(10) = 7.6198530241605e-24.
  expect_relative(normal_sf(10.0), 7.6198530241605261e-24, 1e-12);
}

TEST(StatsNormal, QuantileInvertsCdfDownToTinyTails) {
  for (double p : {1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.1, 0.3, 0.49, 0.51, 0.9, 0.999}) {
    const double x = normal_quantile(p);
    expect_relative(normal_cdf(x), p, 1e-13);
  }
}

TEST(StatsNormal, RejectsArgumentsOutsideTheDomain) {
  EXPECT_THROW(normal_quantile(-0.1), std::invalid_argument);
  EXPECT_THROW(normal_quantile(1.1), std::invalid_argument);
  EXPECT_THROW(normal_quantile(std::nan("")), std::invalid_argument);
  EXPECT_THROW(normal_cdf(std::nan("")), std::invalid_argument);
}

// Upper critical values of the chi-squared distribution, NIST/SEMATECH e-Handbook §1.3.6.7.4
// (6 decimals): each leaves exactly the tabulated tail probability above it.
TEST(StatsChiSquared, SurvivalAtPublishedCriticalValues) {
  struct Row {
    double x;
    double dof;
    double tail;
  };
  for (const Row& row : {Row{3.841459, 1, 0.05}, Row{5.991465, 2, 0.05}, Row{7.814728, 3, 0.05},
                         Row{9.487729, 4, 0.05}, Row{18.307038, 10, 0.05},
                         Row{43.772972, 30, 0.05}, Row{6.634897, 1, 0.01},
                         Row{15.086272, 5, 0.01}, Row{10.827566, 1, 0.001}}) {
    // Six printed decimals move the tail by at most density × 5e-7 < 1e-7.
    EXPECT_NEAR(chi_squared_sf(row.x, row.dof), row.tail, 1e-7) << "dof " << row.dof;
    EXPECT_NEAR(chi_squared_cdf(row.x, row.dof), 1 - row.tail, 1e-7) << "dof " << row.dof;
  }
}

// Closed forms: Q(1/2, x/2) = erfc(√(x/2)); for dof = 2m, sf = e^{−x/2} Σ_{j<m} (x/2)^j / j!;
// for dof = 3, sf = erfc(√(x/2)) + √(2x/π) e^{−x/2}. These cover the series (x < a + 1) and
// the continued fraction, and tails down to 1e-100.
TEST(StatsChiSquared, MatchesClosedFormsToTenDigitsAndBeyond) {
  for (double x : {0.01, 0.5, 1.0, 2.9, 3.1, 10.0, 50.0, 200.0, 450.0}) {
    expect_relative(chi_squared_sf(x, 1), std::erfc(std::sqrt(x / 2)), 1e-12);
    expect_relative(chi_squared_sf(x, 2), std::exp(-x / 2), 1e-12);
    expect_relative(chi_squared_sf(x, 3),
                    std::erfc(std::sqrt(x / 2)) + std::sqrt(2 * x / std::numbers::pi) *
                                                      std::exp(-x / 2),
                    1e-12);
    for (int m : {2, 5, 20}) {
      double term = 1;
      double sum = 1;
      for (int j = 1; j < m; ++j) {
        term *= (x / 2) / j;
        sum += term;
      }
      expect_relative(chi_squared_sf(x, 2.0 * m), std::exp(-x / 2) * sum, 1e-12);
    }
  }
}

TEST(StatsChiSquared, EdgesAndDomain) {
  EXPECT_EQ(chi_squared_sf(0, 3), 1.0);
  EXPECT_EQ(chi_squared_sf(std::numeric_limits<double>::infinity(), 3), 0.0);
  EXPECT_EQ(regularized_gamma_lower(2.5, 0), 0.0);
  EXPECT_THROW(chi_squared_sf(-1, 3), std::invalid_argument);
  EXPECT_THROW(chi_squared_sf(1, 0), std::invalid_argument);
  EXPECT_THROW(chi_squared_sf(std::nan(""), 1), std::invalid_argument);
  EXPECT_THROW(regularized_gamma_upper(-1, 1), std::invalid_argument);
}

TEST(StatsChiSquared, LowerAndUpperGammaAddToOne) {
  for (double a : {0.5, 1.0, 3.7, 25.0}) {
    for (double x : {0.1, 1.0, a, a + 1, 2 * a + 5}) {
      EXPECT_NEAR(regularized_gamma_lower(a, x) + regularized_gamma_upper(a, x), 1.0, 1e-14);
    }
  }
}

// Hand-computed: Bin(10, 1/2): P(X ≤ 2) = (1 + 10 + 45) / 1024; Bin(5, 0.3): P(X ≤ 1) =
// 0.7⁵ + 5·0.3·0.7⁴ = 0.52822.
TEST(StatsBinomial, TailsMatchHandComputedSums) {
  EXPECT_NEAR(binomial_tail_at_most(2, 10, 0.5), 56.0 / 1024, 1e-15);
  EXPECT_NEAR(binomial_tail_at_least(8, 10, 0.5), 56.0 / 1024, 1e-15);
  EXPECT_NEAR(binomial_tail_at_most(1, 5, 0.3), 0.52822, 1e-14);
  EXPECT_NEAR(binomial_tail_at_least(2, 5, 0.3), 1 - 0.52822, 1e-14);
  EXPECT_EQ(binomial_tail_at_most(-1, 5, 0.3), 0.0);
  EXPECT_EQ(binomial_tail_at_most(5, 5, 0.3), 1.0);
  EXPECT_EQ(binomial_tail_at_least(0, 5, 0.3), 1.0);
  EXPECT_EQ(binomial_tail_at_least(6, 5, 0.3), 0.0);
  EXPECT_EQ(binomial_tail_at_most(0, 4, 0.0), 1.0);
  EXPECT_EQ(binomial_tail_at_least(4, 4, 1.0), 1.0);
}

// A tail far below 1e-16 must keep its relative precision: P(X ≤ 1) for Bin(100, 0.99) is
// 0.01^100 + 100·0.99·0.01^99 = 1e-200 + 99e-198 = 9.901e-197.
TEST(StatsBinomial, TinyTailsKeepRelativePrecision) {
  expect_relative(binomial_tail_at_most(1, 100, 0.99), 9.901e-197, 1e-10);
}

TEST(StatsBinomial, RejectsBadParameters) {
  EXPECT_THROW(binomial_tail_at_most(1, -1, 0.5), std::invalid_argument);
  EXPECT_THROW(binomial_tail_at_least(1, 5, 1.5), std::invalid_argument);
  EXPECT_THROW(binomial_tail_at_least(1, 5, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
