// Test cases written as text: `key: value` lists and markdown tables, read by a small line
// tokenizer (no regex). A list item is `[bullet] key SEP value` where SEP is ':', '=', '->' or
// '=>'; several items may share a line when each comma- or semicolon-separated part is one
// (`a: True, b: False`). Consecutive items form one record until a key repeats; a record needs two
// wanted keys, so a stray `gender: male` in an explanation is not a test case, and mostly filled
// values, so an echoed blank template is not one either. Table rows are
// split on '|': a header naming wanted keys gives one record per row, a first column naming them
// gives one record per value column.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#include "tasks/testcase/analysis/testcase_records.h"

namespace codebias::analysis::testcase {
namespace {

using sv = std::string_view;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

sv trim(sv s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Markdown emphasis, code spans and quotes around a key or value: **gender**, `race`, "male".
sv strip_markup(sv s) {
  s = trim(s);
  for (bool changed = true; changed && !s.empty();) {
    changed = false;
    for (char c : {'*', '_', '`'}) {
      if (s.size() >= 2 && s.front() == c && s.back() == c) {
        s = trim(s.substr(1, s.size() - 2));
        changed = true;
      }
    }
    while (!s.empty() && (s.front() == '*' || s.front() == '`')) {
      s = trim(s.substr(1));
      changed = true;
    }
    while (!s.empty() && (s.back() == '*' || s.back() == '`')) {
      s = trim(s.substr(0, s.size() - 1));
      changed = true;
    }
  }
  return s;
}

// "- ", "* ", "+ ", "1. ", "2) ", "• ", "> " at the start of a list line.
sv strip_bullet(sv line) {
  line = trim(line);
  for (;;) {
    if (line.starts_with("- ") || line.starts_with("+ ") || line.starts_with("> ") ||
        (line.starts_with("* ") && line.size() > 2)) {
      line = trim(line.substr(2));
    } else if (line.starts_with("\xE2\x80\xA2")) {  // U+2022 bullet
      line = trim(line.substr(3));
    } else {
      std::size_t d = 0;
      while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
      if (d > 0 && d + 1 < line.size() && (line[d] == '.' || line[d] == ')') && line[d + 1] == ' ')
        line = trim(line.substr(d + 2));
      else
        return line;
    }
  }
}

// A value ends before a trailing comment or a trailing comma / semicolon.
sv clean_value(sv value) {
  value = trim(value);
  for (sv comment : {sv(" #"), sv(" //"), sv("\t#")}) {
    const std::size_t at = value.find(comment);
    if (at != sv::npos) value = trim(value.substr(0, at));
  }
  while (!value.empty() && (value.back() == ',' || value.back() == ';')) value = trim(value.substr(0, value.size() - 1));
  return value;
}

struct Item {
  std::string key;
  std::string value;
};

// `key SEP value` at the start of `part`, where key is a word-like run (letters, digits, spaces,
// '_', '-', '/', quotes and markup) of at most 64 bytes.
std::optional<Item> parse_item(sv part) {
  part = strip_bullet(part);
  std::size_t i = 0;
  while (i < part.size()) {
    const char c = part[i];
    if (c == ':' || c == '=' || (c == '-' && i + 1 < part.size() && part[i + 1] == '>')) break;
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ' ' || c == '-' ||
                      c == '/' || c == '"' || c == '\'' || c == '*' || c == '`' || c == '{' || c == '\t';
    if (!word) return std::nullopt;
    ++i;
  }
  if (i == 0 || i >= part.size() || i > 64) return std::nullopt;
  std::size_t sep = 1;
  if (part[i] == '=' && i + 1 < part.size() && (part[i + 1] == '=' || part[i + 1] == '>')) {
    if (part[i + 1] == '=') return std::nullopt;  // a comparison, not an assignment
    sep = 2;
  }
  if (part[i] == '-') sep = 2;
  if (part[i] == ':' && i + 1 < part.size() && part[i + 1] == ':') return std::nullopt;  // C++ scope
  sv key = part.substr(0, i);
  while (!key.empty() && (key.front() == '{' || key.front() == '"' || key.front() == '\'')) key.remove_prefix(1);
  key = strip_markup(key);
  while (!key.empty() && (key.back() == '"' || key.back() == '\'')) key.remove_suffix(1);
  key = trim(key);
  if (key.empty()) return std::nullopt;
  sv value = part.substr(i + sep);
  // `**gender:** male`: the closing markup of the key sits after the separator.
  value = strip_markup(clean_value(value));
  while (!value.empty() && value.back() == '}') value = trim(value.substr(0, value.size() - 1));
  return Item{std::string(key), unquote(value)};
}

// An item with a wanted key, looking through one label: "Test case 1: gender = male".
std::optional<Item> wanted_item(sv part, const KeyFilter& wanted) {
  auto item = parse_item(part);
  if (!item || wanted(item->key)) return item;
  auto inner = parse_item(item->value);
  if (inner && wanted(inner->key)) return inner;
  return item;
}

// The items of one line: the whole line as one item, unless its comma/semicolon parts are items
// with wanted keys (`a: True, b: False`); parts that are not items belong to the previous value.
std::vector<Item> line_items(sv line, const KeyFilter& wanted) {
  std::vector<Item> items;
  if (!parse_item(line)) return items;
  std::vector<sv> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',' || line[i] == ';') {
      parts.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  std::size_t current_start = 0;
  for (std::size_t p = 1; p < parts.size(); ++p) {
    auto item = parse_item(parts[p]);
    if (!item || !wanted(item->key)) continue;
    const std::size_t begin = static_cast<std::size_t>(parts[p].data() - line.data());
    if (auto previous = wanted_item(line.substr(current_start, begin - 1 - current_start), wanted))
      items.push_back(std::move(*previous));
    current_start = begin;
  }
  if (auto last = wanted_item(line.substr(current_start), wanted)) items.push_back(std::move(*last));
  return items;
}

bool is_table_line(sv line) {
  line = trim(line);
  return line.size() >= 3 && line.front() == '|' && line.find('|', 1) != sv::npos;
}

std::vector<std::string> table_cells(sv line) {
  line = trim(line);
  if (line.starts_with('|')) line.remove_prefix(1);
  if (line.ends_with('|')) line.remove_suffix(1);
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == '|') {
      cells.push_back(unquote(strip_markup(line.substr(start, i - start))));
      start = i + 1;
    }
  }
  return cells;
}

bool is_separator_row(const std::vector<std::string>& cells) {
  return std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
    return !c.empty() && c.find_first_not_of("-: ") == std::string::npos;
  });
}

struct Row {
  std::vector<std::string> cells;
  int line;
};

void table_records(const std::vector<Row>& rows, const KeyFilter& wanted, std::vector<RawRecord>& out) {
  if (rows.empty()) return;
  const auto& header = rows.front().cells;
  const bool columns = std::any_of(header.begin(), header.end(), [&](const std::string& c) { return wanted(c); });
  if (columns) {
    for (std::size_t r = 1; r < rows.size(); ++r) {
      RawRecord record{{}, rows[r].line, "table"};
      for (std::size_t c = 0; c < header.size() && c < rows[r].cells.size(); ++c)
        record.fields.push_back({header[c], rows[r].cells[c], rows[r].line});
      out.push_back(std::move(record));
    }
    return;
  }
  // Transposed: the first column names the keys; every further column is one case.
  std::size_t width = 0;
  for (const Row& row : rows) width = std::max(width, row.cells.size());
  for (std::size_t c = 1; c < width; ++c) {
    RawRecord record{{}, rows.front().line, "table"};
    for (const Row& row : rows) {
      if (row.cells.size() > c && !row.cells.empty() && wanted(row.cells[0]))
        record.fields.push_back({row.cells[0], row.cells[c], row.line});
    }
    out.push_back(std::move(record));
  }
}

}  // namespace

std::vector<RawRecord> prose_records(std::string_view text, int first_line, const KeyFilter& wanted) {
  std::vector<RawRecord> records;
  RawRecord open;  // the list record being read; none while it has no field
  std::vector<Row> table;
  auto close_record = [&] {
    if (!open.fields.empty()) records.push_back(std::move(open));
    open = RawRecord{};
  };
  auto close_table = [&] {
    table_records(table, wanted, records);
    table.clear();
  };

  int number = first_line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == sv::npos) end = text.size();
    const sv line = text.substr(start, end - start);

    if (is_table_line(line)) {
      close_record();
      std::vector<std::string> cells = table_cells(line);
      if (!is_separator_row(cells)) table.push_back({std::move(cells), number});
    } else {
      if (!table.empty()) close_table();
      for (Item& item : line_items(line, wanted)) {
        if (!wanted(item.key)) continue;
        if (std::any_of(open.fields.begin(), open.fields.end(),
                        [&](const RawField& f) { return f.key == item.key; }))
          close_record();
        if (open.fields.empty()) open = RawRecord{{}, number, "key-value"};
        open.fields.push_back({std::move(item.key), std::move(item.value), number});
      }
    }
    if (end == text.size()) break;
    start = end + 1;
    ++number;
  }
  close_record();
  close_table();

  // A record needs two wanted keys; one where most of them are blank is the prompt's template
  // echoed back ("family_history: \n gender:"), not a test case.
  std::erase_if(records, [&](const RawRecord& r) {
    const auto keys = std::count_if(r.fields.begin(), r.fields.end(), [&](const RawField& f) { return wanted(f.key); });
    const auto blank = std::count_if(r.fields.begin(), r.fields.end(),
                                     [&](const RawField& f) { return wanted(f.key) && trim(f.value).empty(); });
    return keys < 2 || 2 * blank > keys;
  });
  std::stable_sort(records.begin(), records.end(),
                   [](const RawRecord& a, const RawRecord& b) { return a.line < b.line; });
  return records;
}

}  // namespace codebias::analysis::testcase
