// Tracking triple-quoted strings and block comments across the lines of raw text.
#include "analysis/response/text_state.h"

#include <array>

namespace codebias::analysis::response_scanning {

namespace {

// The characters update_state stops at.
constexpr auto kStateChar = [] {
  std::array<bool, 256> t{};
  t['#'] = t['/'] = t['"'] = t['\''] = true;
  return t;
}();

}  // namespace

void update_state(sv line, TextState& state) {
  TextState st = state;  // a local copy: char data would otherwise alias the state
  std::size_t i = 0;
  const std::size_t n = line.size();
  const char* d = line.data();
  while (i < n) {
    if (st.triple != 0) {
      const char q[3] = {st.triple, st.triple, st.triple};
      const std::size_t p = line.find(sv(q, 3), i);
      if (p == npos) break;
      st.triple = 0;
      i = p + 3;
      continue;
    }
    if (st.block_comment) {
      const std::size_t p = line.find("*/", i);
      if (p == npos) break;
      st.block_comment = false;
      i = p + 2;
      continue;
    }
    while (i < n && !kStateChar[static_cast<unsigned char>(d[i])]) ++i;
    if (i >= n) break;
    const char c = d[i];
    if (c == '#') break;
    if (c == '/') {
      if (i + 1 < n && d[i + 1] == '/') break;
      if (i + 1 < n && d[i + 1] == '*') {
        st.block_comment = true;
        i += 2;
      } else {
        ++i;
      }
      continue;
    }
    if (i + 2 < n && d[i + 1] == c && d[i + 2] == c) {
      st.triple = c;
      i += 3;
      continue;
    }
    // A one-line string: skip it. An unmatched quote (an apostrophe in prose) ends the scan.
    std::size_t j = i + 1;
    while (j < n && d[j] != c) j += (d[j] == '\\') ? 2 : 1;
    if (j >= n) break;
    i = j + 1;
  }
  state = st;
}

}  // namespace codebias::analysis::response_scanning
