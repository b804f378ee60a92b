// Text helpers the screening readers share (résumé fields, CAT answers): normalisation for
// whole-word phrase matching and the vocabulary of data/screening/resume_reading.json.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis::screening::text {

std::string trim(std::string_view s);
std::string lower(std::string_view s);

// normalize_literal (attributes/attributes.h) after typographic apostrophes become plain ones:
// "Master’s" and "Master's" both give "masters".
std::string normalized(std::string_view s);

// `phrase` (normalized) occurs in `text` (normalized) as whole words.
bool has_phrase(std::string_view normalized_text, std::string_view normalized_phrase);

// The first phrase of `phrases` (normalized) found in `normalized_text`; "" when none.
std::string first_phrase(std::string_view normalized_text, const std::vector<std::string>& phrases);

// The lines of `s`, split at "\n", "\r\n" and a lone "\r" (as analysis/response/response.h counts).
std::vector<std::string> lines_of(std::string_view s);

// Vocabulary lists of data/screening/resume_reading.json, normalized (languages and countries
// also kept as written: as_written[i] is the spelling of normalized[i]).
struct Vocabulary {
  std::vector<std::string> placeholders;        // phrases, anywhere in a value
  std::vector<std::string> placeholder_values;  // whole values only
  std::vector<std::string> refusal_phrases;      // data/analysis/refusal_phrases.json + resume ones
  std::vector<std::string> cat_refusal_phrases;
  std::vector<std::string> languages, languages_as_written;
  std::vector<std::string> title_words;
  std::vector<std::string> countries, countries_as_written;
};
const Vocabulary& vocabulary();

}  // namespace codebias::analysis::screening::text
