// Taking an LLM response apart: reasoning vs answer, and the code blocks in the answer.
//
// Everything in the response reader is hand-written scanning over std::string_view: no regex, no
// allocation per character, linear in the input (no step rescans a line more than a constant
// number of times).
// Only ASCII bytes carry meaning; any other byte (invalid UTF-8, NUL, ...) is ordinary text.
// Line breaks are "\n", "\r\n" or a lone "\r"; each counts as one line everywhere in these files,
// and CodeBlock::code always uses "\n" (every line, the last one included, ends with it). Line k
// (0-based) of a block's code is line first_line + k of the response; leading and trailing blank
// lines are dropped, and a fence's own indentation is removed from the lines it holds.
//
// How messy output is read (see the corpus notes in the tests):
//  - fences: ``` / ~~~ (3+), any indentation, a tag with extra words; text glued before "```tag"
//    opens there; "code```" at a line end closes; "```python" inside an open block starts a new
//    block (the old one is unclosed); a lone "``" as the last line closes a block. An unclosed
//    block is cut at the first think tag or plain-prose line at indentation 0 (the model's
//    rambling); a closed block holding a think tag is cut there and counts as unclosed.
//  - an untagged fence right after unfenced code and before prose is a closing fence of code
//    that was never opened.
//  - unfenced code (no fences, or fences holding no definition, e.g. only sample output):
//    regions from a definition line through the last code-looking line, split at prose; when
//    nothing else is found, a function body without its header (head cut off) still counts.
//
// The parts: fences.cpp (fence lines and tags), fenced_blocks.cpp (the fence walk), line_kinds.cpp
// and text_state.cpp (reading unfenced lines), raw_code.cpp (unfenced code), language_detection.cpp.

#include "analysis/response/response.h"

#include <span>
#include <vector>

#include "analysis/response/fenced_blocks.h"
#include "analysis/response/fences.h"
#include "analysis/response/raw_code.h"
#include "analysis/response/scan_text.h"

namespace codebias::analysis {

using namespace response_scanning;

const char* to_string(Language language) {
  switch (language) {
    case Language::python: return "python";
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::javascript: return "javascript";
    case Language::typescript: return "typescript";
    case Language::java: return "java";
    case Language::unknown: break;
  }
  return "";
}

Language language_from_tag(std::string_view tag) {
  return classify_tag(tag).language;
}

std::string_view response_line(std::string_view text, int line) {
  if (line < 1) return {};
  std::size_t pos = 0;
  const bool has_cr = text.find('\r') != npos;
  for (int i = 1; i < line; ++i) {
    const std::size_t e = has_cr ? text.find_first_of("\r\n", pos) : text.find('\n', pos);
    if (e == npos) return {};
    pos = e + 1;
    if (text[e] == '\r' && pos < text.size() && text[pos] == '\n') ++pos;
  }
  const std::size_t e = has_cr ? text.find_first_of("\r\n", pos) : text.find('\n', pos);
  return text.substr(pos, e == npos ? npos : e - pos);
}

ReasoningView split_reasoning(std::string_view response) { return view_leading_trace(response); }

std::vector<CodeBlock> extract_code_blocks(const ReasoningView& split) {
  if (split.answer.empty()) return {};
  const std::vector<Line> lines = split_lines(split.answer, split.answer_first_line);
  FencedScan fenced = scan_fenced_blocks(lines);
  // No fences (or fences holding no definition, e.g. only sample output): look for raw code in
  // the text between them.
  add_raw_code(lines, fenced.gaps, fenced.blocks);
  return std::move(fenced.blocks);
}

}  // namespace codebias::analysis
