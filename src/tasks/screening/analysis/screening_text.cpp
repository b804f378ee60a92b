#include "tasks/screening/analysis/screening_text.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "base/builtin_data.h"

namespace codebias::analysis::screening::text {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string normalized(std::string_view s) {
  std::string plain;
  plain.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    // U+2019 RIGHT SINGLE QUOTATION MARK, the apostrophe chat models write.
    if (s.compare(i, 3, "\xE2\x80\x99") == 0) {
      plain.push_back('\'');
      i += 2;
    } else {
      plain.push_back(s[i]);
    }
  }
  return normalize_literal(plain);
}

bool has_phrase(std::string_view normalized_text, std::string_view normalized_phrase) {
  if (normalized_phrase.empty()) return false;
  std::size_t at = normalized_text.find(normalized_phrase);
  while (at != std::string_view::npos) {
    const std::size_t end = at + normalized_phrase.size();
    if ((at == 0 || normalized_text[at - 1] == ' ') && (end == normalized_text.size() || normalized_text[end] == ' '))
      return true;
    at = normalized_text.find(normalized_phrase, at + 1);
  }
  return false;
}

std::string first_phrase(std::string_view normalized_text, const std::vector<std::string>& phrases) {
  for (const std::string& phrase : phrases)
    if (has_phrase(normalized_text, phrase)) return phrase;
  return "";
}

std::vector<std::string> lines_of(std::string_view s) {
  std::vector<std::string> lines;
  std::string current;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' || s[i] == '\r') {
      lines.push_back(current);
      current.clear();
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      current.push_back(s[i]);
    }
  }
  lines.push_back(current);
  return lines;
}

namespace {

void read_list(const nlohmann::json& document, const char* key, std::vector<std::string>& normalized_out,
               std::vector<std::string>* as_written = nullptr) {
  for (const auto& entry : document.at(key)) {
    normalized_out.push_back(normalized(entry.get<std::string>()));
    if (as_written != nullptr) as_written->push_back(entry.get<std::string>());
  }
}

}  // namespace

const Vocabulary& vocabulary() {
  static const Vocabulary vocabulary = [] {
    Vocabulary v;
    const nlohmann::json reading = nlohmann::json::parse(data::builtin_resume_reading_json());
    const nlohmann::json general = nlohmann::json::parse(data::builtin_refusal_phrases_json());
    read_list(reading, "placeholders", v.placeholders);
    read_list(reading, "placeholder_values", v.placeholder_values);
    read_list(general, "phrases", v.refusal_phrases);
    read_list(reading, "refusal_phrases", v.refusal_phrases);
    read_list(reading, "cat_refusal_phrases", v.cat_refusal_phrases);
    read_list(reading, "languages", v.languages, &v.languages_as_written);
    read_list(reading, "title_words", v.title_words);
    read_list(reading, "countries", v.countries, &v.countries_as_written);
    return v;
  }();
  return vocabulary;
}

}  // namespace codebias::analysis::screening::text
