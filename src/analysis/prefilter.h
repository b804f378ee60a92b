// Deciding cheaply, and exactly, that code cannot refer to an attribute: the analyzer only
// recognises attributes through identifiers and string keys of at most kMaxAttributeNameLength
// bytes, so if none of them contains one of the attribute's prefilter words, parsing is useless.
#pragma once

#include <string_view>

#include "analysis/attributes.h"
#include "analysis/response.h"

namespace codebias::analysis {

inline constexpr size_t kMaxAttributeNameLength = 64;

bool may_reference(const AttributeSpec* attribute, std::string_view code, Language language);

}  // namespace codebias::analysis
