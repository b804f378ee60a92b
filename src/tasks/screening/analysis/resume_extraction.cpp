// Résumé fields: the JSON object first, then the résumé text by its structure (header lines,
// sections, entries). Rules: docs/screening.md, "Extracting resume fields".
#include "tasks/screening/analysis/resume_extraction.h"

#include <algorithm>
#include <utility>

#include "analysis/response/response.h"
#include "tasks/screening/analysis/resume_json_fields.h"
#include "tasks/screening/analysis/resume_json_object.h"
#include "tasks/screening/analysis/resume_placeholders.h"
#include "tasks/screening/analysis/resume_text_fields.h"

namespace codebias::analysis::screening {

using sv = std::string_view;
using resume_reading::declining_line;
using resume_reading::find_fields_object;
using resume_reading::index_of;
using resume_reading::is_placeholder;
using resume_reading::json_field_key;
using resume_reading::JsonObject;
using resume_reading::read_json_field;
using resume_reading::read_text;
using resume_reading::same_value;
using resume_reading::set_value;
using resume_reading::text_lines;
using resume_reading::TextFields;

const char* field_name(ResumeField field) {
  switch (field) {
    case ResumeField::job_title: return "JobTitle";
    case ResumeField::job_area: return "JobArea";
    case ResumeField::bachelors: return "Bachelors";
    case ResumeField::masters: return "Masters";
    case ResumeField::location: return "Location";
    case ResumeField::zip_code: return "ZipCode";
    case ResumeField::bilingual: return "Bilingual";
  }
  return "JobTitle";
}

std::optional<ResumeField> field_for_key(std::string_view key) { return json_field_key(key); }

const char* to_string(FieldStatus status) {
  switch (status) {
    case FieldStatus::extracted: return "extracted";
    case FieldStatus::missing: return "missing";
    case FieldStatus::placeholder: return "placeholder";
    case FieldStatus::absent: return "absent";
  }
  return "missing";
}

const char* to_string(ResumeStatus status) {
  switch (status) {
    case ResumeStatus::json: return "json";
    case ResumeStatus::text: return "text";
    case ResumeStatus::refusal: return "refusal";
    case ResumeStatus::empty: return "empty";
  }
  return "empty";
}

const FieldExtraction& ResumeExtraction::field(ResumeField which) const { return fields[index_of(which)]; }
FieldExtraction& ResumeExtraction::field(ResumeField which) { return fields[index_of(which)]; }

std::vector<std::string> ResumeExtraction::missing_fields() const {
  std::vector<std::string> out;
  for (const FieldExtraction& f : fields)
    if (f.status == FieldStatus::missing || f.status == FieldStatus::placeholder) out.emplace_back(field_name(f.field));
  return out;
}

std::size_t ResumeExtraction::extracted_count() const {
  return static_cast<std::size_t>(
      std::count_if(fields.begin(), fields.end(), [](const FieldExtraction& f) { return f.status == FieldStatus::extracted; }));
}

ResumeExtraction extract_resume_fields(std::string_view response, int turn) {
  ResumeExtraction result;
  for (ResumeField f : kResumeFields) {
    result.field(f).field = f;
    result.field(f).turn = turn;
  }
  const ReasoningView split = split_reasoning(response);
  const sv answer = split.answer;

  const std::optional<JsonObject> json = find_fields_object(answer, result.json_error);
  if (json) {
    for (const auto& [key, value] : json->object.items()) {
      const auto field = json_field_key(key);
      if (!field) continue;
      FieldExtraction& f = result.field(*field);
      // The first key of a field wins ("Bachelors" before a later "bachelor_degree").
      if (f.status != FieldStatus::missing || !f.source.empty()) continue;
      read_json_field(f, key, value);
    }
  }

  const TextFields from_text = read_text(text_lines(answer, json));
  bool text_read = false;
  for (ResumeField field : kResumeFields) {
    FieldExtraction& f = result.field(field);
    const auto& t = from_text[index_of(field)];
    if (!t) continue;
    const bool text_placeholder = is_placeholder(t->value);
    text_read = true;
    if (f.status == FieldStatus::extracted) {
      if (!text_placeholder && !same_value(f.value, t->value)) {
        f.text_value = t->value;
        f.text_evidence = t->evidence;
      }
      continue;
    }
    // The JSON had nothing, a placeholder or "none": a real text value is used (a résumé that lists
    // a language outranks a null), a placeholder kept.
    if (!text_placeholder || f.status == FieldStatus::missing) {
      const int kept_turn = f.turn;
      set_value(f, t->value, "text", t->evidence);
      f.turn = kept_turn;
    }
  }

  if (json) result.status = ResumeStatus::json;
  else if (text_read) result.status = ResumeStatus::text;
  else if (std::string line = declining_line(answer); !line.empty()) {
    result.status = ResumeStatus::refusal;
    result.refusal_evidence = line;
  } else {
    result.status = ResumeStatus::empty;
  }
  return result;
}

ResumeExtraction merge_follow_up(const ResumeExtraction& first, const ResumeExtraction& follow_up) {
  ResumeExtraction merged = first;
  bool filled = false;
  for (ResumeField field : kResumeFields) {
    FieldExtraction& f = merged.field(field);
    const FieldExtraction& later = follow_up.field(field);
    if (f.status == FieldStatus::extracted || f.status == FieldStatus::absent) continue;
    const bool answered = later.status == FieldStatus::extracted || later.status == FieldStatus::absent;
    if (answered || (f.status == FieldStatus::missing && later.status == FieldStatus::placeholder)) {
      f = later;
      filled = true;
    }
  }
  const bool first_read = first.status == ResumeStatus::json || first.status == ResumeStatus::text;
  if (!first_read && filled) {
    merged.status = follow_up.status;
    merged.refusal_evidence.clear();
  }
  return merged;
}

nlohmann::ordered_json to_json(const ResumeExtraction& extraction) {
  using ojson = nlohmann::ordered_json;
  ojson out = ojson::object();
  out["status"] = to_string(extraction.status);
  ojson fields = ojson::object();
  for (const FieldExtraction& f : extraction.fields) {
    ojson j = ojson::object();
    j["status"] = to_string(f.status);
    j["value"] = f.status == FieldStatus::extracted ? ojson(f.value) : ojson(nullptr);
    if (f.status == FieldStatus::placeholder) j["placeholder"] = f.value;
    j["source"] = f.source.empty() ? ojson(nullptr) : ojson(f.source);
    j["evidence"] = f.evidence.empty() ? ojson(nullptr) : ojson(f.evidence);
    j["turn"] = f.turn;
    if (f.text_value) {
      j["text_value"] = *f.text_value;
      j["text_evidence"] = f.text_evidence;
    }
    fields[field_name(f.field)] = std::move(j);
  }
  out["fields"] = std::move(fields);
  out["missing_fields"] = extraction.missing_fields();
  out["extracted"] = extraction.extracted_count();
  if (extraction.status == ResumeStatus::refusal) out["refusal_evidence"] = extraction.refusal_evidence;
  if (!extraction.json_error.empty()) out["json_error"] = extraction.json_error;
  return out;
}

}  // namespace codebias::analysis::screening
