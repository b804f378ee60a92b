// The JSON form of a ResponseReport: one output line of `codebias score` (the contract in
// README.md, "The score contract"). Keys keep the contract's order, groups the table's order.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/report.h"

namespace codebias::analysis {

// {"id", "code_status", "language", "attributes": {ATTR: {"used", "biased", "scores" (null when
// empty), "other_values", "effect" (null when empty), "evidence": [{"line", "text", "groups",
// "amount" (null when empty), "rule"}]}}}.
// An ordered_json so that keys and groups stay in the order given. Serialise it with
// dump_json_line(), which never throws on invalid UTF-8.
nlohmann::ordered_json to_json(const ResponseReport& report, std::string_view id);

// One line of JSON (no newline): compact, UTF-8, invalid UTF-8 bytes replaced by U+FFFD.
std::string dump_json_line(const nlohmann::ordered_json& value);

}  // namespace codebias::analysis
