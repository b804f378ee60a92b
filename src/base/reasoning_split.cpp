// The <think>-tag splitter of reasoning_split.h: one scan, the two readings as its options.
#include "base/reasoning_split.h"

#include <type_traits>

namespace codebias {
namespace {

using sv = std::string_view;
constexpr std::size_t npos = sv::npos;
constexpr sv kOpen = "<think>";
constexpr sv kClose = "</think>";

// Where a <think> opening the text stands (leading_trace): after layout, \f and \v included.
std::size_t leading_open(sv text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f' || text[i] == '\v' ||
                             text[i] == '\n' || text[i] == '\r'))
    ++i;
  return text.substr(i).starts_with(kOpen) ? i : npos;
}

// What every_block trims off trace parts and the answer's start.
constexpr const char* kTrimmed = " \t\r\n";

sv trim(sv text) {
  const auto first = text.find_first_not_of(kTrimmed);
  if (first == npos) return {};
  return text.substr(first, text.find_last_not_of(kTrimmed) - first + 1);
}

sv trim_leading(sv text) {
  const auto first = text.find_first_not_of(kTrimmed);
  return first == npos ? sv{} : text.substr(first);
}

// Line breaks in `text`: "\n", "\r\n" and a lone "\r" count one each.
int count_breaks(sv text) {
  int n = 0;
  if (text.find('\r') == npos) {  // the common case: memchr from break to break
    for (std::size_t p = text.find('\n'); p != npos; p = text.find('\n', p + 1)) ++n;
    return n;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++n;
    } else if (text[i] == '\r') {
      ++n;
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  return n;
}

// The one scan. Views (ReasoningView) serve leading_trace only, where each part is one stretch.
template <typename Text>
BasicReasoningSplit<Text> split(sv text, ReasoningSplitOptions options) {
  const bool every_block = options.tags == ThinkTags::every_block;
  BasicReasoningSplit<Text> split;
  constexpr bool kViews = std::is_same_v<Text, sv>;
  auto add_trace = [&](sv part) {
    if (kViews || !every_block) {  // at most one trace, kept as written
      split.reasoning = Text(part);
      return;
    }
    if constexpr (!kViews) {
      part = trim(part);
      if (part.empty()) return;
      if (!split.reasoning.empty()) split.reasoning += "\n";
      split.reasoning += part;
    }
  };
  auto add_answer = [&](sv part) {  // every_block; leading_trace's answer is all after the trace
    if constexpr (!kViews) split.answer += part;
  };

  std::size_t position = 0;  // where the text not yet read starts
  bool saw_tag = false;
  const std::size_t first_close = text.find(kClose);
  const std::size_t first_open = every_block ? text.find(kOpen) : leading_open(text);

  if (first_close != npos && (first_open == npos || first_close < first_open)) {
    add_trace(text.substr(0, first_close));  // the prompt opened the block
    position = first_close + kClose.size();
    saw_tag = true;
  } else if (first_open == npos && options.prompt_opened) {
    add_trace(text);
    split.cut_off = true;
    position = text.size();
  }

  while (position < text.size()) {
    const std::size_t open = position == 0 ? first_open : every_block ? text.find(kOpen, position) : npos;
    if (open == npos) {
      if (every_block) add_answer(text.substr(position));
      break;
    }
    saw_tag = true;
    if (every_block) add_answer(text.substr(position, open - position));
    const std::size_t close = text.find(kClose, open + kOpen.size());
    if (close == npos) {
      add_trace(text.substr(open + kOpen.size()));
      split.cut_off = true;
      position = text.size();
      break;
    }
    add_trace(text.substr(open + kOpen.size(), close - open - kOpen.size()));
    position = close + kClose.size();
  }

  if (every_block) {
    if (saw_tag) split.answer = Text(trim_leading(split.answer));
  } else {
    split.answer = Text(text.substr(position));
    split.answer_first_line = 1 + count_breaks(text.substr(0, position));
  }
  return split;
}

}  // namespace

ReasoningSplit split_reasoning(sv text, ReasoningSplitOptions options) { return split<std::string>(text, options); }

ReasoningView view_leading_trace(sv text) { return split<sv>(text, {ThinkTags::leading_trace}); }

}  // namespace codebias
