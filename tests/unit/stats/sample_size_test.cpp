// Sample sizes and clustered intervals (stats/sample_size.h), against hand computations.
#include "stats/sample_size.h"

#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/proportion.h"

namespace codebias::stats {
namespace {

TEST(SampleSize, OneProportionMatchesTheScoreTestFormula) {
  // z = 1.959964 (two-sided 95 %) and 0.841621 (power 0.8): ((1.959964·0.3 + 0.841621·0.4) / 0.1)².
  EXPECT_NEAR(one_proportion_sample_size(0.1, 0.2, 0.95, 0.8), 85.4954, 1e-3);
  // Below the threshold: ((1.959964·0.4 + 0.841621·0.3) / 0.1)².
  EXPECT_NEAR(one_proportion_sample_size(0.2, 0.1, 0.95, 0.8), 107.4274, 1e-3);
  EXPECT_THROW(one_proportion_sample_size(0.1, 0.1, 0.95, 0.8), std::invalid_argument);
  EXPECT_THROW(one_proportion_sample_size(0.1, 0.2, 0.95, 1.0), std::invalid_argument);
}

TEST(SampleSize, TwoProportionsMatchFleiss) {
  // Fleiss, Levin & Paik's table value for 0.1 vs 0.2 at alpha 0.05 two-sided, power 0.8, without
  // continuity correction: 199 per group.
  EXPECT_NEAR(two_proportion_sample_size(0.1, 0.2, 0.95, 0.8), 198.96, 0.05);
}

TEST(SampleSize, ImpactRatioOnTheLogScale) {
  // p_ref 0.5, ratio 0.6 (p 0.3), threshold 0.8: (1.959964 + 0.841621)²·(1 + 7/3) / ln(0.75)².
  EXPECT_NEAR(impact_ratio_sample_size(0.5, 0.6, 0.8, 0.95, 0.8), 7.84887 * (1 + 7.0 / 3) / 0.0827625, 0.05);
}

TEST(DesignEffect, IsKishs) {
  EXPECT_DOUBLE_EQ(design_effect(5, 0.1), 1.4);
  EXPECT_DOUBLE_EQ(design_effect(1, 1), 1);
  EXPECT_THROW(design_effect(0.5, 0.1), std::invalid_argument);
}

TEST(IntraclassCorrelation, SpansNoClusteringToFullClustering) {
  const std::vector<ClusterCount> alike = {{2, 10}, {2, 10}, {2, 10}};
  EXPECT_DOUBLE_EQ(intraclass_correlation(alike), 0);
  const std::vector<ClusterCount> separated = {{10, 10}, {0, 10}, {10, 10}, {0, 10}};
  EXPECT_DOUBLE_EQ(intraclass_correlation(separated), 1);
  const std::vector<ClusterCount> one_prompt = {{3, 10}};
  EXPECT_DOUBLE_EQ(intraclass_correlation(one_prompt), 1);
  // By hand: rates 0.2 and 0.6, 10 each: MSB = 0.8, MSW = (1.6 + 2.4)/18, m0 = 10.
  const std::vector<ClusterCount> two = {{2, 10}, {6, 10}};
  EXPECT_NEAR(intraclass_correlation(two), (0.8 - 4.0 / 18) / (0.8 + 9 * 4.0 / 18), 1e-12);
}

TEST(ClusteredWilson, IsWilsonOnTheEffectiveSample) {
  const std::vector<ClusterCount> alike = {{2, 10}, {2, 10}, {2, 10}};
  const auto unclustered = clustered_wilson_interval(alike, 0.95);
  const auto wilson = wilson_interval(6, 30, 0.95);
  EXPECT_DOUBLE_EQ(unclustered.effective_n, 30);
  EXPECT_NEAR(unclustered.lower, wilson.lower, 1e-12);
  EXPECT_NEAR(unclustered.upper, wilson.upper, 1e-12);
  // Fully clustered: each prompt counts once.
  const std::vector<ClusterCount> separated = {{10, 10}, {0, 10}, {10, 10}, {0, 10}};
  const auto clustered = clustered_wilson_interval(separated, 0.95);
  EXPECT_DOUBLE_EQ(clustered.effective_n, 4);
  EXPECT_NEAR(clustered.lower, wilson_interval(2, 4, 0.95).lower, 1e-12);
  EXPECT_EQ(clustered.prompts, 4);
  EXPECT_THROW(clustered_wilson_interval(std::vector<ClusterCount>{{0, 0}}, 0.95), std::invalid_argument);
}


TEST(GateDesignEffect, IsKishsAtTheMeanOfTheClippedEstimate) {
  // ρ = 0, 19 prompts of 4.59 programs: ρ̂'s sd is √(2 / (4.59·3.59·18)) = 0.0827, and the mean of
  // max(ρ̂, 0) is 0.0827·φ(0) = 0.0330.
  EXPECT_NEAR(gate_design_effect(4.59, 0, 19), 1 + 3.59 * 0.0330, 1e-3);
  // More prompts: the estimate settles on ρ and Kish's design effect is left.
  EXPECT_NEAR(gate_design_effect(5, 0.1, 1e7), design_effect(5, 0.1), 1e-3);
  EXPECT_GT(gate_design_effect(5, 0.1, 20), design_effect(5, 0.1));
  // Fewer than two prompts: the gate counts each prompt once.
  EXPECT_DOUBLE_EQ(gate_design_effect(5, 0.1, 1), 5);
  EXPECT_DOUBLE_EQ(gate_design_effect(1, 0.3, 10), 1);
}

TEST(GateDesignEffect, MatchesTheGatesOwnEstimatorOnSimulatedRuns) {
  // Runs of 19 prompts × 5 answers with no clustering: the mean design effect the gate applies
  // (intraclass_correlation, clipped at 0) is what gate_design_effect predicts, not Kish's 1.
  std::mt19937_64 random(42);
  std::binomial_distribution<int> answers(5, 0.2);
  double total = 0;
  constexpr int kRuns = 4000;
  for (int run = 0; run < kRuns; ++run) {
    std::vector<ClusterCount> prompts;
    for (int p = 0; p < 19; ++p) prompts.push_back({static_cast<double>(answers(random)), 5});
    total += design_effect(5, intraclass_correlation(prompts));
  }
  const double mean = total / kRuns;
  EXPECT_GT(mean, 1.08);
  EXPECT_NEAR(mean, gate_design_effect(5, 0, 19), 0.03);
}

}  // namespace
}  // namespace codebias::stats
