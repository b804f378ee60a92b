#include "tasks/screening/analysis/resume_table.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/jsonl.h"
#include "base/jsonl_engine.h"

namespace codebias::analysis::screening {
namespace {

// The table's columns and where each lands in a record.
enum class Column { kId, kConfig, kFirstName, kLastName, kEthnicity, kGender, kJobTitle, kJobArea,
                    kBachelors, kMasters, kLocation, kZipCode, kBilingual };

const std::vector<std::pair<std::string, Column>>& known_columns() {
  static const std::vector<std::pair<std::string, Column>> columns = {
      {"Id", Column::kId},
      {"Config", Column::kConfig},
      {"FirstName", Column::kFirstName},
      {"LastName", Column::kLastName},
      {"EstimatedEthnicity", Column::kEthnicity},
      {"EstimatedGender", Column::kGender},
      {"JobTitle", Column::kJobTitle},
      {"JobArea", Column::kJobArea},
      {"Bachelors", Column::kBachelors},
      {"Masters", Column::kMasters},
      {"Location", Column::kLocation},
      {"ZipCode", Column::kZipCode},
      {"Bilingual", Column::kBilingual},
  };
  return columns;
}

const char* const kRequiredColumns[] = {"FirstName", "LastName", "EstimatedEthnicity", "EstimatedGender"};
const char* const kGenders[] = {"Male", "Female"};
const char* const kEthnicities[] = {"White", "Black", "API", "Hispanic"};

std::string trim(std::string_view text) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string location(const std::string& where, std::size_t line) {
  return where + ":" + std::to_string(line);
}

// Stores one trimmed value; throws for a required field that is empty or a group outside the list.
void assign(ResumeRecord& record, Column column, const std::string& raw, const std::string& field,
            const std::string& at) {
  const std::string value = trim(raw);
  std::optional<std::string> optional_value;
  if (!value.empty()) optional_value = value;
  auto require = [&](std::string& target) {
    if (value.empty()) throw std::runtime_error(at + ": field " + field + " is empty");
    target = value;
  };
  auto require_group = [&](std::string& target, std::span<const char* const> groups) {
    require(target);
    if (std::find_if(groups.begin(), groups.end(), [&](const char* g) { return value == g; }) ==
        groups.end()) {
      std::string expected;
      for (const char* g : groups) expected += std::string(expected.empty() ? "" : ", ") + g;
      throw std::runtime_error(at + ": field " + field + " is \"" + value + "\", expected one of " + expected);
    }
  };
  switch (column) {
    case Column::kId: record.id = value; break;
    case Column::kConfig: record.config = value; break;
    case Column::kFirstName: require(record.first_name); break;
    case Column::kLastName: require(record.last_name); break;
    case Column::kEthnicity: require_group(record.ethnicity, kEthnicities); break;
    case Column::kGender: require_group(record.gender, kGenders); break;
    case Column::kJobTitle: record.job_title = optional_value; break;
    case Column::kJobArea: record.job_area = optional_value; break;
    case Column::kBachelors: record.bachelors = optional_value; break;
    case Column::kMasters: record.masters = optional_value; break;
    case Column::kLocation: record.location = optional_value; break;
    case Column::kZipCode: record.zip_code = optional_value; break;
    case Column::kBilingual: record.bilingual = optional_value; break;
  }
}

struct CsvRecord {
  std::size_t line = 0;
  std::vector<std::string> cells;
};

// RFC 4180: records end at CRLF or LF outside quotes; a quoted field may hold separators, line
// breaks and "" for one quote. A UTF-8 byte-order mark before the header is skipped.
std::vector<CsvRecord> split_csv(std::string_view text, const std::string& where) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<CsvRecord> records;
  std::size_t line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    CsvRecord record;
    record.line = line;
    std::string cell;
    bool record_done = false;
    while (!record_done) {
      if (i < text.size() && text[i] == '"') {
        const std::size_t opened_at = line;
        ++i;
        while (true) {
          if (i >= text.size()) {
            throw std::runtime_error(location(where, opened_at) + ": field " +
                                     std::to_string(record.cells.size() + 1) +
                                     ": quoted field is not closed");
          }
          if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              cell += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (text[i] == '\n') ++line;
          cell += text[i++];
        }
        if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          throw std::runtime_error(location(where, line) + ": field " +
                                   std::to_string(record.cells.size() + 1) +
                                   ": text after the closing quote");
        }
      }
      while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        if (text[i] == '"') {
          throw std::runtime_error(location(where, line) + ": field " +
                                   std::to_string(record.cells.size() + 1) +
                                   ": quote inside an unquoted field");
        }
        cell += text[i++];
      }
      record.cells.push_back(std::move(cell));
      cell.clear();
      if (i >= text.size()) {
        record_done = true;
      } else if (text[i] == ',') {
        ++i;
      } else {
        if (text[i] == '\r') ++i;
        if (i < text.size() && text[i] == '\n') ++i;
        ++line;
        record_done = true;
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

bool all_blank(const std::vector<std::string>& cells) {
  return std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return trim(c).empty(); });
}

void check_required_columns(const std::map<std::string, Column>& present, const std::string& at) {
  for (const char* required : kRequiredColumns) {
    if (!present.contains(required)) throw std::runtime_error(at + ": missing column " + required);
  }
}

void finish(ResumeTable& table) {
  for (ResumeRecord& record : table.records) {
    if (record.id.empty()) record.id = "line " + std::to_string(record.line);
  }
  table.near_duplicates = find_near_duplicate_labels(table.records);
}

std::string normalised_label(std::string_view label) {
  std::string out;
  bool space = false;
  for (char c : label) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions), in bytes.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

constexpr std::size_t kNearDuplicateMinLength = 8;
constexpr std::size_t kNearDuplicateMaxEdits = 2;

}  // namespace

ResumeTable parse_resume_csv(std::string_view text, const std::string& where) {
  ResumeTable table;
  table.where = where;
  const std::vector<CsvRecord> records = split_csv(text, where);
  if (records.empty() || all_blank(records.front().cells)) {
    throw std::runtime_error(location(where, 1) + ": no header row");
  }
  const CsvRecord& header = records.front();
  std::vector<std::optional<Column>> columns;
  std::map<std::string, Column> present;
  for (std::size_t c = 0; c < header.cells.size(); ++c) {
    const std::string name = trim(header.cells[c]);
    std::optional<Column> column;
    for (const auto& [known, which] : known_columns()) {
      if (known == name) column = which;
    }
    if (column) {
      if (present.contains(name)) {
        throw std::runtime_error(location(where, header.line) + ": column " + name + " appears twice");
      }
      present[name] = *column;
    }
    columns.push_back(column);
  }
  check_required_columns(present, location(where, header.line));
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& row = records[r];
    if (all_blank(row.cells)) {
      ++table.blank_rows_skipped;
      continue;
    }
    const std::string at = location(where, row.line);
    if (row.cells.size() != header.cells.size()) {
      throw std::runtime_error(at + ": " + std::to_string(row.cells.size()) + " fields, the header has " +
                               std::to_string(header.cells.size()));
    }
    ResumeRecord record;
    record.line = row.line;
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      if (columns[c]) assign(record, *columns[c], row.cells[c], trim(header.cells[c]), at);
    }
    table.records.push_back(std::move(record));
  }
  finish(table);
  return table;
}

ResumeTable parse_resume_jsonl(std::string_view text, const std::string& where) {
  ResumeTable table;
  table.where = where;
  std::size_t line = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string content = trim(text.substr(start, end - start));
    ++line;
    start = end + 1;
    if (content.empty()) {
      ++table.blank_rows_skipped;
      continue;
    }
    const std::string at = location(where, line);
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(content);
    } catch (const nlohmann::json::parse_error& error) {
      throw std::runtime_error(at + ": not valid JSON: " + error.what());
    }
    if (!object.is_object()) throw std::runtime_error(at + ": not a JSON object");
    std::map<std::string, Column> present;
    ResumeRecord record;
    record.line = line;
    for (const auto& [key, value] : object.items()) {
      std::optional<Column> column;
      for (const auto& [known, which] : known_columns()) {
        if (known == key) column = which;
      }
      if (!column) continue;
      std::string raw;
      if (value.is_string()) {
        raw = value.get<std::string>();
      } else if (value.is_number_integer()) {
        raw = value.dump();  // a zip code written as a number: its decimal digits
      } else if (!value.is_null()) {
        throw std::runtime_error(at + ": field " + key + " must be a string or null");
      }
      present[key] = *column;
      assign(record, *column, raw, key, at);
    }
    check_required_columns(present, at);
    table.records.push_back(std::move(record));
  }
  finish(table);
  return table;
}

ResumeTable read_resume_table(const std::string& path, std::size_t max_line_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  // Line by line through the project's capped reader: a 100 MB line is refused, not slurped.
  std::string text;
  base::LineReader reader(in, max_line_bytes);
  for (base::Line line; reader.next(line);) {
    if (line.too_long) {
      throw std::runtime_error(location(path, line.number) + ": " + base::too_long_message(line, max_line_bytes));
    }
    text += line.text;
    text += '\n';
  }
  if (path.ends_with(".jsonl")) return parse_resume_jsonl(text, path);
  return parse_resume_csv(text, path);
}

std::vector<NearDuplicateLabel> find_near_duplicate_labels(const std::vector<ResumeRecord>& records) {
  std::vector<NearDuplicateLabel> found;
  const std::pair<const char*, std::optional<std::string> ResumeRecord::*> fields[] = {
      {"JobTitle", &ResumeRecord::job_title}, {"JobArea", &ResumeRecord::job_area}};
  for (const auto& [field, member] : fields) {
    std::map<std::string, std::size_t> counts;
    for (const ResumeRecord& record : records) {
      if (record.*member) ++counts[*(record.*member)];
    }
    std::vector<std::pair<std::string, std::size_t>> labels(counts.begin(), counts.end());
    for (std::size_t i = 0; i < labels.size(); ++i) {
      for (std::size_t j = i + 1; j < labels.size(); ++j) {
        const std::string a = normalised_label(labels[i].first);
        const std::string b = normalised_label(labels[j].first);
        std::optional<std::size_t> distance;
        if (a == b) {
          distance = 0;
        } else if (std::min(a.size(), b.size()) >= kNearDuplicateMinLength) {
          const std::size_t size_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
          if (size_gap <= kNearDuplicateMaxEdits) {
            const std::size_t edits = edit_distance(a, b);
            if (edits <= kNearDuplicateMaxEdits) distance = edits;
          }
        }
        if (!distance) continue;
        // The more frequent label first: the other is the likely variant.
        const bool swap = labels[j].second > labels[i].second;
        const auto& first = swap ? labels[j] : labels[i];
        const auto& second = swap ? labels[i] : labels[j];
        found.push_back(NearDuplicateLabel{field, first.first, second.first, first.second,
                                           second.second, *distance});
      }
    }
  }
  return found;
}

}  // namespace codebias::analysis::screening
