// The normal-mixture confidence sequence (stats/confidence_sequence.h): the boundary by hand, the
// choice of ρ, and time-uniform coverage by simulation (looking after every value).
#include "stats/confidence_sequence.h"

#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "stats/random.h"

namespace codebias::stats {
namespace {

TEST(ConfidenceSequence, RadiusIsTheNormalMixtureBoundary) {
  // t = 100, α = 0.05, ρ = 1: V = 25 + 1, √(26·ln(26 / 0.0025)) / 100.
  EXPECT_NEAR(normal_mixture_radius(100, 0.95, 1), std::sqrt(26 * std::log(26 / 0.0025)) / 100, 1e-12);
  EXPECT_THROW(normal_mixture_radius(0, 0.95, 1), std::invalid_argument);
}

TEST(ConfidenceSequence, RhoMinimisesTheRadiusWhereAsked) {
  const double rho = normal_mixture_rho(200, 0.95);
  const double best = normal_mixture_radius(200, 0.95, rho);
  EXPECT_LT(best, normal_mixture_radius(200, 0.95, rho * 1.2));
  EXPECT_LT(best, normal_mixture_radius(200, 0.95, rho / 1.2));
  // Wider than the fixed-n Wald interval at the same n: the price of looking at every n.
  EXPECT_GT(best, 1.959964 * 0.5 / std::sqrt(200.0));
}

TEST(ConfidenceSequence, EmptyIsTheWholeRangeAndBoundsAreClipped) {
  const auto empty = mean_confidence_sequence(0, 0, 0.95, 50);
  EXPECT_EQ(empty.lower, 0);
  EXPECT_EQ(empty.upper, 1);
  const auto all_ones = mean_confidence_sequence(3, 3, 0.95, 50);
  EXPECT_EQ(all_ones.upper, 1);
  EXPECT_GT(all_ones.lower, 0 - 1e-12);
  EXPECT_THROW(mean_confidence_sequence(4, 3, 0.95, 50), std::invalid_argument);
}

// 400 streams of 400 Bernoulli(0.3) values, the interval checked after every value: the share of
// streams that ever miss 0.3 must stay below α = 0.1 (a fixed-n interval looked at this often
// misses far more often).
TEST(ConfidenceSequence, CoversAtEveryLookAtOnce) {
  Xoshiro256StarStar random(20260101);
  int streams_missing = 0;
  for (int stream = 0; stream < 400; ++stream) {
    double sum = 0;
    for (std::size_t t = 1; t <= 400; ++t) {
      sum += random.uniform_below(10) < 3 ? 1 : 0;
      const auto interval = mean_confidence_sequence(sum, t, 0.9, 100);
      if (interval.lower > 0.3 || interval.upper < 0.3) {
        ++streams_missing;
        break;
      }
    }
  }
  EXPECT_LE(streams_missing, 40);
}

}  // namespace
}  // namespace codebias::stats
