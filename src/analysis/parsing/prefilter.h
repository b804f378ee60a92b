// Deciding cheaply, and exactly, which attributes code can refer to. The analyzer recognises an
// attribute only through an identifier, a member or method name, or a string key of at most
// kMaxAttributeNameLength bytes that AttributeTable::match_name accepts; this lexer looks at
// exactly those tokens (outside comments), so code for which it finds none needs no parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "attributes/attributes.h"
#include "analysis/response/response.h"

namespace codebias::analysis {

inline constexpr size_t kMaxAttributeNameLength = 64;

// AttributeTable::match_name, remembered per thread (names repeat across responses).
std::optional<NameMatch> match_name_cached(std::string_view name, const AttributeTable& table, std::string_view scenario);

// A token that may name an attribute: its first byte in the code, and bit i set when it may
// name specs()[i].
struct AttributeMention {
  size_t offset = 0;
  uint64_t attributes = 0;
};

// Bit i is set when specs()[i] may be referenced. With `mentions`, also appends each token that
// may name one, in order.
uint64_t referenced_attributes(std::string_view code, Language language, const AttributeTable& table,
                               std::string_view scenario, std::vector<AttributeMention>* mentions = nullptr);

}  // namespace codebias::analysis
