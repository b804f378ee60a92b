// Wilcoxon signed-rank test against published examples and hand-computed cases.
#include "stats/wilcoxon.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/distributions.h"

namespace codebias::stats {
namespace {

// SciPy reference, scipy.stats.wilcoxon, "Examples": differences in height of cross- and
// self-fertilised corn (Darwin's data as in Fisher's Design of Experiments).
const std::vector<double> kScipyDifferences = {6,  8,  14, 16, 23,  24, 28, 29,
                                               41, -48, 49, 56, 60, -67, 75};

// Published: `wilcoxon(d)` gives statistic 24 and p = 0.041259765625 (exact, two-sided).
TEST(StatsWilcoxon, ScipyDocumentationExampleExactTwoSided) {
  const WilcoxonResult result = wilcoxon_signed_rank(kScipyDifferences);
  EXPECT_EQ(result.method, WilcoxonMethod::exact);
  EXPECT_EQ(result.n_used, 15);
  EXPECT_EQ(result.n_zero, 0);
  EXPECT_FALSE(result.ties);
  // |−48| has rank 10 and |−67| rank 14: W− = 24, W+ = 120 − 24 = 96.
  EXPECT_EQ(result.w_minus, 24);
  EXPECT_EQ(result.w_plus, 96);
  EXPECT_EQ(result.statistic, 24);
  EXPECT_DOUBLE_EQ(result.p_value, 0.041259765625);
}

// Published: `wilcoxon(d, alternative='greater')` gives statistic 96 and p = 0.020629882812.
TEST(StatsWilcoxon, ScipyDocumentationExampleExactGreater) {
  const WilcoxonResult result =
      wilcoxon_signed_rank(kScipyDifferences, {.alternative = Alternative::greater});
  EXPECT_EQ(result.statistic, 96);
  EXPECT_NEAR(result.p_value, 0.020629882812, 1e-12);
  // "less" on the negated differences is the same test.
  std::vector<double> negated;
  for (double d : kScipyDifferences) negated.push_back(-d);
  const WilcoxonResult mirrored =
      wilcoxon_signed_rank(negated, {.alternative = Alternative::less});
  EXPECT_DOUBLE_EQ(mirrored.p_value, result.p_value);
}

// Normal approximation of the same data without continuity correction, as scipy's
// `wilcoxon(d, method='approx')` (published p = 0.04088813291185591). By hand: mean
// 15·16/4 = 60, variance 15·16·31/24 = 310, z = (96 − 60)/√310 = 2.04467, p = 2·(1 − Φ(z)).
TEST(StatsWilcoxon, NormalApproximationWithoutCorrectionMatchesScipy) {
  const WilcoxonResult result = wilcoxon_signed_rank(
      kScipyDifferences, {.exact_max_n = 0, .continuity_correction = false});
  EXPECT_EQ(result.method, WilcoxonMethod::normal);
  EXPECT_NEAR(result.z, 36 / std::sqrt(310.0), 1e-12);
  EXPECT_NEAR(result.p_value, 0.04088813291185591, 1e-12);
}

// R documentation, ?wilcox.test, Hollander & Wolfe (1973) p. 29: Hamilton depression scale at
// the first (x) and second (y) visit after a tranquilizer therapy began, one-sided "greater":
// published V = 40, p-value = 0.01953.
TEST(StatsWilcoxon, HollanderWolfeDepressionExampleFromR) {
  const std::vector<double> x = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
  const std::vector<double> y = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
  const WilcoxonResult result =
      wilcoxon_signed_rank(x, y, {.alternative = Alternative::greater});
  EXPECT_EQ(result.method, WilcoxonMethod::exact);
  EXPECT_EQ(result.w_plus, 40);
  // Exactly 10 of the 2⁹ sign patterns reach W+ ≥ 40.
  EXPECT_DOUBLE_EQ(result.p_value, 10.0 / 512);
  EXPECT_NEAR(result.p_value, 0.01953, 5e-6);
}

// ProbeDebias (seeds/001) Table 3 compares 9 models and reports p = 0.0117 (BR) and 0.0195 (FS):
// exactly the two-sided exact p-values 2·3/512 and 2·5/512 of W = 2 and W = 3 for n = 9
// (P(W+ ≤ 2) = 3/512: the empty set, {1}, {2}; P(W+ ≤ 3) adds {3} and {1, 2}). This is the
// variant this library uses by default.
TEST(StatsWilcoxon, ReproducesTheExactPValuesProbeDebiasReports) {
  // Rank 2 negative, the rest positive: W− = 2.
  const std::vector<double> w_two = {0.1, -0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  const WilcoxonResult br = wilcoxon_signed_rank(w_two);
  EXPECT_EQ(br.statistic, 2);
  EXPECT_DOUBLE_EQ(br.p_value, 6.0 / 512);
  EXPECT_NEAR(br.p_value, 0.0117, 5e-5);
  // Rank 3 negative: W− = 3.
  const std::vector<double> w_three = {0.1, 0.2, -0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  const WilcoxonResult fs = wilcoxon_signed_rank(w_three);
  EXPECT_EQ(fs.statistic, 3);
  EXPECT_DOUBLE_EQ(fs.p_value, 10.0 / 512);
  EXPECT_NEAR(fs.p_value, 0.0195, 5e-5);
}

// Hand-computed: n = 3, W+ takes 0..6 with counts 1,1,1,2,1,1,1 over 8 sign patterns.
TEST(StatsWilcoxon, ExactNullDistributionForThreePairs) {
  const std::vector<double> all_negative = {-1, -2, -3};
  EXPECT_DOUBLE_EQ(wilcoxon_signed_rank(all_negative).p_value, 2.0 / 8);
  EXPECT_DOUBLE_EQ(
      wilcoxon_signed_rank(all_negative, {.alternative = Alternative::less}).p_value, 1.0 / 8);
  EXPECT_DOUBLE_EQ(
      wilcoxon_signed_rank(all_negative, {.alternative = Alternative::greater}).p_value, 1.0);
  // W+ = 3 sits in the middle: both tails are 5/8, doubled and capped at 1.
  const std::vector<double> middle = {1, 2, -3};
  EXPECT_EQ(wilcoxon_signed_rank(middle).p_value, 1.0);
}

// Hand-computed with ties: d = 1, 1, −2, 3, 3, 3, 4 → mid-ranks 1.5, 1.5, 3, 5, 5, 5, 7, so
// W− = 3, W+ = 25. n = 7: mean 14, variance 7·8·15/24 − (2³−2 + 3³−3)/48 = 35 − 0.625 = 34.375.
// Continuity-corrected z = (25 − 14 − 0.5)/√34.375 = 1.79089, two-sided p = 0.073312.
TEST(StatsWilcoxon, TiesUseMidRanksAndTheCorrectedNormalApproximation) {
  const std::vector<double> d = {1, 1, -2, 3, 3, 3, 4};
  const WilcoxonResult result = wilcoxon_signed_rank(d);
  EXPECT_EQ(result.method, WilcoxonMethod::normal);
  EXPECT_TRUE(result.ties);
  EXPECT_EQ(result.w_plus, 25);
  EXPECT_EQ(result.w_minus, 3);
  EXPECT_NEAR(result.z, 10.5 / std::sqrt(34.375), 1e-12);
  EXPECT_NEAR(result.p_value, 2 * normal_sf(10.5 / std::sqrt(34.375)), 1e-15);
  EXPECT_NEAR(result.p_value, 0.073312, 1e-6);
}

TEST(StatsWilcoxon, ZeroDifferencesAreDropped) {
  std::vector<double> with_zeros = kScipyDifferences;
  with_zeros.insert(with_zeros.begin(), 0.0);
  with_zeros.push_back(0.0);
  const WilcoxonResult result = wilcoxon_signed_rank(with_zeros);
  EXPECT_EQ(result.n_zero, 2);
  EXPECT_EQ(result.n_used, 15);
  EXPECT_EQ(result.statistic, 24);
  EXPECT_DOUBLE_EQ(result.p_value, 0.041259765625);
}

TEST(StatsWilcoxon, AllZeroDifferencesMeanNothingToTest) {
  const std::vector<double> x = {0.5, 0.25, 1};
  const WilcoxonResult result = wilcoxon_signed_rank(x, x);
  EXPECT_EQ(result.method, WilcoxonMethod::no_differences);
  EXPECT_EQ(result.n_used, 0);
  EXPECT_EQ(result.n_zero, 3);
  EXPECT_EQ(result.p_value, 1.0);
  const WilcoxonResult empty = wilcoxon_signed_rank(std::vector<double>{});
  EXPECT_EQ(empty.method, WilcoxonMethod::no_differences);
}

TEST(StatsWilcoxon, MoreThanTheExactLimitUsesTheNormalApproximation) {
  std::vector<double> d;
  for (int i = 1; i <= 26; ++i) d.push_back(i % 3 == 0 ? -i : i);
  EXPECT_EQ(wilcoxon_signed_rank(d).method, WilcoxonMethod::normal);
  EXPECT_EQ(wilcoxon_signed_rank(d, {.exact_max_n = 26}).method, WilcoxonMethod::exact);
}

// With no ties the exact and the continuity-corrected normal p-values should be close for
// moderate n; a broken DP or variance would drift apart.
TEST(StatsWilcoxon, ExactAndNormalAgreeForModerateN) {
  std::vector<double> d;
  for (int i = 1; i <= 40; ++i) d.push_back(i % 3 == 0 ? -i : i);
  const double exact = wilcoxon_signed_rank(d, {.exact_max_n = 40}).p_value;
  const double normal = wilcoxon_signed_rank(d, {.exact_max_n = 0}).p_value;
  EXPECT_NEAR(exact, normal, 0.05 * exact);
}

TEST(StatsWilcoxon, RejectsBadInput) {
  const std::vector<double> three = {1, 2, 3};
  const std::vector<double> two = {1, 2};
  EXPECT_THROW(wilcoxon_signed_rank(three, two), std::invalid_argument);
  const std::vector<double> with_nan = {1, std::nan(""), 3};
  EXPECT_THROW(wilcoxon_signed_rank(with_nan), std::invalid_argument);
  EXPECT_THROW(wilcoxon_signed_rank(three, {.exact_max_n = 61}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
