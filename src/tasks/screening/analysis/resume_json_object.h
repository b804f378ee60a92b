// The JSON object of résumé fields in an answer, and the field a key names. Internal to
// resume_extraction.cpp and its parts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tasks/screening/analysis/resume_extraction.h"

namespace codebias::analysis::screening::resume_reading {

// The fields object of an answer and where it stands.
struct JsonObject {
  nlohmann::json object;
  std::size_t first_line = 0, last_line = 0;  // 0-based, inclusive
  std::string where;                          // "fenced" | "bare"
};

// The field a JSON key names (matched as compact_key); empty for other keys.
std::optional<ResumeField> json_field_key(std::string_view key);

// Every {...} of the answer in text order; a parse failure of one that looks like the fields
// object is reported in `error`.
std::optional<JsonObject> find_fields_object(std::string_view answer, std::string& error);

}  // namespace codebias::analysis::screening::resume_reading
