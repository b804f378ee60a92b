#include "prompts/shuffle.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::prompts {
namespace {

TEST(SplitMix64, MatchesTheReferenceGeneratorSeededWithZero) {
  // First outputs of Vigna's splitmix64.c with x = 0.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(rng.next(), 0x06C45D188009454FULL);
}

TEST(SplitMix64, BelowStaysUnderTheBound) {
  SplitMix64 rng(7);
  for (std::uint64_t bound : {1ULL, 2ULL, 3ULL, 10ULL, 1000003ULL}) {
    for (int i = 0; i < 200; ++i) EXPECT_LT(rng.below(bound), bound);
  }
}

TEST(Fnv1a64, MatchesPublishedTestVectors) {
  EXPECT_EQ(fnv1a64(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171F73967E8ULL);
}

TEST(Shuffle, IsTheDocumentedFisherYates) {
  // Expected order computed with a separate Python implementation of the algorithm in shuffle.h.
  std::vector<char> items{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  SplitMix64 rng(42);
  shuffle(items, rng);
  EXPECT_EQ(std::string(items.begin(), items.end()), "dbgceahf");
}

TEST(Shuffle, KeepsEveryItem) {
  std::vector<int> items(50);
  for (int i = 0; i < 50; ++i) items[static_cast<std::size_t>(i)] = i;
  SplitMix64 rng(3);
  shuffle(items, rng);
  EXPECT_FALSE(std::is_sorted(items.begin(), items.end()));
  std::sort(items.begin(), items.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(items[static_cast<std::size_t>(i)], i);
}

TEST(PromptSeed, DependsOnRunSeedAndId) {
  EXPECT_EQ(prompt_seed(0, "x"), 0x338262D8F096398FULL);  // same Python reference
  EXPECT_NE(prompt_seed(0, "x"), prompt_seed(1, "x"));
  EXPECT_NE(prompt_seed(0, "x"), prompt_seed(0, "y"));
}

}  // namespace
}  // namespace codebias::prompts
