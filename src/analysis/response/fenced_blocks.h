// The fenced code blocks of an answer, and the line ranges between them.
#pragma once

#include <span>
#include <vector>

#include "analysis/response/raw_code.h"
#include "analysis/response/response.h"
#include "analysis/response/scan_text.h"

namespace codebias::analysis::response_scanning {

struct FencedScan {
  std::vector<CodeBlock> blocks;  // fenced blocks, and the raw code a stray closing fence ends
  LineRanges gaps;                // the unfenced line ranges, in order
};

// Walks `lines` (the answer's) fence by fence: ``` / ~~~ fences with or without tags, fences
// glued to text, restarts inside an open block, short and stray closing fences.
FencedScan scan_fenced_blocks(std::span<const Line> lines);

}  // namespace codebias::analysis::response_scanning
