#include "metrics/propagation.h"

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

TEST(Propagation, CountsTheFourClassesAndTheirConditionalShares) {
  PropagationCounts counts;
  for (int i = 0; i < 6; ++i) counts.add(true, true);    // BT→BC
  for (int i = 0; i < 2; ++i) counts.add(true, false);   // BT→UC
  counts.add(false, true);                               // UT→BC
  for (int i = 0; i < 11; ++i) counts.add(false, false); // UT→UC
  const Propagation p = summarize_propagation("keywords", counts, 3);
  EXPECT_EQ(p.detector, "keywords");
  EXPECT_EQ(p.counts.total(), 20);
  EXPECT_EQ(p.programs_without_trace, 3);
  ASSERT_TRUE(p.biased_trace_share && p.biased_code_given_biased && p.biased_code_given_unbiased);
  EXPECT_DOUBLE_EQ(p.biased_trace_share->rate, 8.0 / 20);
  EXPECT_DOUBLE_EQ(p.biased_code_given_biased->rate, 6.0 / 8);
  EXPECT_EQ(p.biased_code_given_biased->denominator, 8);
  EXPECT_DOUBLE_EQ(p.biased_code_given_unbiased->rate, 1.0 / 12);
  // Wilson 95%: 6 of 8 -> [0.4093, 0.9285] (Newcombe 1998's method 3, z = 1.959964).
  EXPECT_NEAR(p.biased_code_given_biased->ci95.lower, 0.4093, 5e-4);
  EXPECT_NEAR(p.biased_code_given_biased->ci95.upper, 0.9285, 5e-4);
}

TEST(Propagation, AClassWithoutProgramsHasNoRate) {
  PropagationCounts counts;
  counts.add(false, true);
  const Propagation p = summarize_propagation("tfidf-lr", counts, 0);
  EXPECT_FALSE(p.biased_code_given_biased.has_value());  // no biased trace: P(BC | BT) undefined, not 0
  ASSERT_TRUE(p.biased_code_given_unbiased.has_value());
  EXPECT_DOUBLE_EQ(p.biased_code_given_unbiased->rate, 1.0);
  EXPECT_DOUBLE_EQ(p.biased_trace_share->rate, 0.0);
}

}  // namespace
}  // namespace codebias::metrics
