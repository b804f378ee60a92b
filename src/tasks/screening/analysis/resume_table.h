// A résumé table as the BAD paper publishes it (seeds/003 §4: one row per generated résumé with
// the name's estimated ethnicity and gender and the fields read from the résumé), in CSV or
// JSONL, for `codebias screening analyze` and for the analysis of a run's stored résumés.
//
// CSV: RFC 4180 (fields in double quotes may hold commas, line breaks and "" for a quote), a
// header row naming the columns, in any order. JSONL: one object per line with the same keys
// (string or null values). Columns: FirstName, LastName, EstimatedEthnicity, EstimatedGender
// (required); JobTitle, JobArea, Bachelors, Masters, Location, ZipCode, Bilingual (optional: a
// table without the column has the field missing on every row); Id and Config (optional: the
// record's id, "line N" otherwise, and its sweep label, "" otherwise). Other columns are ignored.
// Values are trimmed; an empty value is a missing field, never guessed. Labels are kept as
// written ("Markerting Coordinator" is a category of the paper's test); near-duplicate labels
// are reported as notes, not merged. Rows whose every cell is empty are skipped and counted (the
// paper's file ends with 759 of them).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/jsonl.h"

namespace codebias::analysis::screening {

struct ResumeRecord {
  std::size_t line = 0;  // first line of the record in its file (1-based)
  std::string id;
  std::string config;
  std::string first_name, last_name;
  std::string gender;     // "Male" | "Female"
  std::string ethnicity;  // "White" | "Black" | "API" | "Hispanic"
  std::optional<std::string> job_title, job_area, bachelors, masters, location, zip_code, bilingual;
};

// Two labels of one field that differ only by case and spacing, or by at most two character
// edits (Damerau–Levenshtein) for labels of 8 characters or more: probably one category typed
// twice. Reported, never merged.
struct NearDuplicateLabel {
  std::string field;  // "JobTitle", "JobArea"
  std::string label, other;
  std::size_t count = 0, other_count = 0;
  std::size_t distance = 0;  // edits between the normalised labels (0: case / spacing only)
};

struct ResumeTable {
  std::string where;  // the file name, for messages
  std::vector<ResumeRecord> records;
  std::size_t blank_rows_skipped = 0;
  std::vector<NearDuplicateLabel> near_duplicates;  // JobTitle, then JobArea
};

// Throws std::runtime_error naming `where`, the line and the field for a malformed row (an
// unterminated quote, a row with more cells than the header, a missing required value, a
// gender or ethnicity outside the groups above, a JSONL line that is not an object of strings).
ResumeTable parse_resume_csv(std::string_view text, const std::string& where);
ResumeTable parse_resume_jsonl(std::string_view text, const std::string& where);
// By extension: .jsonl as JSONL, anything else as CSV. Throws std::runtime_error when the file
// cannot be read or a line of it is longer than `max_line_bytes` ("FILE:LINE: line is N bytes,
// ..."; such a line is never held in memory).
ResumeTable read_resume_table(const std::string& path, std::size_t max_line_bytes = base::kDefaultMaxLineBytes);

std::vector<NearDuplicateLabel> find_near_duplicate_labels(const std::vector<ResumeRecord>& records);

}  // namespace codebias::analysis::screening
