// The C and C++ library as the C-family lowering reads it: the calls the evaluator follows and
// what a declared type's text says about its container kind.
#pragma once

#include <string_view>

#include "analysis/front_ends/front_end.h"

namespace codebias::analysis::front_ends::c_family {

// The C and C++ library calls the evaluator follows (ir::Library).
inline constexpr lowering::LibraryName kMethods[] = {
    {"c_str", ir::kSameValue},
    {"str", ir::kSameValue},     // std::ostringstream
    {"string", ir::kSameValue},  // std::filesystem::path
    {"value", ir::kSameValue},   // std::optional
    {"toLower", ir::kSameValue},  // Qt's QString
    {"toUpper", ir::kSameValue},
    {"compare", ir::kOrder},
    {"find", ir::kSubstring | ir::kHasKey},
    {"contains", ir::kSubstring | ir::kHasItem},
    {"count", ir::kHasKey | ir::kHasItem},  // also std::count(v.begin(), v.end(), x), as lowered
    {"at", ir::kEntry},
    {"push_back", ir::kAppend},
    {"size", ir::kLength},
};
inline constexpr lowering::LibraryName kFunctions[] = {
    {"strcmp", ir::kOrder},
    {"strcasecmp", ir::kOrder},
    {"stricmp", ir::kOrder},
    {"_stricmp", ir::kOrder},
    {"strncmp", ir::kOrder},
    {"strncasecmp", ir::kOrder},
    {"wcscmp", ir::kOrder},
    {"strcoll", ir::kOrder},
    {"string", ir::kConvert},  // std::string(count, char); with one argument it is lowered away
    // also std::clamp, fmin / fmax, fabs / labs and floor / ceil / trunc / lround, as lowered
    {"max", ir::kMaximum},
    {"min", ir::kMinimum},
    {"abs", ir::kAbsolute},
    {"round", ir::kConvert},
    // std::any_of(v.begin(), v.end(), f) and std::ranges::any_of(v, f), as lowered: any_of(v, f)
    {"any_of", ir::kAny},
    {"all_of", ir::kAll},
    {"none_of", ir::kNone},
};

bool contains(std::string_view hay, std::string_view needle);

// A map / Map type (std::map, std::unordered_map, QMap, ...).
bool is_map_type(std::string_view type);

// A sequence type (std::vector, std::set, std::list, std::deque, std::array, initializer lists).
bool is_sequence_type(std::string_view type);

// `s` without leading and trailing spaces, tabs and line breaks.
std::string_view trim(std::string_view s);

}  // namespace codebias::analysis::front_ends::c_family
