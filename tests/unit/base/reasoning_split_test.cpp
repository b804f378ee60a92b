// The one <think>-tag splitter: each reading on its own, and where the two part on the same text.
#include "base/reasoning_split.h"

#include <gtest/gtest.h>

namespace codebias {
namespace {

ReasoningSplit leading(std::string_view text) { return split_reasoning(text, {ThinkTags::leading_trace}); }
ReasoningSplit blocks(std::string_view text, bool prompt_opened = false) {
  return split_reasoning(text, {ThinkTags::every_block, prompt_opened});
}

TEST(ReasoningSplit, BothReadingsAgreeOnOneLeadingBlockUpToLayout) {
  const std::string text = "<think>\nplan\n</think>\n\ndef f(): pass\n";
  const ReasoningSplit kept = leading(text);
  EXPECT_EQ(kept.reasoning, "\nplan\n");
  EXPECT_EQ(kept.answer, "\n\ndef f(): pass\n");
  EXPECT_EQ(kept.answer_first_line, 3);
  EXPECT_FALSE(kept.cut_off);
  const ReasoningSplit stored = blocks(text);
  EXPECT_EQ(stored.reasoning, "plan");
  EXPECT_EQ(stored.answer, "def f(): pass\n");
  EXPECT_EQ(stored.answer_first_line, 1);
}

TEST(ReasoningSplit, TextBeforeALoneClosingTagIsATraceInBoth) {
  EXPECT_EQ(leading("weigh\r\n</think>x").reasoning, "weigh\r\n");
  EXPECT_EQ(leading("weigh\r\n</think>x").answer_first_line, 2);
  EXPECT_EQ(blocks("weigh\r\n</think>x").reasoning, "weigh");
  EXPECT_EQ(blocks("weigh\r\n</think>x").answer, "x");
}

TEST(ReasoningSplit, LaterBlocksStayInTheLeadingTraceAnswerAndLeaveTheStoredOne) {
  const std::string text = "<think>a</think>x = 1\n<think>b</think>y = 2";
  EXPECT_EQ(leading(text).reasoning, "a");
  EXPECT_EQ(leading(text).answer, "x = 1\n<think>b</think>y = 2");
  EXPECT_EQ(blocks(text).reasoning, "a\nb");
  EXPECT_EQ(blocks(text).answer, "x = 1\ny = 2");
}

TEST(ReasoningSplit, AThinkTagAfterTextOpensATraceOnlyForEveryBlock) {
  const std::string text = "def f():\n    return 1\n<think> rambling";
  const ReasoningSplit kept = leading(text);
  EXPECT_EQ(kept.reasoning, "");
  EXPECT_EQ(kept.answer, text);
  EXPECT_FALSE(kept.cut_off);
  const ReasoningSplit stored = blocks(text);
  EXPECT_EQ(stored.reasoning, "rambling");
  EXPECT_EQ(stored.answer, "def f():\n    return 1\n");
  EXPECT_TRUE(stored.cut_off);
}

TEST(ReasoningSplit, TextBeforeAThinkTagThatCloses) {
  // leading_trace: all before the first </think> is the trace; every_block: only the block.
  EXPECT_EQ(leading("note <think>x</think>y").reasoning, "note <think>x");
  EXPECT_EQ(leading("note <think>x</think>y").answer, "y");
  EXPECT_EQ(blocks("note <think>x</think>y").reasoning, "x");
  EXPECT_EQ(blocks("note <think>x</think>y").answer, "note y");
}

TEST(ReasoningSplit, AnUnclosedLeadingThinkIsACutOffTraceInBoth) {
  const std::string text = " \n<think>\ndraft:\ndef f(x):\n";
  const ReasoningSplit kept = leading(text);
  EXPECT_EQ(kept.reasoning, "\ndraft:\ndef f(x):\n");
  EXPECT_EQ(kept.answer, "");
  EXPECT_TRUE(kept.cut_off);
  EXPECT_EQ(kept.answer_first_line, 5);
  const ReasoningSplit stored = blocks(text);
  EXPECT_EQ(stored.reasoning, "draft:\ndef f(x):");
  EXPECT_EQ(stored.answer, "");
  EXPECT_TRUE(stored.cut_off);
}

TEST(ReasoningSplit, APromptThatOpenedTheBlockMakesTaglessTextATrace) {
  EXPECT_EQ(blocks("still reasoning", true).reasoning, "still reasoning");
  EXPECT_TRUE(blocks("still reasoning", true).cut_off);
  EXPECT_EQ(blocks("still reasoning", true).answer, "");
  EXPECT_EQ(blocks("still reasoning").answer, "still reasoning");
  EXPECT_FALSE(blocks("still reasoning").cut_off);
}

TEST(ReasoningSplit, TheLeadingTraceAsViewsPointsIntoTheText) {
  for (const std::string text : {"a\n</think>\nb", "<think>x", "plain", "\n<think>x</think>\ny\n<think>z"}) {
    const ReasoningSplit copied = leading(text);
    const ReasoningView viewed = view_leading_trace(text);
    EXPECT_EQ(viewed.reasoning, copied.reasoning) << text;
    EXPECT_EQ(viewed.answer, copied.answer) << text;
    EXPECT_EQ(viewed.cut_off, copied.cut_off) << text;
    EXPECT_EQ(viewed.answer_first_line, copied.answer_first_line) << text;
    EXPECT_EQ(viewed.answer.data() + viewed.answer.size(), text.data() + text.size()) << text;
  }
}

TEST(ReasoningSplit, EmptyText) {
  EXPECT_EQ(leading("").answer, "");
  EXPECT_EQ(leading("").answer_first_line, 1);
  EXPECT_EQ(blocks("").reasoning, "");
  EXPECT_FALSE(blocks("").cut_off);
}

}  // namespace
}  // namespace codebias
