// The JSON object of résumé fields in an answer: fenced or bare, keys matched loosely.
#include "tasks/screening/analysis/resume_json_object.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::lower;
using text::trim;

namespace {

std::optional<ResumeField> field_for_compact_key(const std::string& k) {
  static const std::vector<std::pair<std::vector<sv>, ResumeField>> keys = {
      {{"jobtitle", "title", "currentjobtitle", "currenttitle", "position", "currentposition", "role", "currentrole",
        "jobposition", "occupation"},
       ResumeField::job_title},
      {{"jobarea", "area", "field", "industry", "fieldofwork", "jobfield", "workarea", "sector", "areaofwork",
        "professionalfield", "jobcategory"},
       ResumeField::job_area},
      {{"location", "city", "citystate", "cityandstate", "currentlocation", "citystatecountry"}, ResumeField::location},
      {{"zipcode", "zip", "postalcode", "postcode", "zippostalcode"}, ResumeField::zip_code},
      {{"bilingual", "languages", "language", "otherlanguages", "languagesspoken", "secondlanguage",
        "spokenlanguages", "otherlanguage", "languagesbesidesenglish"},
       ResumeField::bilingual},
  };
  for (const auto& [names, field] : keys)
    if (std::find(names.begin(), names.end(), k) != names.end()) return field;
  // "Bachelors", "bachelor's degree", "BachelorsUniversity", "masters_institution".
  if (k.starts_with("bachelor") || k == "undergraduate" || k == "undergrad" || k == "undergraduateuniversity")
    return ResumeField::bachelors;
  if ((k.starts_with("master") && k != "mastery") || k == "graduateschool" || k == "graduate" || k == "graduateuniversity")
    return ResumeField::masters;
  return std::nullopt;
}

}  // namespace

std::optional<ResumeField> json_field_key(sv key) { return field_for_compact_key(compact_key(key)); }

namespace {

std::size_t field_keys_in(const nlohmann::json& object) {
  std::size_t n = 0;
  for (auto it = object.begin(); it != object.end(); ++it) n += json_field_key(it.key()) ? 1 : 0;
  return n;
}

std::size_t line_of_offset(sv s, std::size_t offset) {
  std::size_t line = 0;
  for (std::size_t i = 0; i < offset && i < s.size(); ++i)
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n'))) ++line;
  return line;
}

// The end of the balanced {...} that starts at `open` (strings respected); npos when unbalanced.
std::size_t matching_brace(sv s, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return i;
  }
  return sv::npos;
}

// The object itself, or the one object value of it holding the field keys ({"resume": {...}}).
std::optional<nlohmann::json> fields_object(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  if (field_keys_in(value) > 0) return value;
  for (const auto& [key, inner] : value.items())
    if (inner.is_object() && field_keys_in(inner) > 0) return inner;
  return std::nullopt;
}

bool mentions_field_key(sv s) {
  static const std::regex key(R"re("([^"\\]{1,40})"\s*:)re");
  const std::string text(s);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator(); ++it)
    if (json_field_key((*it)[1].str())) return true;
  return false;
}

}  // namespace

std::optional<JsonObject> find_fields_object(sv answer, std::string& error) {
  const std::vector<std::string> lines = text::lines_of(answer);
  // Fenced blocks first (the prompt asks for ```json), then bare objects outside fences.
  std::vector<std::pair<std::size_t, std::size_t>> fences;  // content lines [first, last]
  std::vector<std::string> tags;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (!t.starts_with("```")) continue;
    std::size_t j = i + 1;
    while (j < lines.size() && !trim(lines[j]).starts_with("```")) ++j;
    fences.emplace_back(i + 1, j == 0 ? 0 : j - 1);
    tags.push_back(lower(trim(sv(t).substr(3))));
    i = j;
  }
  auto block_text = [&](std::size_t first, std::size_t last) {
    std::string out;
    for (std::size_t k = first; k <= last && k < lines.size(); ++k) out += lines[k] + "\n";
    return out;
  };
  std::vector<JsonObject> found;
  for (std::size_t f = 0; f < fences.size(); ++f) {
    const auto [first, last] = fences[f];
    if (first > last) continue;
    const std::string body = trim(block_text(first, last));
    if (body.empty() || body.front() != '{') continue;
    const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
    if (parsed.is_discarded()) {
      if (error.empty() && (tags[f] == "json" || mentions_field_key(body)))
        error = "line " + std::to_string(first + 1) + ": the ```" + tags[f] + " block is not JSON";
      continue;
    }
    if (auto object = fields_object(parsed)) return JsonObject{*object, first - 1, last + 1, "fenced"};
  }
  std::vector<bool> in_fence(lines.size(), false);
  for (const auto& [first, last] : fences)
    for (std::size_t k = first == 0 ? 0 : first - 1; k <= last + 1 && k < lines.size(); ++k) in_fence[k] = true;
  std::size_t at = answer.find('{');
  while (at != sv::npos) {
    const std::size_t line = line_of_offset(answer, at);
    const std::size_t close = matching_brace(answer, at);
    if (line < in_fence.size() && in_fence[line]) {
      at = answer.find('{', at + 1);
      continue;
    }
    if (close == sv::npos) {
      if (error.empty() && mentions_field_key(answer.substr(at)))
        error = "line " + std::to_string(line + 1) + ": a JSON object is not closed";
      break;
    }
    const sv candidate = answer.substr(at, close - at + 1);
    const nlohmann::json parsed = nlohmann::json::parse(candidate, nullptr, false);
    if (!parsed.is_discarded()) {
      if (auto object = fields_object(parsed)) return JsonObject{*object, line, line_of_offset(answer, close), "bare"};
      at = answer.find('{', close + 1);
      continue;
    }
    if (error.empty() && mentions_field_key(candidate))
      error = "line " + std::to_string(line + 1) + ": the {...} object is not JSON";
    at = answer.find('{', at + 1);
  }
  return std::nullopt;
}

}  // namespace codebias::analysis::screening::resume_reading
