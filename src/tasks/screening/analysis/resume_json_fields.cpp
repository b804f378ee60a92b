// A field's value from the JSON object: degrees to institutions, places, ZIPs, languages.
#include "tasks/screening/analysis/resume_json_fields.h"

#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/resume_degrees.h"
#include "tasks/screening/analysis/resume_languages.h"
#include "tasks/screening/analysis/resume_placeholders.h"
#include "tasks/screening/analysis/resume_places.h"
#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::normalized;
using text::trim;

void set_value(FieldExtraction& f, std::string value, std::string source, std::string evidence) {
  value = trim(value);
  f.status = is_placeholder(value) ? FieldStatus::placeholder : FieldStatus::extracted;
  f.value = std::move(value);
  f.source = std::move(source);
  f.evidence = trim(evidence);
}

namespace {

// The institution of a Bachelors / Masters value: the value itself, or the institution its
// degree phrase names ("B.S. in Biology, Duke University" -> "Duke University"); empty when the
// value names a degree but no institution.
std::optional<std::string> institution_value(const std::string& value) {
  const std::vector<DegreeMention> mentions = degree_mentions(value);
  if (mentions.empty()) return value;
  std::string name = institution_of_mention(value, mentions.front(), mentions.size() > 1 ? mentions[1].begin : value.size());
  if (name.empty()) name = institution_in_line(value);
  if (name.empty()) return std::nullopt;
  return name;
}

// One JSON value as a field's text ("" for a missing one).
std::string json_value_text(const nlohmann::json& value, ResumeField field) {
  if (value.is_string()) return trim(value.get<std::string>());
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number()) return value.dump();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_array()) {
    std::string joined;
    for (const auto& element : value)
      if (element.is_string() && !is_missing_value(element.get<std::string>()))
        joined += (joined.empty() ? "" : ", ") + trim(element.get<std::string>());
    return joined;
  }
  if (value.is_object()) {
    auto member = [&](std::initializer_list<sv> names) -> std::string {
      for (const auto& [key, inner] : value.items())
        for (sv name : names)
          if (compact_key(key) == name && inner.is_string()) return trim(inner.get<std::string>());
      return "";
    };
    if (field == ResumeField::bachelors || field == ResumeField::masters)
      return member({"university", "institution", "school", "college", "name"});
    if (field == ResumeField::location) {
      const std::string city = member({"city"}), region = member({"state", "province", "country"});
      return city.empty() ? "" : region.empty() ? city : city + ", " + region;
    }
  }
  return "";
}

}  // namespace

void read_json_field(FieldExtraction& f, const std::string& key, const nlohmann::json& json_value) {
  const std::string raw = json_value_text(json_value, f.field);
  f.evidence = key;
  if (is_missing_value(raw) && !(f.field == ResumeField::bilingual && json_value.is_boolean())) {
    f.status = json_value.is_null() || is_absent_value(raw) ? FieldStatus::absent : FieldStatus::missing;
    f.source = "json";
    return;
  }
  std::string value = raw;
  switch (f.field) {
    case ResumeField::bachelors:
    case ResumeField::masters: {
      if (is_placeholder(raw)) break;
      const auto name = institution_value(raw);
      if (!name) {  // a degree without its institution: not the column's value
        f.status = FieldStatus::missing;
        f.source = "json";
        return;
      }
      value = *name;
      break;
    }
    case ResumeField::location:
      if (const auto place = place_in_line(raw); place && !is_placeholder(raw)) value = place->location;
      break;
    case ResumeField::zip_code: {
      if (is_placeholder(raw)) break;
      static const std::regex zip(R"((?:^|\D)(\d{5}(?:-\d{4})?)(?:\D|$))");
      std::smatch m;
      if (!std::regex_search(raw, m, zip)) {  // not a US ZIP (a Canadian postcode, a phone number)
        f.status = FieldStatus::missing;
        f.source = "json";
        return;
      }
      value = m[1];
      break;
    }
    case ResumeField::bilingual: {
      const std::string n = normalized(raw);
      if (n == "yes" || n == "no" || n == "true" || n == "false") {
        value = (n == "yes" || n == "true") ? "yes" : "no";
        break;
      }
      if (const auto languages = bilingual_value(languages_in(raw), true)) value = *languages;
      break;
    }
    case ResumeField::job_title:
    case ResumeField::job_area: break;
  }
  set_value(f, value, "json", key);
}

}  // namespace codebias::analysis::screening::resume_reading
