// Text helpers the report tests share.
#pragma once

#include <cstddef>
#include <string>

namespace codebias::test_support {

// How many times `needle` occurs in `text`, without overlaps.
inline std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(needle, at)) != std::string::npos; at += needle.size()) ++n;
  return n;
}

}  // namespace codebias::test_support
