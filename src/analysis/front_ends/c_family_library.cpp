// What C and C++ type names say about containers, and text trimming for the C-family lowering.
#include "analysis/front_ends/c_family_library.h"

namespace codebias::analysis::front_ends::c_family {

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

bool is_map_type(std::string_view type) { return contains(type, "map") || contains(type, "Map"); }

bool is_sequence_type(std::string_view type) {
  return contains(type, "vector") || contains(type, "set") || contains(type, "list") || contains(type, "deque") ||
         contains(type, "array") || contains(type, "initializer_list");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

}  // namespace codebias::analysis::front_ends::c_family
