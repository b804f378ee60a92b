// Plain-text tables for the terminal (`codebias score --summary`): each column padded to its
// display width (UTF-8 aware: "±" is one column), columns two spaces apart, a rule of dashes under
// the header, no trailing spaces.
#pragma once

#include <string>
#include <vector>

namespace codebias::base {

// One line per row after the header and the rule. left_aligned[c] for text columns; the others
// (numbers, counts) are right-aligned. Every row has header.size() cells.
std::string text_table(const std::vector<std::string>& header, const std::vector<bool>& left_aligned,
                       const std::vector<std::vector<std::string>>& rows);

}  // namespace codebias::base
