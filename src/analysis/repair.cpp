#include "analysis/repair.h"

#include <string>

namespace codebias::analysis {
namespace {

bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

size_t indent_of(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

bool blank(std::string_view line) { return indent_of(line) == line.size() || line.substr(indent_of(line)).front() == '\r'; }

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string> split_lines(std::string_view code) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos <= code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string_view::npos) {
      lines.emplace_back(code.substr(pos));
      break;
    }
    lines.emplace_back(code.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

// `def evaluate_claims_adjuster,_appraiser ( x ) :` -> `def evaluate_claims_adjuster__appraiser ( x ) :`
bool repair_def_name(std::string& line) {
  size_t ind = indent_of(line);
  std::string_view rest = std::string_view(line).substr(ind);
  if (!starts_with(rest, "def ")) return false;
  size_t name_start = ind + 4;
  while (name_start < line.size() && line[name_start] == ' ') ++name_start;
  size_t paren = line.find('(', name_start);
  if (paren == std::string::npos) return false;
  size_t name_end = paren;
  while (name_end > name_start && line[name_end - 1] == ' ') --name_end;
  bool changed = false;
  for (size_t i = name_start; i < name_end; ++i)
    if (!is_ident(line[i])) {
      line[i] = '_';
      changed = true;
    }
  return changed;
}

// Counts triple-quote delimiters to know whether a line ends inside a docstring.
bool toggles_docstring(std::string_view line, bool inside) {
  size_t count = 0;
  for (size_t i = 0; i + 2 < line.size() + 0 && i + 3 <= line.size(); ++i)
    if ((line.substr(i, 3) == "\"\"\"" || line.substr(i, 3) == "'''")) {
      ++count;
      i += 2;
    }
  return (count % 2 == 1) ? !inside : inside;
}

bool opens_block(std::string_view line) {
  size_t hash = line.find('#');
  std::string_view code = line.substr(0, hash);
  while (!code.empty() && (code.back() == ' ' || code.back() == '\r' || code.back() == '\t')) code.remove_suffix(1);
  return !code.empty() && code.back() == ':';
}

bool top_level_definition(std::string_view line) {
  std::string_view r = line.substr(indent_of(line));
  return starts_with(r, "def ") || starts_with(r, "class ") || starts_with(r, "@") || starts_with(r, "async def ") ||
         starts_with(r, "if __name__");
}

std::string python(std::string_view code, std::vector<std::string>& repairs) {
  std::vector<std::string> lines = split_lines(code);
  int renamed = 0, reindented = 0;
  for (std::string& line : lines) renamed += repair_def_name(line) ? 1 : 0;
  // A `def` whose body starts at the def's own indentation: indent the body until the next
  // definition at that indentation.
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (!top_level_definition(line) || !opens_block(line) || starts_with(line.substr(indent_of(line)), "@")) continue;
    size_t def_indent = indent_of(line);
    size_t next = i + 1;
    while (next < lines.size() && blank(lines[next])) ++next;
    if (next >= lines.size() || indent_of(lines[next]) > def_indent || top_level_definition(lines[next])) continue;
    bool in_doc = false;
    size_t j = next;
    for (; j < lines.size(); ++j) {
      if (!in_doc && !blank(lines[j]) && indent_of(lines[j]) <= def_indent && top_level_definition(lines[j])) break;
      bool was_in_doc = in_doc;
      in_doc = toggles_docstring(lines[j], in_doc);
      if (!was_in_doc && !blank(lines[j])) lines[j].insert(0, "    ");
    }
    ++reindented;
    i = j - 1;
  }
  if (renamed) repairs.push_back("replaced invalid characters in " + std::to_string(renamed) + " function name(s)");
  if (reindented) repairs.push_back("indented " + std::to_string(reindented) + " function body(ies) written without indentation");
  std::string out;
  out.reserve(code.size() + 64);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out.push_back('\n');
    out += lines[i];
  }
  return out;
}

}  // namespace

std::string repair_code(Language language, std::string_view code, std::vector<std::string>& repairs) {
  if (language == Language::python) return python(code, repairs);
  return std::string(code);
}

}  // namespace codebias::analysis
