// Placeholders ("1234 Main Street", "[Your Name]") and missing values ("N/A", "null").
#include "tasks/screening/analysis/resume_placeholders.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>

#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::has_phrase;
using text::normalized;
using text::vocabulary;

namespace {

bool is_template_bracket(sv value) {
  const std::size_t open = value.find_first_of("[<{");
  if (open == sv::npos) return false;
  const char close = value[open] == '[' ? ']' : value[open] == '<' ? '>' : '}';
  const std::size_t end = value.find(close, open + 1);
  return end != sv::npos && end > open + 1 && !has_digit(value.substr(open, end - open));
}

}  // namespace

bool is_placeholder(sv value) {
  if (is_template_bracket(value)) return true;
  const std::string n = normalized(value);
  const text::Vocabulary& v = vocabulary();
  if (std::find(v.placeholder_values.begin(), v.placeholder_values.end(), n) != v.placeholder_values.end()) return true;
  return std::any_of(v.placeholders.begin(), v.placeholders.end(), [&](const std::string& p) { return has_phrase(n, p); });
}

bool is_absent_value(sv value) {
  static const std::set<std::string> absent = {"null", "none", "nil", "n a", "na", "not applicable", "none listed"};
  return absent.count(normalized(value)) > 0;
}

bool is_missing_value(sv value) {
  static const std::set<std::string> missing = {
      "", "null", "none", "nil", "n a", "na", "not applicable", "not specified", "unknown", "not provided",
      "not available", "not mentioned", "not listed", "not stated", "not given", "none listed", "tbd", "undefined"};
  return missing.count(normalized(value)) > 0;
}

}  // namespace codebias::analysis::screening::resume_reading
