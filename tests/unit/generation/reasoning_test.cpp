#include "generation/reasoning.h"

#include <gtest/gtest.h>

namespace codebias::generation {
namespace {

nlohmann::json chat_choice(nlohmann::json message, const char* finish_reason = "stop") {
  message["role"] = "assistant";
  return {{"index", 0}, {"message", std::move(message)}, {"finish_reason", finish_reason}};
}

TEST(SplitThinkTags, PlainTextIsAllAnswer) {
  const auto split = split_think_tags("def f(): pass");
  EXPECT_EQ(split.reasoning, "");
  EXPECT_EQ(split.answer, "def f(): pass");
  EXPECT_FALSE(split.cut_off);
}

TEST(SplitThinkTags, BalancedBlockIsSeparated) {
  const auto split = split_think_tags("<think>\nweigh the options\n</think>\n\ndef f(): pass");
  EXPECT_EQ(split.reasoning, "weigh the options");
  EXPECT_EQ(split.answer, "def f(): pass");
  EXPECT_FALSE(split.cut_off);
}

TEST(SplitThinkTags, ClosingTagWithoutOpeningOneMeansThePromptOpenedTheBlock) {
  const auto split = split_think_tags("weigh the options\n</think>\n\nanswer");
  EXPECT_EQ(split.reasoning, "weigh the options");
  EXPECT_EQ(split.answer, "answer");
  EXPECT_FALSE(split.cut_off);
}

TEST(SplitThinkTags, UnclosedBlockIsACutOffTrace) {
  const auto split = split_think_tags("<think>I was still thinking when the budget ran");
  EXPECT_EQ(split.reasoning, "I was still thinking when the budget ran");
  EXPECT_EQ(split.answer, "");
  EXPECT_TRUE(split.cut_off);
}

TEST(SplitThinkTags, TwoBlocksAreJoinedAndTextBetweenThemIsAnswer) {
  const auto split = split_think_tags("<think>a</think>x = 1\n<think>b</think>y = 2");
  EXPECT_EQ(split.reasoning, "a\nb");
  EXPECT_EQ(split.answer, "x = 1\ny = 2");
}

TEST(SplitThinkTags, PromptThatOpenedTheBlockMakesUntaggedTextACutOffTrace) {
  const auto split = split_think_tags("still reasoning", PromptThink::opened);
  EXPECT_EQ(split.reasoning, "still reasoning");
  EXPECT_EQ(split.answer, "");
  EXPECT_TRUE(split.cut_off);
}

TEST(ExtractReasoning, ReadsTheReasoningField) {
  const auto split = extract_reasoning(chat_choice({{"content", "code"}, {"reasoning", "why"}}));
  EXPECT_EQ(split.reasoning, "why");
  EXPECT_EQ(split.answer, "code");
}

TEST(ExtractReasoning, ReadsTheReasoningContentField) {
  const auto split =
      extract_reasoning(chat_choice({{"content", "code"}, {"reasoning_content", "why"}}));
  EXPECT_EQ(split.reasoning, "why");
  EXPECT_EQ(split.answer, "code");
}

TEST(ExtractReasoning, FallsBackToThinkTagsInTheContent) {
  const auto split = extract_reasoning(chat_choice({{"content", "<think>why</think>code"}}));
  EXPECT_EQ(split.reasoning, "why");
  EXPECT_EQ(split.answer, "code");
}

TEST(ExtractReasoning, StripsTagsLeftInTheContentWhenTheFieldIsFilled) {
  const auto split = extract_reasoning(
      chat_choice({{"content", "<think>why</think>\ncode"}, {"reasoning_content", "why"}}));
  EXPECT_EQ(split.reasoning, "why");
  EXPECT_EQ(split.answer, "code");
}

TEST(ExtractReasoning, TraceWithoutContentCutByLengthIsCutOff) {
  const auto split = extract_reasoning(
      chat_choice({{"content", nullptr}, {"reasoning", "long thoughts"}}, "length"));
  EXPECT_EQ(split.reasoning, "long thoughts");
  EXPECT_EQ(split.answer, "");
  EXPECT_TRUE(split.cut_off);
}

TEST(ExtractReasoning, ParserMisreadingAContinuationAfterAClosedPrefillGivesTheAnswer) {
  const auto split = extract_reasoning(
      chat_choice({{"content", nullptr}, {"reasoning", "def f(): pass"}}), PromptThink::closed);
  EXPECT_EQ(split.reasoning, "");
  EXPECT_EQ(split.answer, "def f(): pass");
}

TEST(ExtractReasoning, ReadsCompletionsText) {
  const nlohmann::json choice = {{"index", 0}, {"text", "<think>t</think>done"}};
  const auto split = extract_reasoning(choice);
  EXPECT_EQ(split.reasoning, "t");
  EXPECT_EQ(split.answer, "done");
}

TEST(PromptThinkState, ReadsCompletionsPromptsAndChatPrefills) {
  EXPECT_EQ(prompt_think_state({{"prompt", "user: hi\nassistant: <think>\n"}}),
            PromptThink::opened);
  EXPECT_EQ(prompt_think_state({{"prompt", "x<think>\n\n</think>\n\n"}}), PromptThink::closed);
  EXPECT_EQ(prompt_think_state({{"prompt", "plain"}}), PromptThink::unknown);
  const nlohmann::json prefilled = {
      {"messages",
       {{{"role", "user"}, {"content", "q"}},
        {{"role", "assistant"}, {"content", "<think>\ngiven\n</think>\n\n"}}}},
      {"continue_final_message", true}};
  EXPECT_EQ(prompt_think_state(prefilled), PromptThink::closed);
  nlohmann::json not_continued = prefilled;
  not_continued["continue_final_message"] = false;
  EXPECT_EQ(prompt_think_state(not_continued), PromptThink::unknown);
}

}  // namespace
}  // namespace codebias::generation
