// Small text utilities for reading a résumé: characters, keys, line segments, markdown markers,
// "Label: value" lines. Internal to resume_extraction.cpp and its parts.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codebias::analysis::screening::resume_reading {

// Character classes of <cctype>, safe for any byte.
bool is_upper(char c);

bool is_alpha(char c);

// Whether any character of `s` is a digit.
bool has_digit(std::string_view s);

// Lower case letters and digits only: "Job_Title", "job title", "JobTitle" -> "jobtitle".
std::string compact_key(std::string_view s);

// The trimmed parts of `s` between any of the separators (matched left to right).
std::vector<std::string> split_any(std::string_view s, const std::vector<std::string>& separators);

// Segments of a résumé line: "a | b", "a — b", "a – b", "a - b", "a • b", tabs, parentheses.
std::vector<std::string> segments_of(std::string_view line);

// The trimmed parts of `s` between commas.
std::vector<std::string> comma_parts(std::string_view s);

// Markdown emphasis and list markers off a line: "- **Education:**" -> "Education:".
std::string plain_of(std::string_view raw);

// "Label: value" with a short label (no digits, at most five words); empty label otherwise.
std::pair<std::string, std::string> split_label(std::string_view plain);

// Prose rather than a field line: more than eight words, or ending in ".", ":" or "!".
bool is_sentence(std::string_view plain);

}  // namespace codebias::analysis::screening::resume_reading
