// Small string helpers shared by every stage (base stage).
#pragma once

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

}  // namespace codebias::base
