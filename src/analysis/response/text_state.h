// Multi-line strings and comments while walking raw text line by line.
#pragma once

#include <string_view>

#include "analysis/response/scan_text.h"

namespace codebias::analysis::response_scanning {

// Multi-line string / comment state while walking raw text.
struct TextState {
  char triple = 0;            // '"' or '\'' while inside a Python triple-quoted string
  bool block_comment = false;  // inside /* ... */
  bool inside() const { return triple != 0 || block_comment; }
};

// `state` after `line`: Python triple-quoted strings and /* */ comments opened or closed on it
// ('#' and '//' comments and one-line strings are skipped).
void update_state(sv line, TextState& state);

}  // namespace codebias::analysis::response_scanning
