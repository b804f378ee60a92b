// Template values that are never a field's value, and values that mean "missing". Internal to
// resume_extraction.cpp and its parts.
#pragma once

#include <string>
#include <string_view>

namespace codebias::analysis::screening::resume_reading {

// A template value ("[Your Name]", "1234 Main Street", "XYZ University"), never a real value.
bool is_placeholder(std::string_view value);

// A value that says "no value": "", "null", "N/A", "not specified", ...
bool is_missing_value(std::string_view value);
// A value that says the person has none: "none", "null", "N/A", "not applicable" (JSON null too).
bool is_absent_value(std::string_view value);

}  // namespace codebias::analysis::screening::resume_reading
