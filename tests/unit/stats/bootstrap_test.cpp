// The seeded generator against its published test vectors, and the bootstrap's determinism,
// coverage sanity and edge cases.
#include "stats/bootstrap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <span>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/random.h"

namespace codebias::stats {
namespace {

// splitmix64 from state 0: first output 0xe220a8397b1dcdaf (the reference vector of Vigna's
// splitmix64.c, also the first value of Java's SplittableRandom(0)).
TEST(StatsRandom, Splitmix64ReferenceOutput) {
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64_next(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(state, 0x9e3779b97f4a7c15ULL);
}

// xoshiro256** from state {1, 2, 3, 4}: 11520, 0, 1509978240, 1215971899390074240. The first
// three by hand: rotl(2·5, 7)·9 = 11520; after one step s1 = 0, so 0; after two s1 = 262149,
// rotl(262149·5, 7)·9 = 1509978240.
TEST(StatsRandom, Xoshiro256StarStarReferenceOutputs) {
  Xoshiro256StarStar generator(std::array<std::uint64_t, 4>{1, 2, 3, 4});
  EXPECT_EQ(generator.next(), 11520u);
  EXPECT_EQ(generator.next(), 0u);
  EXPECT_EQ(generator.next(), 1509978240u);
  EXPECT_EQ(generator.next(), 1215971899390074240ULL);
  EXPECT_THROW(Xoshiro256StarStar(std::array<std::uint64_t, 4>{0, 0, 0, 0}),
               std::invalid_argument);
}

TEST(StatsRandom, UniformBelowStaysInRangeAndReachesEveryValue) {
  Xoshiro256StarStar generator(7);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t value = generator.uniform_below(7);
    ASSERT_LT(value, 7u);
    seen.insert(value);
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(generator.uniform_below(1), 0u);
  EXPECT_THROW(generator.uniform_below(0), std::invalid_argument);
}

std::vector<double> spread_sample(int n) {
  std::vector<double> sample;
  for (int i = 0; i < n; ++i) sample.push_back(static_cast<double>((i * 37) % 101));
  return sample;
}

TEST(StatsBootstrap, SameSeedSameIntervalOtherSeedOtherInterval) {
  const std::vector<double> sample = spread_sample(50);
  const BootstrapResult first = bootstrap_ci(sample, sample_mean, {.seed = 42});
  const BootstrapResult again = bootstrap_ci(sample, sample_mean, {.seed = 42});
  const BootstrapResult other = bootstrap_ci(sample, sample_mean, {.seed = 43});
  EXPECT_EQ(first.lower, again.lower);
  EXPECT_EQ(first.upper, again.upper);
  EXPECT_TRUE(first.lower != other.lower || first.upper != other.upper);
  EXPECT_EQ(first.seed, 42u);
  EXPECT_EQ(first.resamples, kDefaultBootstrapResamples);
  EXPECT_EQ(first.units, 50u);
  EXPECT_DOUBLE_EQ(first.confidence, 0.95);
}

TEST(StatsBootstrap, IntervalHoldsTheMeanAndNarrowsWithMoreData) {
  const std::vector<double> small = spread_sample(20);
  const std::vector<double> large = spread_sample(2000);
  const BootstrapResult narrow_data = bootstrap_ci(small, sample_mean);
  const BootstrapResult wide_data = bootstrap_ci(large, sample_mean);
  for (const BootstrapResult* result : {&narrow_data, &wide_data}) {
    EXPECT_LT(result->lower, result->estimate);
    EXPECT_GT(result->upper, result->estimate);
  }
  // Standard error shrinks like 1/√n: 100× the data, about a tenth of the width.
  const double small_width = narrow_data.upper - narrow_data.lower;
  const double large_width = wide_data.upper - wide_data.lower;
  EXPECT_LT(large_width, 0.2 * small_width);
  // The interval is close to the normal-theory one, mean ± 1.96·sd/√n (sd of 0..100 ≈ 29.2).
  EXPECT_NEAR(large_width, 2 * 1.96 * 29.2 / std::sqrt(2000.0), 0.3);
  // A higher confidence level gives a wider interval from the same replicates.
  const BootstrapResult wider = bootstrap_ci(small, sample_mean, {.confidence = 0.99});
  EXPECT_GT(wider.upper - wider.lower, small_width);
}

TEST(StatsBootstrap, EdgeCases) {
  const std::vector<double> constant(30, 0.1);
  const BootstrapResult flat = bootstrap_ci(constant, sample_mean);
  EXPECT_EQ(flat.lower, flat.upper);
  EXPECT_EQ(flat.lower, flat.estimate);

  const std::vector<double> empty;
  EXPECT_THROW(bootstrap_ci(empty, sample_mean), std::invalid_argument);
  const std::vector<double> with_nan = {1, std::nan("")};
  EXPECT_THROW(bootstrap_ci(with_nan, sample_mean), std::invalid_argument);
  const std::vector<double> some = {1, 2, 3};
  EXPECT_THROW(bootstrap_ci(some, sample_mean, {.resamples = 0}), std::invalid_argument);
  EXPECT_THROW(bootstrap_ci(some, sample_mean, {.confidence = 1.0}), std::invalid_argument);
  const SampleStatistic undefined = [](std::span<const double>) { return std::nan(""); };
  EXPECT_THROW(bootstrap_ci(some, undefined), std::invalid_argument);
}

// A statistic undefined on some resamples (here: the mean of the positive values, undefined
// when a resample of {0, 1} holds only zeros, probability 1/4) leaves those out and counts them.
TEST(StatsBootstrap, UndefinedResamplesAreCountedAndLeftOut) {
  const std::vector<double> sample = {0, 1};
  const SampleStatistic mean_of_positives = [](std::span<const double> values) {
    double sum = 0;
    int count = 0;
    for (double v : values) {
      if (v > 0) {
        sum += v;
        ++count;
      }
    }
    return count == 0 ? std::nan("") : sum / count;
  };
  const BootstrapResult result = bootstrap_ci(sample, mean_of_positives);
  EXPECT_GT(result.undefined_resamples, 350);  // expected 500 of 2000
  EXPECT_LT(result.undefined_resamples, 650);
  EXPECT_EQ(result.lower, 1.0);
  EXPECT_EQ(result.upper, 1.0);
}

// Pairs stay together: b = a + 1 everywhere, so every resample's mean difference is exactly
// −1, while the two means themselves vary.
TEST(StatsBootstrap, PairedResamplingKeepsPairsAligned) {
  const std::vector<double> a = spread_sample(40);
  std::vector<double> b;
  for (double v : a) b.push_back(v + 1);
  const PairedStatistic mean_difference = [](std::span<const double> x,
                                             std::span<const double> y) {
    return sample_mean(x) - sample_mean(y);
  };
  const BootstrapResult result = paired_bootstrap_ci(a, b, mean_difference);
  EXPECT_NEAR(result.lower, -1, 1e-9);
  EXPECT_NEAR(result.upper, -1, 1e-9);
  const std::vector<double> shorter(39, 0.0);
  EXPECT_THROW(paired_bootstrap_ci(a, shorter, mean_difference), std::invalid_argument);
}

double pooled_mean(std::span<const std::span<const double>> clusters) {
  double sum = 0;
  double count = 0;
  for (std::span<const double> cluster : clusters) {
    for (double v : cluster) sum += v;
    count += static_cast<double>(cluster.size());
  }
  return count == 0 ? std::nan("") : sum / count;
}

// Ten prompts, ten identical responses each (perfect within-prompt correlation): there are
// really ten observations, and resampling prompts gives a wider interval than resampling the
// 100 responses as if independent.
TEST(StatsBootstrap, ClusterBootstrapAccountsForWithinPromptCorrelation) {
  std::vector<std::vector<double>> prompts;
  std::vector<double> responses;
  for (int p = 0; p < 10; ++p) {
    const double bias = (p % 3 == 0) ? 1.0 : 0.0;
    prompts.emplace_back(10, bias);
    responses.insert(responses.end(), 10, bias);
  }
  const BootstrapResult by_prompt = cluster_bootstrap_ci(prompts, pooled_mean);
  const BootstrapResult by_response = bootstrap_ci(responses, sample_mean);
  EXPECT_DOUBLE_EQ(by_prompt.estimate, 0.4);
  EXPECT_DOUBLE_EQ(by_response.estimate, 0.4);
  EXPECT_EQ(by_prompt.units, 10u);
  EXPECT_GT(by_prompt.upper - by_prompt.lower, 2 * (by_response.upper - by_response.lower));

  const std::vector<std::vector<double>> one_prompt = {{0.2, 0.4}};
  const BootstrapResult single = cluster_bootstrap_ci(one_prompt, pooled_mean);
  EXPECT_DOUBLE_EQ(single.lower, single.upper);
  EXPECT_THROW(cluster_bootstrap_ci({}, pooled_mean), std::invalid_argument);
}

// The engine resamples unit indices; the statistic may map them to anything.
TEST(StatsBootstrap, UnitEngineHandsOutValidIndices) {
  const std::size_t units = 5;
  const IndexStatistic largest_index = [&](std::span<const std::size_t> indices) {
    EXPECT_EQ(indices.size(), units);
    std::size_t largest = 0;
    for (std::size_t i : indices) largest = std::max(largest, i);
    return static_cast<double>(largest);
  };
  const BootstrapResult result = bootstrap_units(units, largest_index, {.resamples = 200});
  EXPECT_EQ(result.estimate, 4.0);
  EXPECT_LE(result.upper, 4.0);
  EXPECT_GE(result.lower, 0.0);
}

// Several statistics over the same resamples give what each would give bootstrapped alone; one
// that is undefined has no result and leaves the others theirs.
TEST(StatsBootstrap, JointStatisticsEqualTheirSeparateBootstraps) {
  const std::vector<double> values = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
  const auto mean_of = [&](std::span<const std::size_t> indices) {
    double sum = 0;
    for (std::size_t i : indices) sum += values[i];
    return sum / static_cast<double>(indices.size());
  };
  const auto largest_of = [&](std::span<const std::size_t> indices) {
    double largest = values[indices[0]];
    for (std::size_t i : indices) largest = std::max(largest, values[i]);
    return largest;
  };
  const BootstrapOptions options{.resamples = 300, .seed = 7};
  const auto joint = bootstrap_units_jointly(
      values.size(), 3,
      [&](std::span<const std::size_t> indices) {
        return std::vector<double>{mean_of(indices), std::nan(""), largest_of(indices)};
      },
      options);
  ASSERT_EQ(joint.size(), 3u);
  ASSERT_TRUE(joint[0] && joint[2]);
  EXPECT_FALSE(joint[1]);
  for (const auto& [result, statistic] : {std::pair{*joint[0], IndexStatistic(mean_of)},
                                          std::pair{*joint[2], IndexStatistic(largest_of)}}) {
    const auto alone = bootstrap_units(values.size(), statistic, options);
    EXPECT_EQ(result.estimate, alone.estimate);
    EXPECT_EQ(result.lower, alone.lower);
    EXPECT_EQ(result.upper, alone.upper);
    EXPECT_EQ(result.undefined_resamples, alone.undefined_resamples);
  }
  EXPECT_LT(joint[0]->lower, joint[0]->upper);

  // A statistic function that returns the wrong number of values is a programming error.
  EXPECT_THROW(bootstrap_units_jointly(values.size(), 2,
                                       [](std::span<const std::size_t>) { return std::vector<double>{1.0}; }),
               std::invalid_argument);
}

}  // namespace
}  // namespace codebias::stats
