// Markdown fences in a response: the opening line and its language tag, the closing line, and
// fences glued to text on the same line.
#pragma once

#include <cstddef>
#include <string_view>

#include "analysis/response/response.h"
#include "analysis/response/scan_text.h"

namespace codebias::analysis::response_scanning {

enum class TagKind { none, supported, other_language, unrecognized };

struct TagInfo {
  TagKind kind = TagKind::none;
  Language language = Language::unknown;
};

// The kind and language of a fence's info string ("python title=x", "{.cpp}", "text", "").
TagInfo classify_tag(sv info);

struct FenceOpen {
  char ch = '`';
  std::size_t len = 0;
  std::size_t indent = 0;
  sv info;
};

// A line that starts (after indentation) with ``` or ~~~ (3 or more).
bool parse_fence_start(sv line, FenceOpen& f);

// A line of only `ch`, at least `len` of them (indentation and trailing spaces allowed).
bool is_closing_fence(sv line, char ch, std::size_t len);

constexpr bool is_tag_char(char c) {
  return is_ident_char(c) || c == '+' || c == '#' || c == '-' || c == '.';
}

// Text glued before a backtick fence on the same line: "...skills```python" or "return x```".
struct GluedFence {
  sv prefix;  // the text before the fence (not blank)
  std::size_t len = 0;
  sv tag;     // word after the fence, possibly empty
};

bool parse_glued_fence(sv line, GluedFence& g);

}  // namespace codebias::analysis::response_scanning
