// Cliff's δ on hand-counted pairs, and the Romano et al. (2006) magnitude classes.
#include "stats/cliffs_delta.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::stats {
namespace {

// x = {1, 2, 3}, y = {2, 4}: pairs (x > y): (3,2); (x < y): (1,2) (1,4) (2,4) (3,4);
// the tie (2,2) counts for neither. δ = (1 − 4)/6 = −0.5.
TEST(StatsCliffsDelta, CountsDominancePairsWithTies) {
  const std::vector<double> x = {1, 2, 3};
  const std::vector<double> y = {2, 4};
  const CliffsDeltaResult result = cliffs_delta(x, y);
  EXPECT_EQ(result.greater_pairs, 1u);
  EXPECT_EQ(result.less_pairs, 4u);
  EXPECT_DOUBLE_EQ(result.delta, -0.5);
  EXPECT_EQ(result.magnitude, EffectMagnitude::large);
  EXPECT_EQ(result.n_x, 3u);
  EXPECT_EQ(result.n_y, 2u);
}

TEST(StatsCliffsDelta, SwappingSamplesFlipsTheSign) {
  const std::vector<double> x = {0.9, 0.4, 0.4, 0.7};
  const std::vector<double> y = {0.4, 0.1, 0.6};
  // By hand: x > y: 0.9 beats 3, each 0.4 beats 0.1 (2), 0.7 beats 3 → 8;
  // x < y: each 0.4 loses to 0.6 (2) → 2; 12 pairs, δ = 6/12 = 0.5.
  EXPECT_DOUBLE_EQ(cliffs_delta(x, y).delta, 0.5);
  EXPECT_DOUBLE_EQ(cliffs_delta(y, x).delta, -0.5);
}

TEST(StatsCliffsDelta, CompleteSeparationAndIdenticalSamples) {
  const std::vector<double> low = {1, 2, 3};
  const std::vector<double> high = {4, 5};
  EXPECT_DOUBLE_EQ(cliffs_delta(high, low).delta, 1.0);
  EXPECT_DOUBLE_EQ(cliffs_delta(low, high).delta, -1.0);
  EXPECT_DOUBLE_EQ(cliffs_delta(low, low).delta, 0.0);
  EXPECT_EQ(cliffs_delta(low, low).magnitude, EffectMagnitude::negligible);
}

// Thresholds of Romano et al. (2006): 0.147, 0.33, 0.474, each the start of the next class.
TEST(StatsCliffsDelta, RomanoThresholds) {
  EXPECT_EQ(cliffs_delta_magnitude(0.0), EffectMagnitude::negligible);
  EXPECT_EQ(cliffs_delta_magnitude(0.146), EffectMagnitude::negligible);
  EXPECT_EQ(cliffs_delta_magnitude(0.147), EffectMagnitude::small);
  EXPECT_EQ(cliffs_delta_magnitude(-0.329), EffectMagnitude::small);
  EXPECT_EQ(cliffs_delta_magnitude(0.33), EffectMagnitude::medium);
  EXPECT_EQ(cliffs_delta_magnitude(-0.473), EffectMagnitude::medium);
  EXPECT_EQ(cliffs_delta_magnitude(0.474), EffectMagnitude::large);
  // ProbeDebias Table 3: δ = 0.704 and 0.679 are reported as large.
  EXPECT_EQ(cliffs_delta_magnitude(0.704), EffectMagnitude::large);
  EXPECT_EQ(cliffs_delta_magnitude(0.679), EffectMagnitude::large);
  EXPECT_EQ(to_string(EffectMagnitude::medium), "medium");
}

// The sorted O(n log n) count must equal the O(mn) definition on data with many ties.
TEST(StatsCliffsDelta, MatchesTheQuadraticDefinition) {
  std::vector<double> x;
  std::vector<double> y;
  for (int i = 0; i < 57; ++i) x.push_back((i * 7) % 11 / 2.0);
  for (int i = 0; i < 43; ++i) y.push_back((i * 5) % 13 / 3.0);
  long long greater = 0;
  long long less = 0;
  for (double a : x) {
    for (double b : y) {
      greater += a > b;
      less += a < b;
    }
  }
  const CliffsDeltaResult result = cliffs_delta(x, y);
  EXPECT_EQ(static_cast<long long>(result.greater_pairs), greater);
  EXPECT_EQ(static_cast<long long>(result.less_pairs), less);
  EXPECT_DOUBLE_EQ(result.delta, static_cast<double>(greater - less) / (57.0 * 43.0));
}

TEST(StatsCliffsDelta, RejectsEmptyOrNonFiniteSamples) {
  const std::vector<double> some = {1, 2};
  const std::vector<double> none;
  const std::vector<double> with_inf = {1, INFINITY};
  EXPECT_THROW(cliffs_delta(some, none), std::invalid_argument);
  EXPECT_THROW(cliffs_delta(none, some), std::invalid_argument);
  EXPECT_THROW(cliffs_delta(some, with_inf), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
