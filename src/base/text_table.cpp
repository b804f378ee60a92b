#include "base/text_table.h"

#include <algorithm>
#include <cstddef>

namespace codebias::base {
namespace {

// Code points, not bytes: continuation bytes (10xxxxxx) do not start a column.
std::size_t display_width(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

std::string text_table(const std::vector<std::string>& header, const std::vector<bool>& left_aligned,
                       const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = display_width(header[c]);
    for (const auto& row : rows) width[c] = std::max(width[c], display_width(row[c]));
  }
  std::string out;
  const auto add_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - display_width(row[c]), ' ');
      if (c > 0) line += "  ";
      line += left_aligned[c] ? row[c] + pad : pad + row[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  };
  add_row(header);
  std::size_t total = 0;
  for (std::size_t c = 0; c < width.size(); ++c) total += width[c] + (c > 0 ? 2 : 0);
  out += std::string(total, '-') + '\n';
  for (const auto& row : rows) add_row(row);
  return out;
}

}  // namespace codebias::base
