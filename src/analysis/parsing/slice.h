// Parsing less: most of a scoring function is if-chains about experience or skills that never
// touch a sensitive attribute. Before parsing Python, those statements are cut out of the parse
// (tree-sitter included ranges), and each is replaced in the IR by a `havoc` of the variables it
// assigns — exactly what the evaluation would have made of it: their attribute-independent part
// becomes unknown. A statement is only cut when a cheap scan proves the rest cannot depend on it
// in any other way (see is_removable in slice.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analysis/ir/ir.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis {

struct PythonSlice {
  std::vector<TSRange> ranges;  // the byte ranges to parse; empty = parse everything
  struct Removed {
    int line = 0;  // 1-based first line of the removed statement
    std::vector<std::string> assigned;
  };
  std::vector<Removed> removed;
};

// `mentions`: what referenced_attributes found in `code`.
PythonSlice slice_python(std::string_view code, std::span<const AttributeMention> mentions, uint64_t wanted_attributes);

// Puts a havoc statement for each removed statement into the function that contained it.
void insert_havocs(ir::Program& program, const PythonSlice& slice);

}  // namespace codebias::analysis
