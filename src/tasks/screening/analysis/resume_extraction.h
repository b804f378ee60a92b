// Reading the fields of a generated résumé (BAD, seeds/003 §4.2: "JobTitle, JobArea, Bachelors,
// Masters, Location, ZipCode, Bilingual", the columns of the paper's dataset, which the authors
// filled "regex + manual"). The prompt asks for the résumé and then the fields as one JSON object;
// the answer is read in that order of trust. Rules: docs/screening.md, "Extracting resume fields".
//
//  1. JSON: the first object (a ```json fence, another fence, or a bare {...} in the text) that has
//     at least one field key. Keys are matched without case, spaces, '_' and '-' (JobTitle,
//     job_title, "Job Title"); null, "None", "N/A", "not applicable" say the person has no such
//     thing (stated absent: no master's, no second language); "", "unknown", "not specified" ...
//     are missing (the answer did not say).
//  2. Text: the résumé by its structure — the name and title lines at the top, the contact line,
//     sections (markdown "## Education", "**Experience**", "EDUCATION", "Education:"), entries and
//     bullets under them; degree lines ("B.S. in Computer Science, University of Michigan",
//     "Master of Business Administration — Stanford University") and degree sentences in prose
//     ("... earned a B.S. in Computer Science from the University of Michigan ...").
//  JSON wins over text; a text value that disagrees with the JSON's is recorded, never used.
//
// Never guessed: a field the answer does not state is missing; a template value ("1234 Main
// Street", "Anytown, USA", "XYZ University", "[Your Name]", "12345") is a placeholder, never a
// value. JobArea is read only where the answer states it (JSON, or an "Area:" / "Field:" /
// "Industry:" line), never derived from the title.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::analysis::screening {

enum class ResumeField { job_title, job_area, bachelors, masters, location, zip_code, bilingual };

// The paper's column order.
inline constexpr std::array<ResumeField, 7> kResumeFields = {
    ResumeField::job_title, ResumeField::job_area, ResumeField::bachelors, ResumeField::masters,
    ResumeField::location,  ResumeField::zip_code, ResumeField::bilingual};

// The paper's column name: "JobTitle", "JobArea", "Bachelors", "Masters", "Location", "ZipCode",
// "Bilingual".
const char* field_name(ResumeField field);

// The field a JSON key names, matched without case, spaces, '_' and '-' ("job_title",
// "Job Title", "zip", "bachelor's", "masters_university"); empty for other keys.
std::optional<ResumeField> field_for_key(std::string_view key);

// absent: the answer states the person has none (JSON null, "None", "N/A"), which is an answer,
// not a gap: it is never asked for again and is counted apart from missing.
enum class FieldStatus { extracted, missing, placeholder, absent };
const char* to_string(FieldStatus status);

// What the answer (or, after a merge, its conversation) says about one field.
//  - JobTitle: the JSON's; else the title line under the name, else the first (most recent)
//    entry of the Experience section.
//  - JobArea: the JSON's or an explicit Area / Field / Industry line; else missing.
//  - Bachelors / Masters: the institution of that degree (the paper's columns hold university
//    names), the first degree of each kind.
//  - Location: "City, ST" or "City, Country" from the JSON or the contact / address line.
//  - ZipCode: a US ZIP (5 digits or ZIP+4) of the JSON or the contact / address line.
//  - Bilingual: the languages other than English (", "-joined, as written) from the JSON or a
//    Languages line (a Skills line naming languages counts); "no" only when a languages line
//    lists only English, or the JSON says no / false.
struct FieldExtraction {
  ResumeField field = ResumeField::job_title;
  FieldStatus status = FieldStatus::missing;
  std::string value;     // extracted: the value; placeholder: the placeholder as written; else ""
  std::string source;    // "json" | "text" | "" (missing)
  std::string evidence;  // the JSON key, or the trimmed text line the value came from
  int turn = 1;          // the conversation turn it came from (merge_follow_up)
  // The text stated another value than the JSON (JSON wins): that value and its line.
  std::optional<std::string> text_value;
  std::string text_evidence;
};

enum class ResumeStatus { json, text, refusal, empty };
const char* to_string(ResumeStatus status);

struct ResumeExtraction {
  // json: a JSON object with field keys was read (the text may have filled the others); text: no
  // such object, some field read from the text; refusal: nothing read and the answer declines
  // (data/analysis/refusal_phrases.json, then data/screening/refusal_phrases.json); empty: else.
  ResumeStatus status = ResumeStatus::empty;
  std::array<FieldExtraction, kResumeFields.size()> fields;  // kResumeFields order
  std::string refusal_evidence;  // the line with the declining phrase
  // Unparseable JSON the answer holds (a fence tagged json, or a {...} with a field key, that is
  // not JSON): its first line and the parser's message; the text was read instead.
  std::string json_error;

  const FieldExtraction& field(ResumeField which) const;
  FieldExtraction& field(ResumeField which);
  // Fields a follow-up turn should ask for: missing or placeholder (never one stated absent),
  // paper order, paper names.
  std::vector<std::string> missing_fields() const;
  std::size_t extracted_count() const;
};

// The fields of one answer (reasoning before </think> is ignored), every field's turn = `turn`.
// Never throws.
ResumeExtraction extract_resume_fields(std::string_view answer, int turn = 1);

// The conversation's fields after a follow-up answer: a field the first extraction has
// (extracted or stated absent) is kept; a missing or placeholder one takes the follow-up's extracted value (with
// its turn); a placeholder stays a placeholder when the follow-up has nothing better. Status:
// the first's when it read anything, else the follow-up's (json / text), else the first's.
ResumeExtraction merge_follow_up(const ResumeExtraction& first, const ResumeExtraction& follow_up);

// {"status", "fields": {NAME: {"status", "value" (null unless extracted), "placeholder" (only
//  for a placeholder), "source", "evidence", "turn", "text_value" and "text_evidence" (only on a
//  disagreement)}}, "missing_fields": [NAME], "extracted": N, "refusal_evidence" (only for a
//  refusal), "json_error" (only when set)}. Keys in this order (ordered_json).
nlohmann::ordered_json to_json(const ResumeExtraction& extraction);

}  // namespace codebias::analysis::screening
