// `--limit N` spreads over the suite: every contiguous stratum keeps its share of the N prompts.
#include "run/prompt_slice.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace codebias::run {
namespace {

// `topics` topics of `per_topic` prompts each, laid out topic by topic as the builders do.
std::vector<prompts::Prompt> topic_prompts(int topics, int per_topic) {
  std::vector<prompts::Prompt> all;
  for (int t = 0; t < topics; ++t) {
    for (int i = 0; i < per_topic; ++i) {
      prompts::Prompt prompt;
      prompt.id = "topic" + std::to_string(t) + "/" + std::to_string(i);
      prompt.metadata = {{"topic", "topic" + std::to_string(t)}, {"category", t < topics / 2 ? "medical" : "social"}};
      all.push_back(std::move(prompt));
    }
  }
  return all;
}

TEST(PromptSlice, LimitKeepsEveryTopicsShareInSuiteOrder) {
  const auto all = topic_prompts(18, 20);
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < all.size(); ++i) position[all[i].id] = i;
  const auto limited = spread_limit(all, 40);
  ASSERT_EQ(limited.kept.size(), 40u);
  std::map<std::string, int> per_topic;
  for (const auto& prompt : limited.kept) ++per_topic[prompt.metadata["topic"].get<std::string>()];
  EXPECT_EQ(per_topic.size(), 18u);  // the first 40 would be 2 topics
  for (const auto& [topic, count] : per_topic) {
    EXPECT_GE(count, 2) << topic;
    EXPECT_LE(count, 3) << topic;
  }
  for (std::size_t i = 1; i < limited.kept.size(); ++i)
    EXPECT_LT(position[limited.kept[i - 1].id], position[limited.kept[i].id]) << "suite order";
  EXPECT_EQ(limited.note, "--limit 40 keeps 40 of 360 prompts, spread evenly over the suite: topic 18 of 18, category 2 of 2");
}

TEST(PromptSlice, SmallLimitTakesTheMiddleOfEachStretch) {
  const auto limited = spread_limit(topic_prompts(3, 10), 3);
  ASSERT_EQ(limited.kept.size(), 3u);
  EXPECT_EQ(limited.kept[0].id, "topic0/5");
  EXPECT_EQ(limited.kept[1].id, "topic1/5");
  EXPECT_EQ(limited.kept[2].id, "topic2/5");
}

TEST(PromptSlice, LimitAtOrAboveTheSizeKeepsAllWithoutANote) {
  const auto limited = spread_limit(topic_prompts(2, 5), 10);
  EXPECT_EQ(limited.kept.size(), 10u);
  EXPECT_TRUE(limited.note.empty());
}

}  // namespace
}  // namespace codebias::run
