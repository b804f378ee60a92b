// Line classification for unfenced text: markdown, sentences, statements, definitions.
#include "analysis/response/line_kinds.h"

namespace codebias::analysis::response_scanning {

bool is_markdown_marker(sv t) {  // t: left-trimmed, non-empty
  const char c = t[0];
  if ((c == '-' || c == '*' || c == '+') && t.size() > 1 && t[1] == ' ') return true;
  if (t.size() >= 2 && t[0] == '*' && t[1] == '*') return true;
  if (c == '#') {
    std::size_t k = 0;
    while (k < t.size() && t[k] == '#') ++k;
    if (k >= 2 && (k == t.size() || t[k] == ' ')) return true;  // "## Heading"
  }
  if (c == '>' && (t.size() == 1 || t[1] == ' ')) return true;
  if (c == '|') return true;
  if (t.size() >= 2 && t[0] == '!' && t[1] == '[') return true;
  if (is_digit(c)) {
    std::size_t k = 0;
    while (k < t.size() && k < 4 && is_digit(t[k])) ++k;
    if (k + 1 < t.size() && (t[k] == '.' || t[k] == ')') && t[k + 1] == ' ') return true;
  }
  return false;
}

bool looks_like_sentence(sv t) {  // t: trimmed, non-empty
  const char last = t.back();
  if (last != '.' && last != '!' && last != '?') return false;
  int spaces = 0;
  for (char c : t) {
    if (c == ' ' && ++spaces >= 3) return true;
  }
  return false;
}

namespace {

// Words that make a line code when they start it (followed by a suitable character).
bool is_code_keyword(sv w) {
  static constexpr sv kWords[] = {
      "return", "if", "elif", "else", "for", "while", "try", "except", "finally", "with",
      "raise", "pass", "break", "continue", "yield", "assert", "lambda", "global", "nonlocal",
      "del", "print", "switch", "case", "default", "do", "throw", "catch", "let", "const",
      "var", "function", "int", "double", "float", "bool", "boolean", "String", "string",
      "char", "void", "auto", "long", "short", "unsigned", "signed", "static", "public",
      "private", "protected", "final", "struct", "typedef", "enum", "namespace", "using",
      "template", "new", "delete", "self", "this", "await", "export", "module", "console",
      "System", "std", "None", "True", "False", "null", "nullptr", "package", "interface",
      "async", "def", "class", "import", "from", "elseif", "end", "score", "total_score"};
  static const WordSet set(kWords);
  return set.contains(w);
}

bool keyword_boundary_ok(sv t, std::size_t n) {
  if (n >= t.size()) return true;
  const char c = t[n];
  return is_hspace(c) || c == '(' || c == ':' || c == ';' || c == '.' || c == '<' || c == '[' ||
         c == '{' || c == '*' || c == '&' || c == '+' || c == '-' || c == '=';
}

}  // namespace

bool starts_with_statement(sv t) {
  std::size_t i = 0;
  const std::size_t n = t.size();
  if (n == 0 || !is_ident_start(t[0])) return false;
  auto read_path = [&]() {
    while (true) {
      while (i < n && is_ident_char(t[i])) ++i;
      if (i + 1 < n && t[i] == '.' && is_ident_start(t[i + 1])) {
        ++i;
        continue;
      }
      if (i < n && t[i] == '[') {
        int depth = 0;
        while (i < n) {
          if (t[i] == '[') ++depth;
          if (t[i] == ']' && --depth == 0) {
            ++i;
            break;
          }
          ++i;
        }
        continue;
      }
      break;
    }
  };
  read_path();
  if (i < n && t[i] == '(') return true;  // call without a space: f(x)
  std::size_t j = i;
  while (j < n && is_hspace(t[j])) ++j;
  if (j >= n) return false;
  const char c = t[j];
  const char d = j + 1 < n ? t[j + 1] : '\0';
  if (c == '=' && d != '=') return true;
  if ((c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '|' || c == '&' ||
       c == '^') && d == '=')
    return true;
  if ((c == '+' && d == '+') || (c == '-' && d == '-')) return true;
  if (c == ':' && d != ':') {  // annotation "x: int = 3" or object entry "key: value,"
    const sv rest = t.substr(j + 1);
    return rest.find('=') != npos || t.back() == ',' || t.back() == '{';
  }
  // Declaration "Type name = ..." / "Type *name;" / "Type name(...)"
  while (j < n && (t[j] == '*' || t[j] == '&' || is_hspace(t[j]))) ++j;
  if (j < n && is_ident_start(t[j]) && j > i) {
    while (j < n && is_ident_char(t[j])) ++j;
    while (j < n && is_hspace(t[j])) ++j;
    if (j < n && (t[j] == '=' || t[j] == ';' || t[j] == '(' || t[j] == '[')) {
      return !(t[j] == '=' && j + 1 < n && t[j + 1] == '=');
    }
  }
  return false;
}

bool is_type_word(sv w) {
  static constexpr sv kTypes[] = {
      "int", "double", "float", "void", "char", "bool", "boolean", "long", "short", "unsigned",
      "signed", "auto", "String", "string", "size_t", "inline", "extern", "Map", "List",
      "Integer", "Double", "Object", "uint32_t", "int32_t", "uint64_t", "int64_t"};
  static const WordSet set(kTypes);
  return set.contains(w);
}

bool is_def_start(sv t) {  // t: trimmed, non-empty
  const char c0 = t[0];
  if (c0 == '#') {
    return t.starts_with("#include") || t.starts_with("#define") || t.starts_with("#import") ||
           t.starts_with("#pragma");
  }
  if (c0 == '@') return t.size() > 1 && is_ident_start(t[1]);
  const sv w = leading_word(t);
  if (w.empty()) return false;
  const sv rest = t.substr(w.size());
  const sv after = trim_left(rest);
  const bool space_after = !rest.empty() && is_hspace(rest[0]);
  const auto contains = [&](sv needle) { return t.find(needle) != npos; };

  if (is(w, "def")) return space_after && !after.empty() && is_ident_start(after[0]);
  if (is(w, "class")) {
    return space_after && !after.empty() && is_ident_start(after[0]) &&
           (contains(":") || contains("{") || contains("(") || leading_word(after) == after);
  }
  if (is(w, "import")) {
    return space_after && !after.empty() && (is_ident_start(after[0]) || after[0] == '{' ||
                                             after[0] == '*' || after[0] == '"' ||
                                             after[0] == '\'') &&
           !looks_like_sentence(t);
  }
  if (is(w, "from")) return space_after && contains(" import ");
  if (is(w, "async")) return after.starts_with("def ") || after.starts_with("function");
  if (is(w, "function")) return rest.empty() || rest[0] == '(' || is_hspace(rest[0]);
  if (is(w, "export")) {
    const sv w2 = leading_word(after);
    static constexpr sv kExp[] = {"function", "const", "default", "class", "let", "async",
                                  "interface", "type", "var", "enum"};
    return space_after && one_of(w2, kExp);
  }
  if (is(w, "const") || is(w, "let") || is(w, "var")) {
    if (!space_after) return false;
    const sv name = leading_word(after);
    if (name.empty()) return false;
    sv r = trim_left(after.substr(name.size()));
    if (r.starts_with(":")) {  // TypeScript annotation: const f: Fn = ...
      const std::size_t eq = r.find('=');
      if (eq == npos) return false;
      r = r.substr(eq);
    }
    if (!r.starts_with("=") || r.starts_with("==")) return false;
    r = trim_left(r.substr(1));
    return r.starts_with("(") || r.starts_with("function") || r.starts_with("async") ||
           r.starts_with("{") || r.starts_with("[") || t.find("=>") != npos;
  }
  if (is(w, "public") || is(w, "private") || is(w, "protected")) {
    return space_after && (contains("(") || contains("{") || contains("class "));
  }
  if (is(w, "static")) return space_after && contains("(");
  if (is(w, "package")) return space_after && t.back() == ';';
  if (is(w, "template")) return after.starts_with("<");
  if (is(w, "namespace") || is(w, "typedef")) return space_after;
  if (is(w, "using")) return after.starts_with("namespace ");
  if (is(w, "struct") || is(w, "interface") || is(w, "enum")) {
    return space_after && (contains("{") || t.back() == '{');
  }
  if (is_type_word(w) || (is(w, "std") && rest.starts_with("::"))) {
    // C / C++ / Java function header: "int f(...)", "std::string f(...) {", not "int x = 0;".
    const std::size_t paren = t.find('(');
    if (paren == npos || t.back() == ';') return false;
    const std::size_t eq = t.find('=');
    return eq == npos || eq > paren;
  }
  // A table the function uses, defined before it: "WEIGHTS = {" / "weights = [".
  {
    std::size_t i = w.size();
    while (i < t.size() && is_hspace(t[i])) ++i;
    if (i < t.size() && t[i] == '=' && (i + 1 >= t.size() || t[i + 1] != '=')) {
      const sv r = trim(t.substr(i + 1));
      return is(r, "{") || is(r, "[") || is(r, "dict(") || r.starts_with("{'") ||
             r.starts_with("{\"") || (r.starts_with("{") && r.back() == '}' && r.find(':') != npos);
    }
  }
  return false;
}

Kind classify(sv raw) {
  const sv t = trim(raw);
  if (t.empty()) return Kind::blank;
  if (is_def_start(t)) return Kind::def;
  if (is_markdown_marker(t)) return Kind::prose;
  const char c = t[0];
  if (c == '#') return Kind::code;  // a comment or preprocessor line ("## Heading" is prose)
  if (t.starts_with("//") || t.starts_with("/*") || t.starts_with("*/")) return Kind::code;
  if (c == '}' || c == ')' || c == ']' || c == '{') return Kind::code;
  if (c == '"' || c == '\'' || c == '(' || c == '[') {
    return looks_like_sentence(t) ? Kind::prose : Kind::code;
  }
  if (looks_like_sentence(t)) return Kind::prose;
  const sv w = leading_word(t);
  if (!w.empty() && is_code_keyword(w) && keyword_boundary_ok(t, w.size())) return Kind::code;
  if (starts_with_statement(t)) return Kind::code;
  const char last = t.back();
  if (last == ';' || last == '{') return Kind::code;
  return Kind::prose;
}

}  // namespace codebias::analysis::response_scanning
