// Separating a model's reasoning trace from its answer on <think> tags: the one splitter that
// generation (results coming back, batch import) and analysis (reading stored responses) share.
#pragma once

#include <string>
#include <string_view>

namespace codebias {

// How the tags are read. The two readings differ because their callers' inputs and outputs do:
//
// leading_trace (the analyzer): it reads a stored response and reports line numbers in it, so the
//   answer is one stretch of the text, byte for byte. The trace is everything before the first
//   `</think>` (less a `<think>` that opens the text, after whitespace), or all that follows a
//   `<think>` opening the text that never closes (cut off). A `<think>` anywhere else is answer
//   text, and so is everything after the first `</think>`, later tags included: the code-block
//   reader cuts a block at them (degenerate rambling).
// every_block (generation): it stores the answer apart from the trace, so every
//   `<think>…</think>` block is taken out wherever it stands, text before a `</think>` with no
//   `<think>` is a trace the prompt opened, and a `<think>` that never closes makes the rest a
//   cut-off trace. Trace parts are trimmed and joined by "\n"; the answer is what lies outside
//   them, its leading whitespace trimmed when there were tags.
enum class ThinkTags { leading_trace, every_block };

struct ReasoningSplitOptions {
  ThinkTags tags = ThinkTags::every_block;
  // The prompt opened the think block (generation knows it from the request): text with no tags
  // at all is then a trace that was cut off.
  bool prompt_opened = false;
};

// The trace and the answer: owned (ReasoningSplit), or views into the text (ReasoningView, for
// leading_trace, whose parts each stand together in the text).
template <typename Text>
struct BasicReasoningSplit {
  Text reasoning;            // "" when none
  Text answer;
  bool cut_off = false;      // the trace never ended (a <think> with no </think>, or all budget spent)
  // 1-based line of the text on which `answer` starts ("\n", "\r\n" and a lone "\r" each end a
  // line). Meaningful for leading_trace, whose answer is a stretch of the text; 1 otherwise.
  int answer_first_line = 1;
};
using ReasoningSplit = BasicReasoningSplit<std::string>;
using ReasoningView = BasicReasoningSplit<std::string_view>;

ReasoningSplit split_reasoning(std::string_view text, ReasoningSplitOptions options);

// The leading_trace reading without copies: views into `text`, which must outlive them.
ReasoningView view_leading_trace(std::string_view text);

}  // namespace codebias
