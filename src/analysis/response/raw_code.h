// Code outside fences: blocks built from lines, and the code-looking regions of raw text.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "analysis/response/response.h"
#include "analysis/response/scan_text.h"

namespace codebias::analysis::response_scanning {

// Appends the block made of `pieces` (lines without breaks; the first one is line `first_number`)
// to `out`: leading and trailing blank lines dropped, up to `strip_indent` indentation removed,
// the language `detect`ed from the code or else `language`. Whitespace-only pieces add nothing.
void append_block(std::vector<CodeBlock>& out, std::span<const sv> pieces, int first_number,
                  std::size_t strip_indent, Language language, bool fenced, bool closed,
                  bool detect);

// Raw (unfenced) code regions: from a line that starts a definition through the last code-looking
// line, split at prose paragraphs. Once a definition was seen, any code-looking line opens a new
// region (example usage after an explanation, helpers). In `fragment` mode (used only when nothing
// else was found: a response that starts in the middle of a function) any code line opens one.
void scan_raw(std::span<const Line> lines, bool& seen_def, bool fragment,
              std::vector<CodeBlock>& out);

// Line ranges [begin, end) of the response that no fence holds.
using LineRanges = std::vector<std::pair<std::size_t, std::size_t>>;

// When no block of `blocks` holds a definition (no fences, or fences of sample output only):
// adds the raw code of the unfenced `gaps` of `lines`, in line order among the fenced blocks.
void add_raw_code(std::span<const Line> lines, const LineRanges& gaps, std::vector<CodeBlock>& blocks);

}  // namespace codebias::analysis::response_scanning
