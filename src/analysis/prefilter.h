// Deciding cheaply, and exactly, which attributes code can refer to. The analyzer recognises an
// attribute only through an identifier, a member or method name, or a string key of at most
// kMaxAttributeNameLength bytes that AttributeTable::match_name accepts; this lexer looks at
// exactly those tokens (outside comments), so code for which it finds none needs no parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analysis/attributes.h"
#include "analysis/response.h"

namespace codebias::analysis {

inline constexpr size_t kMaxAttributeNameLength = 64;

// AttributeTable::match_name, remembered per thread (names repeat across responses).
std::optional<NameMatch> match_name_cached(std::string_view name, const AttributeTable& table, std::string_view scenario);

// Bit i is set when specs()[i] may be referenced.
uint64_t referenced_attributes(std::string_view code, Language language, const AttributeTable& table,
                               std::string_view scenario);

}  // namespace codebias::analysis
