// Prices as data (metrics/cost.h): the built-in table, longest-prefix matching, the arithmetic.
#include "metrics/cost.h"

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

TEST(Prices, TheBuiltInTableHasASourceAndDateForEveryModel) {
  const auto prices = load_prices("");
  ASSERT_FALSE(prices.empty());
  for (const auto& price : prices) {
    EXPECT_FALSE(price.source.empty()) << price.model;
    EXPECT_EQ(price.date.size(), 10u) << price.model;
    EXPECT_EQ(price.currency, "USD");
    EXPECT_EQ(price.file, "built-in");
  }
}

TEST(Prices, TheLongestEntryStartingTheModelNameMatches) {
  const auto prices = load_prices("");
  EXPECT_EQ(find_price(prices, "gpt-4o-2024-08-06")->model, "gpt-4o");
  EXPECT_EQ(find_price(prices, "gpt-4o-mini-2024-07-18")->model, "gpt-4o-mini");
  EXPECT_FALSE(find_price(prices, "my-local-model").has_value());
}

TEST(Prices, CostIsTokensTimesPricePerMillion) {
  ModelPrice price;
  price.prompt_per_million = 2.5;
  price.completion_per_million = 10;
  EXPECT_DOUBLE_EQ(price.cost(1'000'000, 500'000), 7.5);
  const auto back = model_price_from_json(to_json(price));
  EXPECT_DOUBLE_EQ(back.cost(2'000'000, 0), 5);
}

}  // namespace
}  // namespace codebias::metrics
