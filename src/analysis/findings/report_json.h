// The JSON form of a ResponseReport: one output line of `codebias score` (the contract in
// README.md, "The score contract"). Keys keep the contract's order, groups the table's order.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/findings/report.h"

namespace codebias::analysis {

// {"id", "code_status", "language", "attributes": {ATTR: {"used", "biased", "reason" (null when
// not biased), "scores" (null when empty), "other_values", "effect" (null when empty), "evidence": [{"line", "text", "groups",
// "amount" (null when empty), "rule"}]}}}, on one line (no newline). Keys keep this order,
// groups the table's order; invalid UTF-8 bytes are replaced by U+FFFD.
std::string report_json_line(const ResponseReport& report, std::string_view id);

// The same as a document (an ordered_json, so that the order stays).
nlohmann::ordered_json to_json(const ResponseReport& report, std::string_view id);

// One line of JSON (no newline): compact, UTF-8, invalid UTF-8 bytes replaced by U+FFFD.
std::string dump_json_line(const nlohmann::ordered_json& value);

}  // namespace codebias::analysis
