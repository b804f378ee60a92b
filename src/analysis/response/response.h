// Taking an LLM response apart: reasoning vs answer, and the code blocks in the answer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/reasoning_split.h"

namespace codebias::analysis {

enum class Language { unknown, python, c, cpp, javascript, typescript, java };
const char* to_string(Language language);

// The response as the analyzer reads it (ThinkTags::leading_trace of base/reasoning_split.h):
// the trace is what precedes the first </think>, and the answer keeps its place in the response.
// Views into `response`.
ReasoningView split_reasoning(std::string_view response);

struct CodeBlock {
  std::string code;
  Language language = Language::unknown;  // from the fence tag, else detected from the code
  int first_line = 1;       // 1-based line in the response of the block's first code line
  bool fenced = false;      // came from a markdown fence
  bool closed = true;       // false when a fence was opened and never closed (cut-off output)
};

// Every code block of the answer, in order: fenced blocks (tagged or not), or when the answer has
// no fences, the code-looking region(s) of raw text / prose-with-code. Prose-only answers give none.
std::vector<CodeBlock> extract_code_blocks(const ReasoningView& split);

Language detect_language(std::string_view code);

// The language a markdown fence tag names ("python", "py", "c++", "js", "ts", "java", ...; case
// and a trailing info string ignored); unknown for other or unrecognized tags.
Language language_from_tag(std::string_view tag);

// Line `line` (1-based) of `text`, without its line break, counting lines exactly as
// split_reasoning / extract_code_blocks do ("\n", "\r\n" and a lone "\r" each end a line).
// Empty when there is no such line.
std::string_view response_line(std::string_view text, int line);

}  // namespace codebias::analysis
