// Setting a field's value, and reading one from a JSON value. Internal to resume_extraction.cpp and
// its parts.
#pragma once

#include <string>

#include "tasks/screening/analysis/resume_extraction.h"

namespace codebias::analysis::screening::resume_reading {

// `f` takes `value` (trimmed) as extracted, or as a placeholder when it is one.
void set_value(FieldExtraction& f, std::string value, std::string source, std::string evidence);

// `f` from the JSON value under `key`: missing, a placeholder, or the field's reading of it
// (degrees to institutions, places, ZIPs, languages).
void read_json_field(FieldExtraction& f, const std::string& key, const nlohmann::json& json_value);

}  // namespace codebias::analysis::screening::resume_reading
