// McNemar's test against Agresti's published example and hand-computed exact cases.
#include "stats/mcnemar.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::stats {
namespace {

// Agresti, An Introduction to Categorical Data Analysis (2nd ed., 2007), §8.1, Table 8.1:
// approval of the President's performance in two surveys of the same 1600 people; discordant
// counts 150 (approve → disapprove) and 86. Published: z = (86 − 150)/√236 = −4.17,
// z² = 17.36 (df 1), P < 0.001.
TEST(StatsMcNemar, AgrestiPresidentialApprovalWithoutCorrection) {
  const McNemarResult result = mcnemar(150, 86, {.continuity_correction = false});
  EXPECT_EQ(result.method, McNemarMethod::chi_squared);
  EXPECT_NEAR(result.statistic, 17.36, 0.005);
  EXPECT_DOUBLE_EQ(result.statistic, 64.0 * 64.0 / 236.0);
  EXPECT_LT(result.p_value, 0.001);
  // χ²(1) tail = erfc(√(x/2)).
  EXPECT_NEAR(result.p_value, std::erfc(std::sqrt(result.statistic / 2)), 1e-15);
}

// Same table with Edwards's continuity correction (the default): (64 − 1)²/236 = 16.8178.
TEST(StatsMcNemar, AgrestiPresidentialApprovalWithCorrection) {
  const McNemarResult result = mcnemar(150, 86);
  EXPECT_DOUBLE_EQ(result.statistic, 63.0 * 63.0 / 236.0);
  EXPECT_NEAR(result.p_value, 4.1146e-05, 1e-8);
}

// Hand-computed exact two-sided p = 2·P(X ≤ min(b, c)), X ~ Bin(b + c, 1/2):
// b = 1, c = 5: 2·(1 + 6)/64 = 0.21875; b = 0, c = 5: 2/32 = 0.0625; b = c = 3: capped at 1.
TEST(StatsMcNemar, ExactBinomialForFewDiscordantPairs) {
  const McNemarResult one_five = mcnemar(1, 5);
  EXPECT_EQ(one_five.method, McNemarMethod::exact);
  EXPECT_DOUBLE_EQ(one_five.p_value, 14.0 / 64);
  EXPECT_DOUBLE_EQ(mcnemar(5, 1).p_value, 14.0 / 64);
  EXPECT_DOUBLE_EQ(mcnemar(0, 5).p_value, 2.0 / 32);
  EXPECT_EQ(mcnemar(3, 3).p_value, 1.0);
}

TEST(StatsMcNemar, ThresholdBetweenExactAndChiSquared) {
  EXPECT_EQ(mcnemar(10, 14).method, McNemarMethod::exact);        // b + c = 24
  EXPECT_EQ(mcnemar(10, 15).method, McNemarMethod::chi_squared);  // b + c = 25
  EXPECT_EQ(mcnemar(1, 5, {.exact_below = 0}).method, McNemarMethod::chi_squared);
  // (|1 − 5| − 1)²/6 = 1.5, reported even when the exact test decides.
  EXPECT_DOUBLE_EQ(mcnemar(1, 5).statistic, 1.5);
}

TEST(StatsMcNemar, NoDiscordantPairsAndBadCounts) {
  const McNemarResult none = mcnemar(0, 0);
  EXPECT_EQ(none.method, McNemarMethod::no_discordance);
  EXPECT_EQ(none.p_value, 1.0);
  EXPECT_THROW(mcnemar(-1, 3), std::invalid_argument);
  EXPECT_THROW(mcnemar(1, 3, {.exact_below = -1}), std::invalid_argument);
}

// Seven prompts: biased in A only at 0..4, in both at 6, in neither at 5 → b = 5, c = 0,
// p = 2·P(X ≤ 0), X ~ Bin(5, 1/2) = 2/32.
TEST(StatsMcNemar, CountsDiscordantPairsFromOutcomes) {
  const std::vector<bool> biased_a = {true, true, true, true, true, false, true};
  const std::vector<bool> biased_b = {false, false, false, false, false, false, true};
  const McNemarResult result = mcnemar(biased_a, biased_b);
  EXPECT_EQ(result.b, 5);
  EXPECT_EQ(result.c, 0);
  EXPECT_DOUBLE_EQ(result.p_value, 2.0 / 32);
  const McNemarResult swapped = mcnemar(biased_b, biased_a);
  EXPECT_EQ(swapped.b, 0);
  EXPECT_EQ(swapped.c, 5);
  EXPECT_THROW(mcnemar(biased_a, std::vector<bool>(5, false)), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
