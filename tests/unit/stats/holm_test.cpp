// Holm–Bonferroni adjustment on the worked example of its Wikipedia article and hand cases.
#include "stats/holm.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::stats {
namespace {

// "Holm–Bonferroni method", Wikipedia, Example: four hypotheses with p = 0.01, 0.04, 0.03,
// 0.005 at α = 0.05; Holm rejects H1 and H4 only. By hand: sorted 0.005·4 = 0.02,
// 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06.
TEST(StatsHolm, WikipediaWorkedExample) {
  const std::vector<double> p = {0.01, 0.04, 0.03, 0.005};
  const std::vector<double> adjusted = holm_adjust(p);
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_DOUBLE_EQ(adjusted[0], 0.03);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[2], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[3], 0.02);
  const double alpha = 0.05;
  EXPECT_LE(adjusted[0], alpha);
  EXPECT_GT(adjusted[1], alpha);
  EXPECT_GT(adjusted[2], alpha);
  EXPECT_LE(adjusted[3], alpha);
}

TEST(StatsHolm, CapsAtOneAndKeepsMonotone) {
  const std::vector<double> p = {0.5, 0.2, 0.9};
  // Sorted 0.2·3 = 0.6, 0.5·2 = 1.0, 0.9·1 = 0.9 → monotone 1.0.
  const std::vector<double> adjusted = holm_adjust(p);
  EXPECT_DOUBLE_EQ(adjusted[0], 1.0);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.6);
  EXPECT_DOUBLE_EQ(adjusted[2], 1.0);
}

TEST(StatsHolm, TiesSingleAndEmpty) {
  const std::vector<double> tied = {0.01, 0.01};
  const std::vector<double> adjusted = holm_adjust(tied);
  EXPECT_DOUBLE_EQ(adjusted[0], 0.02);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.02);
  const std::vector<double> single = {0.037};
  EXPECT_DOUBLE_EQ(holm_adjust(single)[0], 0.037);
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
}

TEST(StatsHolm, RejectsValuesThatAreNotProbabilities) {
  EXPECT_THROW(holm_adjust(std::vector<double>{0.1, 1.2}), std::invalid_argument);
  EXPECT_THROW(holm_adjust(std::vector<double>{-0.1}), std::invalid_argument);
  EXPECT_THROW(holm_adjust(std::vector<double>{std::nan("")}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
