// Wilson score intervals against the published values of Newcombe (1998), "Two-sided confidence
// intervals for the single proportion: comparison of seven methods", Statistics in Medicine 17,
// Table I, method 3 (score interval without continuity correction).
#include <gtest/gtest.h>

#include <stdexcept>

#include "stats/proportion.h"

namespace codebias::stats {
namespace {

struct Published {
  double successes, trials, lower, upper;
};

TEST(WilsonInterval, MatchesNewcombe1998TableOne) {
  for (const Published& p : {Published{81, 263, 0.2553, 0.3662}, Published{15, 148, 0.0624, 0.1605},
                             Published{0, 20, 0.0, 0.1611}, Published{1, 29, 0.0061, 0.1718}}) {
    const ProportionInterval ci = wilson_interval(p.successes, p.trials);
    EXPECT_NEAR(ci.lower, p.lower, 5e-5) << p.successes << "/" << p.trials;
    EXPECT_NEAR(ci.upper, p.upper, 5e-5) << p.successes << "/" << p.trials;
  }
}

TEST(WilsonInterval, StaysInsideTheUnitIntervalAndNarrowsWithConfidence) {
  const ProportionInterval all = wilson_interval(10, 10);
  EXPECT_DOUBLE_EQ(all.upper, 1.0);
  EXPECT_GT(all.lower, 0.6);
  const ProportionInterval wide = wilson_interval(5, 10, 0.99), narrow = wilson_interval(5, 10, 0.80);
  EXPECT_LT(wide.lower, narrow.lower);
  EXPECT_GT(wide.upper, narrow.upper);
}

TEST(WilsonInterval, RefusesImpossibleCounts) {
  EXPECT_THROW(wilson_interval(1, 0), std::invalid_argument);
  EXPECT_THROW(wilson_interval(3, 2), std::invalid_argument);
  EXPECT_THROW(wilson_interval(-1, 2), std::invalid_argument);
  EXPECT_THROW(wilson_interval(1, 2, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
