// Small string helpers shared by every stage (base stage).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::base {

// "a, b, c" for join({"a", "b", "c"}, ", ").
inline std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// A number in its shortest usual form (printf "%g"): 2, 0.5, 52.5, 1e+06.
inline std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace codebias::base
