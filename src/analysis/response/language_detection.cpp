// Language detection: weighted cues from one pass over the tokens, skipping strings and
// comments (docstrings and comments are English and would mislead keyword counts).
#include "analysis/response/response.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "analysis/response/line_kinds.h"
#include "analysis/response/scan_text.h"

namespace codebias::analysis {

namespace {

using namespace response_scanning;

struct Cues {
  double py = 0, c = 0, cpp = 0, js = 0, ts = 0, java = 0, cfam = 0;
};

sv peek_word(sv code, std::size_t i) {
  while (i < code.size() && is_hspace(code[i])) ++i;
  std::size_t j = i;
  while (j < code.size() && is_ident_char(code[j])) ++j;
  return code.substr(i, j - i);
}

char peek_char(sv code, std::size_t i) {
  while (i < code.size() && is_hspace(code[i])) ++i;
  return i < code.size() ? code[i] : '\0';
}

bool is_py_block_keyword(sv w) {
  static constexpr sv kWords[] = {"if", "elif", "else", "for", "while", "def", "class", "try",
                                  "except", "finally", "with"};
  return one_of(w, kWords);
}

// Cues of a 3- to 5-letter token (shorter ones carry none).
void short_token_cues(sv tok, sv code, std::size_t after, char before, bool line_start, Cues& s) {
  const char next = after < code.size() ? code[after] : '\0';
  switch (tok.size()) {
    case 3:
      if (is(tok, "def")) { s.py += line_start ? 3 : 1; return; }
      if (is(tok, "let")) { s.js += line_start ? 2 : 0.5; return; }
      if (is(tok, "var")) { if (line_start) s.js += 1.5; return; }
      if (is(tok, "std")) { if (next == ':') s.cpp += 4; return; }
      if (is(tok, "int") || is(tok, "str")) {
        if (is(tok, "int") && line_start) { s.c += 1; s.cpp += 1; s.java += 1; }
        if (is(tok, "str") && next == '(') s.py += 0.5;
        return;
      }
      if (is(tok, "len")) { if (next == '(') s.py += 1; return; }
      if (is(tok, "new")) { s.java += 0.5; s.js += 0.5; s.cpp += 0.3; return; }
      if (is(tok, "cin")) { s.cpp += 2; return; }
      if (is(tok, "any")) { if (before == ':') s.ts += 3; return; }
      if (is(tok, "Map")) { s.java += 1; return; }
      return;
    case 4:
      if (is(tok, "elif")) { s.py += 3; return; }
      if (is(tok, "self")) { if (next == '.') s.py += 1; return; }
      if (is(tok, "None") || is(tok, "True")) { s.py += 1; return; }
      if (is(tok, "from")) { if (line_start) s.py += 2; return; }
      if (is(tok, "pass")) { if (line_start) s.py += 1; return; }
      if (is(tok, "dict")) { s.py += 0.5; return; }
      if (is(tok, "char")) {
        if (line_start || before == '(' || before == ',') { s.c += 1.5; s.cpp += 1; }
        return;
      }
      if (is(tok, "void")) { s.c += 0.5; s.cpp += 0.5; s.java += 0.5; if (before == ':') s.ts += 2; return; }
      if (is(tok, "bool")) { s.cpp += 1; s.c += 0.3; return; }
      if (is(tok, "auto")) { s.cpp += 1; return; }
      if (is(tok, "cout") || is(tok, "endl") || is(tok, "cerr")) { s.cpp += 3; return; }
      if (is(tok, "NULL")) { s.c += 1; s.cpp += 0.5; return; }
      if (is(tok, "null")) { s.js += 0.5; s.java += 0.5; return; }
      if (is(tok, "this")) { s.js += 0.3; s.java += 0.3; s.cpp += 0.3; return; }
      if (is(tok, "Math")) { s.js += 1; s.java += 0.5; return; }
      if (is(tok, "List")) { s.java += 1; return; }
      if (is(tok, "type")) {
        if (line_start && !peek_word(code, after).empty()) {
          std::size_t k = after;
          while (k < code.size() && is_hspace(code[k])) ++k;
          while (k < code.size() && is_ident_char(code[k])) ++k;
          if (peek_char(code, k) == '=') s.ts += 2;
        }
        return;
      }
      if (is(tok, "enum")) { s.ts += 0.5; s.java += 0.5; s.c += 0.5; s.cpp += 0.5; return; }
      return;
    case 5:
      if (is(tok, "False")) { s.py += 1; return; }
      if (is(tok, "raise")) { s.py += 1; return; }
      if (is(tok, "range")) { if (next == '(') s.py += 1; return; }
      if (is(tok, "print")) { if (next == '(' || next == ' ') s.py += 0.5; return; }
      if (is(tok, "const")) {
        if (line_start) {
          const sv w = peek_word(code, after);
          if (is_type_word(w) || is(w, "std") || is(w, "struct") || is(w, "unsigned")) {
            s.c += 0.5; s.cpp += 0.5;
          } else {
            s.js += 2;
          }
        }
        return;
      }
      if (is(tok, "float") || is(tok, "short")) {
        if (line_start || before == '(' || before == ',') { s.c += 1; s.cpp += 1; s.java += 1; }
        return;
      }
      if (is(tok, "await") || is(tok, "async")) { s.js += 0.5; s.py += 0.3; return; }
      if (is(tok, "final")) { s.java += 1; return; }
      if (is(tok, "Float")) { s.java += 1; return; }
      return;
    default:
      return;
  }
}

// Cues of a token of 6 letters or more.
void long_token_cues(sv tok, sv code, std::size_t after, char before, bool line_start, Cues& s) {
  switch (tok.size()) {
    case 6:
      if (is(tok, "lambda")) { s.py += 1; return; }
      if (is(tok, "except")) { s.py += 2; return; }
      if (is(tok, "import")) {
        if (line_start) {
          if (peek_word(code, after) == "java") s.java += 5;
          else s.py += 1;
        }
        return;
      }
      if (is(tok, "double")) {
        if (line_start || before == '(' || before == ',') { s.c += 1; s.cpp += 1; s.java += 1; }
        return;
      }
      if (is(tok, "String")) { s.java += 2; return; }
      if (is(tok, "string")) {
        if (before == ':') s.ts += 3;
        else s.cpp += 1;
        return;
      }
      if (is(tok, "number")) { if (before == ':') s.ts += 3; return; }
      if (is(tok, "System")) { s.java += 3; return; }
      if (is(tok, "equals")) { if (before == '.') s.java += 3; return; }
      if (is(tok, "public") || is(tok, "static")) {
        if (peek_char(code, after) == ':') { s.cpp += 3; return; }
        if (is(tok, "public")) s.java += 2;
        else { s.java += 1; s.c += 0.3; s.cpp += 0.3; }
        return;
      }
      if (is(tok, "printf") || is(tok, "strcmp") || is(tok, "strlen") || is(tok, "strcpy") ||
          is(tok, "malloc") || is(tok, "calloc") || is(tok, "sizeof") || is(tok, "strcat") ||
          is(tok, "strstr") || is(tok, "scanf")) {
        s.c += 2; s.cpp += 0.5; return;
      }
      if (is(tok, "struct")) { s.c += 1; s.cpp += 0.5; return; }
      if (is(tok, "vector")) { s.cpp += 1; return; }
      if (is(tok, "module") || is(tok, "typeof")) { s.js += 1; return; }
      if (is(tok, "Object")) { s.js += 0.5; s.java += 0.3; return; }
      if (is(tok, "Double")) { s.java += 1; return; }
      if (is(tok, "export")) { s.js += 1; return; }
      return;
    case 7:
      if (is(tok, "console")) { s.js += 3; return; }
      if (is(tok, "boolean")) {
        if (before == ':') s.ts += 3;
        else s.java += 3;
        return;
      }
      if (is(tok, "private")) {
        if (peek_char(code, after) == ':') s.cpp += 3;
        else s.java += 2;
        return;
      }
      if (is(tok, "typedef")) { s.c += 1; s.cpp += 0.5; return; }
      if (is(tok, "nullptr")) { s.cpp += 3; return; }
      if (is(tok, "println")) { s.java += 1; return; }
      if (is(tok, "extends")) { s.java += 1; s.js += 0.5; return; }
      if (is(tok, "Integer") || is(tok, "HashMap")) { s.java += 1; return; }
      if (is(tok, "require")) { s.js += 1; return; }
      if (is(tok, "exports")) { s.js += 1; return; }
      if (is(tok, "package")) { if (line_start) s.java += 3; return; }
      if (is(tok, "strncmp") || is(tok, "fprintf") || is(tok, "sprintf") || is(tok, "strncpy")) {
        s.c += 2; s.cpp += 0.5; return;
      }
      if (is(tok, "unknown")) { if (before == ':') s.ts += 2; return; }
      return;
    case 8:
      if (is(tok, "function")) { s.js += 3; return; }
      if (is(tok, "__init__") || is(tok, "__name__")) { s.py += 2; return; }
      if (is(tok, "Override")) { if (before == '@') s.java += 2; return; }
      if (is(tok, "template") || is(tok, "typename")) { s.cpp += 2; return; }
      if (is(tok, "unsigned")) { s.c += 0.5; s.cpp += 0.5; return; }
      if (is(tok, "readonly")) { s.ts += 2; return; }
      if (is(tok, "parseInt")) { s.js += 2; return; }
      if (is(tok, "includes")) { if (before == '.') s.js += 1; return; }
      return;
    case 9:
      if (is(tok, "undefined")) { s.js += 2; return; }
      if (is(tok, "namespace")) { s.cpp += 2; return; }
      if (is(tok, "interface")) { s.ts += 2; s.java += 1; return; }
      if (is(tok, "protected")) {
        if (peek_char(code, after) == ':') s.cpp += 3;
        else s.java += 2;
        return;
      }
      if (is(tok, "ArrayList")) { s.java += 1; return; }
      return;
    case 10:
      if (is(tok, "isinstance")) { s.py += 2; return; }
      if (is(tok, "implements")) { s.java += 2; s.ts += 0.5; return; }
      if (is(tok, "parseFloat")) { s.js += 2; return; }
      if (is(tok, "strcasecmp")) { s.c += 2; s.cpp += 0.5; return; }
      return;
    default:
      if (is(tok, "unordered_map")) { s.cpp += 2; return; }
      return;
  }
}

// The cues one identifier gives: `after` is the offset right after it in `code`, `before` the
// last significant character before it on the line.
void token_cues(sv tok, sv code, std::size_t after, char before, bool line_start, Cues& s) {
  if (tok.size() < 6) {
    short_token_cues(tok, code, after, before, line_start, s);
  } else {
    long_token_cues(tok, code, after, before, line_start, s);
  }
}

// A '#' at a line start: a C preprocessor directive (its cues added, true) or not (false).
bool directive_cues(sv code, std::size_t i, Cues& s) {
  const std::size_t n = code.size();
  const sv w = peek_word(code, i + 1);
  if (!(is(w, "include") || is(w, "define") || is(w, "ifndef") || is(w, "ifdef") || is(w, "endif") ||
        is(w, "pragma") || is(w, "undef"))) {
    return false;
  }
  s.c += 2;
  s.cpp += 2;
  if (is(w, "include")) {
    std::size_t e = i;
    while (e < n && !is_break(code[e])) ++e;
    const sv line = code.substr(i, e - i);
    const std::size_t lt = line.find('<');
    if (lt != npos) {
      const std::size_t gt = line.find('>', lt);
      const sv hdr = line.substr(lt + 1, gt == npos ? npos : gt - lt - 1);
      if (hdr.ends_with(".h")) s.c += 1.5;
      else if (!hdr.empty()) s.cpp += 4;  // <string>, <iostream>, <vector>, ...
    }
  }
  return true;
}

// Past the string literal that starts at `i` (a Python triple-quoted string may span lines).
std::size_t skip_string(sv code, std::size_t i, Cues& s) {
  const std::size_t n = code.size();
  const char c = code[i];
  if (i + 2 < n && code[i + 1] == c && code[i + 2] == c) {
    s.py += 2;
    const char q[3] = {c, c, c};
    const std::size_t e = code.find(sv(q, 3), i + 3);
    return (e == npos) ? n : e + 3;
  }
  std::size_t j = i + 1;
  while (j < n && code[j] != c && !is_break(code[j])) j += (code[j] == '\\') ? 2 : 1;
  return (j < n && code[j] == c) ? j + 1 : std::min(j, n);
}

// The cues of the operator at `i` (===, =>, ->, ::, &&, ||); its length in characters.
std::size_t operator_cues(sv code, std::size_t i, sv first_tok, Cues& s) {
  const std::size_t n = code.size();
  const char c = code[i];
  const char d = i + 1 < n ? code[i + 1] : '\0';
  const char e = i + 2 < n ? code[i + 2] : '\0';
  std::size_t step = 1;
  if ((c == '=' || c == '!') && d == '=' && e == '=') {
    s.js += 3;
    step = 3;
  } else if (c == '=' && d == '>') {
    s.js += 2;
    step = 2;
  } else if (c == '-' && d == '>') {
    if (!is(first_tok, "def")) {
      s.c += 1;
      s.cpp += 1;
    }
    step = 2;
  } else if (c == ':' && d == ':') {
    s.cpp += 2;
    step = 2;
  } else if ((c == '&' && d == '&') || (c == '|' && d == '|')) {
    s.cfam += 1;
    step = 2;
  }
  return step;
}

// The language with the most evidence, or unknown when none has enough.
Language best_language(const Cues& s) {
  const double py = s.py;
  const double js = s.js + s.cfam;
  const double ts = s.ts >= 2 ? js + s.ts : 0;
  const double c_ = s.c + s.cfam;
  const double cpp = s.cpp + s.cfam;
  const double java = s.java + s.cfam;
  // Ties go to the earlier entry: C before C++ (C++ needs its own cues), C before Java.
  const std::pair<double, Language> ranked[] = {
      {py, Language::python}, {ts, Language::typescript}, {js, Language::javascript},
      {c_, Language::c},      {cpp, Language::cpp},       {java, Language::java}};
  Language best = Language::unknown;
  double best_score = 1.5;  // below this there is no real evidence
  for (const auto& [score, lang] : ranked) {
    if (score > best_score) {
      best_score = score;
      best = lang;
    }
  }
  return best;
}

}  // namespace

// Cues are dense in real code: the first kDetectLimit bytes decide (bounds the cost of huge
// degenerate blocks).
constexpr std::size_t kDetectLimit = 16 * 1024;

Language detect_language(std::string_view code) {
  if (code.size() > kDetectLimit) code = code.substr(0, kDetectLimit);
  Cues s;
  const std::size_t n = code.size();
  std::size_t i = 0;
  bool line_start = true;  // no token yet on this line
  sv first_tok;
  char last_sig = 0;  // last significant char on the line (outside strings / comments)
  auto end_line = [&]() {
    if (last_sig == ':' && is_py_block_keyword(first_tok)) s.py += 1;
    else if (last_sig == ';' || last_sig == '{') s.cfam += 0.5;
    line_start = true;
    first_tok = {};
    last_sig = 0;
  };
  while (i < n) {
    const char c = code[i];
    if (is_break(c)) {
      end_line();
      ++i;
      continue;
    }
    if (is_hspace(c)) {
      ++i;
      while (i < n && is_hspace(code[i])) ++i;
      continue;
    }
    if (is_ident_start(c)) {
      const std::size_t b = i;
      while (i < n && is_ident_char(code[i])) ++i;
      const sv tok = code.substr(b, i - b);
      token_cues(tok, code, i, last_sig, line_start, s);
      if (line_start) first_tok = tok;
      line_start = false;
      last_sig = 'a';
      continue;
    }
    if (c == '#') {
      if (line_start && directive_cues(code, i, s)) {
        line_start = false;
        last_sig = 'a';
      } else {
        s.py += 0.5;  // a '#' comment
      }
      while (i < n && !is_break(code[i])) ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && code[i + 1] == '/') {
      if (line_start) s.cfam += 0.5;
      while (i < n && !is_break(code[i])) ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && code[i + 1] == '*') {
      s.cfam += 0.5;
      const std::size_t e = code.find("*/", i + 2);
      i = (e == npos) ? n : e + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      i = skip_string(code, i, s);
      line_start = false;
      last_sig = '"';
      continue;
    }
    if (c == '`') {
      s.js += 0.5;
      const std::size_t e = code.find('`', i + 1);
      i = (e == npos) ? n : e + 1;
      line_start = false;
      last_sig = '"';
      continue;
    }
    if (is_digit(c)) {
      while (i < n && (is_ident_char(code[i]) || code[i] == '.')) ++i;
      line_start = false;
      last_sig = '0';
      continue;
    }
    i += operator_cues(code, i, first_tok, s);
    line_start = false;
    last_sig = c;
  }
  end_line();
  return best_language(s);
}

}  // namespace codebias::analysis
