// Résumé fields from the text by its structure: the lines with their sections, and the fields read
// from them. Internal to resume_extraction.cpp and its parts.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tasks/screening/analysis/resume_extraction.h"
#include "tasks/screening/analysis/resume_json_object.h"

namespace codebias::analysis::screening::resume_reading {

// The résumé section a line is in; header: before the first section.
enum class Section { header, education, experience, skills, languages, contact, other };

// A non-blank line of the résumé text with its section.
struct TextLine {
  std::size_t index = 0;  // 0-based line of the answer
  std::string raw;        // trimmed
  std::string plain;      // markdown off
  Section section = Section::header;
  bool bullet = false;    // starts a list item
  bool blank_before = false;
  bool section_header = false;
};

// A field's value read from the text, and the line it came from.
struct TextValue {
  std::string value, evidence;
};

using TextFields = std::array<std::optional<TextValue>, kResumeFields.size()>;

// The answer's non-blank lines outside the JSON object (fence and rule lines skipped), each with
// its section.
std::vector<TextLine> text_lines(std::string_view answer, const std::optional<JsonObject>& json);

// The field's index in kResumeFields order.
std::size_t index_of(ResumeField f);

// Every field the text states (title, area, degrees, place, languages).
TextFields read_text(const std::vector<TextLine>& lines);

// Equal once normalized (text::normalized).
bool same_value(const std::string& a, const std::string& b);

// The first line holding a refusal phrase, trimmed; empty for none.
std::string declining_line(std::string_view answer);

}  // namespace codebias::analysis::screening::resume_reading
