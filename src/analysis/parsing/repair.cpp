#include "analysis/parsing/repair.h"

#include <algorithm>
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

// `def evaluate_claims_adjuster,_appraiser ( claims_adjuster,_appraiser ) :` has invalid
// characters in the function name and a `,_` inside the parameter name. Returns each broken
// name as written, so the same spelling can be fixed in the body.
std::vector<std::string> broken_names_in_def(std::string_view line) {
  std::vector<std::string> names;
  size_t ind = indent_of(line);
  std::string_view rest = line.substr(ind);
  if (!starts_with(rest, "def ")) return names;
  size_t name_start = ind + 4;
  while (name_start < line.size() && line[name_start] == ' ') ++name_start;
  size_t paren = line.find('(', name_start);
  if (paren == std::string_view::npos) return names;
  size_t name_end = paren;
  while (name_end > name_start && line[name_end - 1] == ' ') --name_end;
  std::string_view name = line.substr(name_start, name_end - name_start);
  if (std::any_of(name.begin(), name.end(), [](char c) { return !is_ident(c); })) names.emplace_back(name);
  size_t close = line.find(')', paren);
  std::string_view params = line.substr(paren + 1, close == std::string_view::npos ? std::string_view::npos : close - paren - 1);
  // A parameter list never has `,_` without a space, nor a `/` between two letters: a name with a
  // comma or a slash inside (`claims_adjuster,_appraiser`, `driver/sales_workers`) does.
  auto joins = [&](size_t at) {
    if (params[at] == ',') return at + 1 < params.size() && params[at + 1] == '_';
    return params[at] == '/' && at > 0 && at + 1 < params.size() && is_ident(params[at - 1]) && is_ident(params[at + 1]);
  };
  for (size_t a = 0; a < params.size();) {
    size_t b = a;
    bool broken = false;
    for (; b < params.size() && (is_ident(params[b]) || joins(b)); ++b) broken = broken || !is_ident(params[b]);
    if (broken) names.emplace_back(params.substr(a, b - a));
    a = b == a ? a + 1 : b;
  }
  return names;
}

void replace_all(std::string& line, const std::string& from, const std::string& to) {
  for (size_t pos = line.find(from); pos != std::string::npos; pos = line.find(from, pos + to.size()))
    line.replace(pos, from.size(), to);
}

// Counts triple-quote delimiters to know whether a line ends inside a docstring.
bool toggles_docstring(std::string_view line, bool inside) {
  size_t count = 0;
  for (char quote : {'"', '\''}) {
    for (size_t i = line.find(quote); i != std::string_view::npos && i + 3 <= line.size(); i = line.find(quote, i)) {
      if (line[i + 1] == quote && line[i + 2] == quote) {
        ++count;
        i += 3;
      } else {
        ++i;
      }
    }
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
  if (r.empty()) return false;
  switch (r.front()) {
    case 'd': return starts_with(r, "def ");
    case 'c': return starts_with(r, "class ");
    case '@': return true;
    case 'a': return starts_with(r, "async def ");
    case 'i': return starts_with(r, "if __name__");
    default: return false;
  }
}

bool code_like(std::string_view line) {
  std::string_view r = line.substr(indent_of(line));
  for (std::string_view k : {"if ", "elif ", "else:", "for ", "while ", "return", "def ", "try:", "with ", "import ", "from "})
    if (starts_with(r, k)) return true;
  // `name = ...` / `name += ...`
  size_t i = 0;
  while (i < r.size() && (is_ident(r[i]) || r[i] == '.' || r[i] == '[' || r[i] == ']' || r[i] == '\'' || r[i] == '"')) ++i;
  if (i == 0) return false;
  while (i < r.size() && r[i] == ' ') ++i;
  if (i < r.size() && r[i] == '=' && (i + 1 >= r.size() || r[i + 1] != '=')) return true;
  return i + 1 < r.size() && (r[i] == '+' || r[i] == '-' || r[i] == '*' || r[i] == '/') && r[i + 1] == '=';
}

// Position of a `def name(` glued to the end of prose (an echoed prompt), or npos.
size_t glued_def(std::string_view line) {
  size_t pos = line.find("def ");
  while (pos != std::string_view::npos && pos > 0) {
    char before = line[pos - 1];
    if (before != ' ' && before != '\t' && line.find('(', pos) != std::string_view::npos) return pos;
    pos = line.find("def ", pos + 4);
  }
  return std::string_view::npos;
}

// One pass over the lines, without copying, to tell whether any repair below can apply.
bool python_needs_repair(std::string_view code) {
  bool in_doc = false, expect_body = false;
  size_t def_indent = 0;
  bool first = true;
  size_t pos = 0;
  while (pos <= code.size()) {
    size_t end = code.find('\n', pos);
    std::string_view line = code.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? code.size() + 1 : end + 1;
    size_t indent = indent_of(line);
    if (indent == line.size() || line[indent] == '\r') continue;  // blank
    if (first && indent > 0) return true;
    first = false;
    if (in_doc && glued_def(line) != std::string_view::npos) return true;
    bool definition = !in_doc && top_level_definition(line);
    if (!in_doc && expect_body && indent <= def_indent && !definition) return true;
    expect_body = false;
    if (definition && opens_block(line)) {
      if (!broken_names_in_def(line).empty()) return true;
      expect_body = true;
      def_indent = indent;
    }
    in_doc = toggles_docstring(line, in_doc);
  }
  return in_doc;
}

std::string python(std::string_view code, std::vector<std::string>& repairs) {
  if (!python_needs_repair(code)) return std::string(code);
  std::vector<std::string> lines = split_lines(code);
  int renamed = 0, reindented = 0, echoed = 0, closed = 0;

  // The whole block indented (copied out of a list or a method): dedent it.
  size_t common = std::string::npos;
  for (const std::string& line : lines)
    if (!blank(line)) common = std::min(common, indent_of(line));
  if (common != std::string::npos && common > 0) {
    for (std::string& line : lines)
      if (line.size() >= common) line.erase(0, common);
    repairs.push_back("removed " + std::to_string(common) + " columns of indentation common to every line");
  }

  // Echoed prompt: "...attributes: a, b, cdef evaluate_x(...):" inside an unclosed docstring.
  bool in_doc = false;
  for (std::string& line : lines) {
    if (in_doc && glued_def(line) != std::string::npos) {
      line = std::string(indent_of(line), ' ') + "\"\"\"";
      ++echoed;
      in_doc = false;
      continue;
    }
    in_doc = toggles_docstring(line, in_doc);
  }

  for (const std::string& line : lines)
    for (const std::string& broken : broken_names_in_def(line)) {
      std::string fixed = broken;
      for (char& c : fixed)
        if (!is_ident(c)) c = '_';
      for (std::string& l : lines) replace_all(l, broken, fixed);
      ++renamed;
    }

  // A docstring never closed: close it at the end of the last prose line before the code.
  in_doc = false;
  size_t doc_open = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    bool was = in_doc;
    in_doc = toggles_docstring(lines[i], in_doc);
    if (!was && in_doc) doc_open = i;
  }
  if (in_doc) {
    for (size_t i = doc_open + 1; i < lines.size(); ++i)
      if (code_like(lines[i])) {
        size_t last = i - 1;
        while (last > doc_open && blank(lines[last])) --last;
        lines[last] += "\"\"\"";
        ++closed;
        break;
      }
  }

  // A `def` whose body starts at the def's own indentation: indent the body until the next
  // definition at that indentation.
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (!top_level_definition(line) || !opens_block(line) || starts_with(line.substr(indent_of(line)), "@")) continue;
    size_t def_indent = indent_of(line);
    size_t next = i + 1;
    while (next < lines.size() && blank(lines[next])) ++next;
    if (next >= lines.size() || indent_of(lines[next]) > def_indent || top_level_definition(lines[next])) continue;
    bool doc = false;
    size_t j = next;
    for (; j < lines.size(); ++j) {
      if (!doc && !blank(lines[j]) && indent_of(lines[j]) <= def_indent && top_level_definition(lines[j])) break;
      bool was_in_doc = doc;
      doc = toggles_docstring(lines[j], doc);
      if (!was_in_doc && !blank(lines[j])) lines[j].insert(0, "    ");
    }
    ++reindented;
    i = j - 1;
  }
  if (echoed) repairs.push_back("closed " + std::to_string(echoed) + " docstring(s) cut by an echoed prompt");
  if (renamed) repairs.push_back("replaced invalid characters in " + std::to_string(renamed) + " name(s)");
  if (closed) repairs.push_back("closed a docstring left open");
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
