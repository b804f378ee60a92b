// Taking an LLM response apart: reasoning vs answer, and the code blocks in the answer.
//
// Everything here is hand-written scanning over std::string_view: no regex, no allocation per
// character, linear in the input (no step rescans a line more than a constant number of times).
// Only ASCII bytes carry meaning; any other byte (invalid UTF-8, NUL, ...) is ordinary text.
// Line breaks are "\n", "\r\n" or a lone "\r"; each counts as one line everywhere in this file,
// and CodeBlock::code always uses "\n" (every line, the last one included, ends with it). Line k
// (0-based) of a block's code is line first_line + k of the response; leading and trailing blank
// lines are dropped, and a fence's own indentation is removed from the lines it holds.
//
// How messy output is read (see the corpus notes in the tests):
//  - fences: ``` / ~~~ (3+), any indentation, a tag with extra words; text glued before "```tag"
//    opens there; "code```" at a line end closes; "```python" inside an open block starts a new
//    block (the old one is unclosed); a lone "``" as the last line closes a block. An unclosed
//    block is cut at the first think tag or plain-prose line at indentation 0 (the model's
//    rambling); a closed block holding a think tag is cut there and counts as unclosed.
//  - an untagged fence right after unfenced code and before prose is a closing fence of code
//    that was never opened.
//  - unfenced code (no fences, or fences holding no definition, e.g. only sample output):
//    regions from a definition line through the last code-looking line, split at prose; when
//    nothing else is found, a function body without its header (head cut off) still counts.

#include "analysis/response/response.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <cstddef>
#include <span>

namespace codebias::analysis {

namespace {

using sv = std::string_view;
constexpr std::size_t npos = sv::npos;

constexpr bool is_hspace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
constexpr bool is_break(char c) { return c == '\n' || c == '\r'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_ident_start(char c) { return is_alpha(c) || c == '_' || c == '$'; }
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
constexpr char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

sv trim_left(sv s) {
  std::size_t i = 0;
  while (i < s.size() && is_hspace(s[i])) ++i;
  return s.substr(i);
}
sv trim_right(sv s) {
  std::size_t n = s.size();
  while (n > 0 && is_hspace(s[n - 1])) --n;
  return s.substr(0, n);
}
sv trim(sv s) { return trim_right(trim_left(s)); }
std::size_t indent_of(sv line) {
  std::size_t i = 0;
  while (i < line.size() && is_hspace(line[i])) ++i;
  return i;
}
bool is_blank(sv s) { return trim_left(s).empty(); }

struct Line {
  sv text;      // without the line break
  int number;   // 1-based line of the response
};

std::vector<Line> split_lines(sv text, int first_number) {
  std::vector<Line> out;
  const bool has_cr = text.find('\r') != npos;
  out.reserve(text.size() / 32 + 4);
  std::size_t start = 0;
  int number = first_number;
  if (!has_cr) {  // the common case: memchr from break to break
    for (std::size_t e = text.find('\n'); e != npos; e = text.find('\n', start)) {
      out.push_back({text.substr(start, e - start), number++});
      start = e + 1;
    }
  } else {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (!is_break(c)) continue;
      out.push_back({text.substr(start, i - start), number++});
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  out.push_back({text.substr(start), number});
  return out;
}

// The identifier at the start of `t` (empty when `t` does not start with one).
sv leading_word(sv t) {
  std::size_t i = 0;
  if (t.empty() || !is_ident_start(t[0])) return {};
  while (i < t.size() && is_ident_char(t[i])) ++i;
  return t.substr(0, i);
}

// Comparison with a literal: a fixed-size memcmp the compiler inlines.
template <std::size_t N>
bool is(sv w, const char (&lit)[N]) {
  return w.size() == N - 1 && std::memcmp(w.data(), lit, N - 1) == 0;
}

// A small set of words, bucketed by first character and length.
class WordSet {
 public:
  template <std::size_t N>
  explicit WordSet(const sv (&words)[N]) {
    for (sv w : words) buckets_[bucket(w)].push_back(w);
  }
  bool contains(sv w) const {
    if (w.empty()) return false;
    for (sv x : buckets_[bucket(w)]) {
      if (x.size() == w.size() && std::memcmp(x.data(), w.data(), w.size()) == 0) return true;
    }
    return false;
  }

 private:
  static std::size_t bucket(sv w) {
    return (static_cast<unsigned char>(w[0]) * 8u + w.size()) & 127u;
  }
  std::array<std::vector<sv>, 128> buckets_;
};

template <std::size_t N>
bool one_of(sv w, const sv (&list)[N]) {
  for (sv x : list) {
    if (x.size() == w.size() && !w.empty() && x[0] == w[0] && x == w) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Fence tags.

enum class TagKind { none, supported, other_language, unrecognized };

struct TagInfo {
  TagKind kind = TagKind::none;
  Language language = Language::unknown;
};

TagInfo classify_tag(sv info) {
  // The tag is the first word of the info string, e.g. "python" in "python title=x" or "{python}".
  info = trim(info);
  std::size_t i = 0;
  while (i < info.size() && (info[i] == '{' || info[i] == '.')) ++i;
  std::size_t j = i;
  while (j < info.size() && !is_hspace(info[j]) && info[j] != '}' && info[j] != ',') ++j;
  const sv word = info.substr(i, j - i);
  if (word.empty()) return {};
  if (word.size() > 16) return {TagKind::unrecognized, Language::unknown};
  char buf[16];
  for (std::size_t k = 0; k < word.size(); ++k) buf[k] = to_lower(word[k]);
  const sv w(buf, word.size());

  static constexpr sv kPython[] = {"python", "py", "python3", "py3", "python2", "ipython", "pycon"};
  static constexpr sv kC[] = {"c", "h"};
  static constexpr sv kCpp[] = {"cpp", "c++", "cxx", "cc", "hpp", "cplusplus"};
  static constexpr sv kJs[] = {"javascript", "js", "jsx", "node", "nodejs", "mjs", "cjs", "es6"};
  static constexpr sv kTs[] = {"typescript", "ts", "tsx"};
  static constexpr sv kJava[] = {"java"};
  static constexpr sv kOther[] = {
      "text", "txt", "plaintext", "plain", "output", "console", "json", "yaml", "yml",
      "markdown", "md", "csv", "bash", "sh", "shell", "zsh", "sql", "html", "xml", "css",
      "diff", "go", "golang", "rust", "rs", "ruby", "rb", "php", "csharp", "cs", "c#",
      "kotlin", "swift", "scala", "r", "perl", "lua", "matlab", "pseudo", "pseudocode",
      "toml", "ini", "powershell", "ps1", "bat", "cmd"};
  if (one_of(w, kPython)) return {TagKind::supported, Language::python};
  if (one_of(w, kC)) return {TagKind::supported, Language::c};
  if (one_of(w, kCpp)) return {TagKind::supported, Language::cpp};
  if (one_of(w, kJs)) return {TagKind::supported, Language::javascript};
  if (one_of(w, kTs)) return {TagKind::supported, Language::typescript};
  if (one_of(w, kJava)) return {TagKind::supported, Language::java};
  if (one_of(w, kOther)) return {TagKind::other_language, Language::unknown};
  return {TagKind::unrecognized, Language::unknown};
}

// ---------------------------------------------------------------------------------------------
// Fences.

struct FenceOpen {
  char ch = '`';
  std::size_t len = 0;
  std::size_t indent = 0;
  sv info;
};

// A line that starts (after indentation) with ``` or ~~~ (3 or more).
bool parse_fence_start(sv line, FenceOpen& f) {
  const std::size_t ind = indent_of(line);
  if (ind >= line.size()) return false;
  const char c = line[ind];
  if (c != '`' && c != '~') return false;
  std::size_t j = ind;
  while (j < line.size() && line[j] == c) ++j;
  const std::size_t len = j - ind;
  if (len < 3) return false;
  const sv info = trim(line.substr(j));
  if (c == '`' && info.find('`') != npos) return false;  // inline code such as ```x```, not a fence
  f = {c, len, ind, info};
  return true;
}

bool is_closing_fence(sv line, char ch, std::size_t len) {
  const sv t = trim(line);
  if (t.size() < len) return false;
  for (char c : t) {
    if (c != ch) return false;
  }
  return true;
}

constexpr bool is_tag_char(char c) {
  return is_ident_char(c) || c == '+' || c == '#' || c == '-' || c == '.';
}

// Text glued before a backtick fence on the same line: "...skills```python" or "return x```".
struct GluedFence {
  sv prefix;  // the text before the fence (not blank)
  std::size_t len = 0;
  sv tag;     // word after the fence, possibly empty
};

bool parse_glued_fence(sv line, GluedFence& g) {
  const sv t = trim_right(line);
  if (t.empty()) return false;
  std::size_t k = t.size();
  while (k > 0 && is_tag_char(t[k - 1])) --k;
  std::size_t r = k;
  while (r > 0 && t[r - 1] == '`') --r;
  const std::size_t len = k - r;
  if (len < 3) return false;
  const sv prefix = t.substr(0, r);
  if (is_blank(prefix)) return false;           // a fence at line start: not glued
  if (prefix.find('`') != npos) return false;   // inline code spans on the line
  g = {prefix, len, t.substr(k)};
  return true;
}

// ---------------------------------------------------------------------------------------------
// Line classification for unfenced text.

enum class Kind { blank, prose, code, def };

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

// A sentence: ends with . ! or ? and has several words. Code lines never end like that.
bool looks_like_sentence(sv t) {  // t: trimmed, non-empty
  const char last = t.back();
  if (last != '.' && last != '!' && last != '?') return false;
  int spaces = 0;
  for (char c : t) {
    if (c == ' ' && ++spaces >= 3) return true;
  }
  return false;
}

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

// "a.b[c] = ...", "x += 1", "f(x)", "Type name = ...", "x: int = 3".
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

// A line that starts a definition: where raw (unfenced) code begins.
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

bool is_codeish(Kind k) { return k == Kind::code || k == Kind::def; }

// Multi-line string / comment state while walking raw text.
struct TextState {
  char triple = 0;            // '"' or '\'' while inside a Python triple-quoted string
  bool block_comment = false;  // inside /* ... */
  bool inside() const { return triple != 0 || block_comment; }
};

// The characters update_state stops at.
constexpr auto kStateChar = [] {
  std::array<bool, 256> t{};
  t['#'] = t['/'] = t['"'] = t['\''] = true;
  return t;
}();

void update_state(sv line, TextState& state) {
  TextState st = state;  // a local copy: char data would otherwise alias the state
  std::size_t i = 0;
  const std::size_t n = line.size();
  const char* d = line.data();
  while (i < n) {
    if (st.triple != 0) {
      const char q[3] = {st.triple, st.triple, st.triple};
      const std::size_t p = line.find(sv(q, 3), i);
      if (p == npos) break;
      st.triple = 0;
      i = p + 3;
      continue;
    }
    if (st.block_comment) {
      const std::size_t p = line.find("*/", i);
      if (p == npos) break;
      st.block_comment = false;
      i = p + 2;
      continue;
    }
    while (i < n && !kStateChar[static_cast<unsigned char>(d[i])]) ++i;
    if (i >= n) break;
    const char c = d[i];
    if (c == '#') break;
    if (c == '/') {
      if (i + 1 < n && d[i + 1] == '/') break;
      if (i + 1 < n && d[i + 1] == '*') {
        st.block_comment = true;
        i += 2;
      } else {
        ++i;
      }
      continue;
    }
    if (i + 2 < n && d[i + 1] == c && d[i + 2] == c) {
      st.triple = c;
      i += 3;
      continue;
    }
    // A one-line string: skip it. An unmatched quote (an apostrophe in prose) ends the scan.
    std::size_t j = i + 1;
    while (j < n && d[j] != c) j += (d[j] == '\\') ? 2 : 1;
    if (j >= n) break;
    i = j + 1;
  }
  state = st;
}

// ---------------------------------------------------------------------------------------------
// Building blocks.

void append_block(std::vector<CodeBlock>& out, std::span<const sv> pieces, int first_number,
                  std::size_t strip_indent, Language language, bool fenced, bool closed,
                  bool detect) {
  std::size_t b = 0;
  std::size_t e = pieces.size();
  while (b < e && is_blank(pieces[b])) ++b;
  while (e > b && is_blank(pieces[e - 1])) --e;
  if (b == e) return;  // whitespace only
  std::size_t total = 0;
  for (std::size_t i = b; i < e; ++i) total += pieces[i].size() + 1;
  CodeBlock block;
  block.code.reserve(total);
  for (std::size_t i = b; i < e; ++i) {
    sv p = pieces[i];
    std::size_t k = 0;
    while (k < strip_indent && k < p.size() && is_hspace(p[k])) ++k;
    block.code.append(p.substr(k));
    block.code.push_back('\n');
  }
  block.first_line = first_number + static_cast<int>(b);
  block.fenced = fenced;
  block.closed = closed;
  block.language = detect ? detect_language(block.code) : language;
  out.push_back(std::move(block));
}

// A line (inside a string) that holds a Python function header, possibly glued to text before it.
bool restarts_definition(sv line) {
  const sv t = trim_right(line);
  if (t.empty() || t.back() != ':') return false;
  std::size_t p = t.find("def ");
  while (p != npos) {
    const sv after = trim_left(t.substr(p + 4));
    if (!after.empty() && is_ident_start(after[0]) && after.find('(') != npos) return true;
    p = t.find("def ", p + 4);
  }
  return false;
}

// Raw (unfenced) code regions: from a line that starts a definition through the last code-looking
// line, split at prose paragraphs. Once a definition was seen, any code-looking line opens a new
// region (example usage after an explanation, helpers). In `fragment` mode (used only when nothing
// else was found: a response that starts in the middle of a function) any code line opens one.
void scan_raw(std::span<const Line> lines, bool& seen_def, bool fragment,
              std::vector<CodeBlock>& out) {
  TextState st;  // tracked inside regions only: quotes in prose mean nothing
  bool track = true;
  int rewinds = 0;
  bool in_region = false;
  std::size_t start = 0;
  std::size_t last = 0;
  std::size_t base_indent = 0;
  std::size_t open_line = 0;  // where the string / comment we are inside began
  std::vector<sv> pieces;
  auto emit = [&]() {
    pieces.clear();
    for (std::size_t k = start; k <= last; ++k) pieces.push_back(lines[k].text);
    append_block(out, pieces, lines[start].number, 0, Language::unknown, false, true, true);
    in_region = false;
    st = {};
  };
  auto track_line = [&](std::size_t i) {
    if (!track) return;
    const bool before = st.inside();
    update_state(lines[i].text, st);
    if (!before && st.inside()) open_line = i;
  };
  std::size_t i = 0;
  while (true) {
    for (; i < lines.size(); ++i) {
      const sv text = lines[i].text;
      if (!in_region) {
        const Kind k = classify(text);
        if (k == Kind::def || ((seen_def || fragment) && k == Kind::code)) {
          const sv t = trim(text);
          // A fragment that starts inside a docstring: its closing quotes are not code.
          if (fragment && !seen_def && (is(t, "\"\"\"") || is(t, "'''"))) continue;
          in_region = true;
          seen_def = seen_def || k == Kind::def;
          start = last = i;
          base_indent = indent_of(text);
          track_line(i);
        }
        continue;
      }
      const bool was_inside = st.inside();
      if (was_inside && restarts_definition(text)) {
        // "...attributes: a, bdef evaluate(x):" inside a docstring: the model (or the echoed
        // prompt) broke off and started the function again; the old docstring never closes.
        st = {};
        last = i;
        continue;
      }
      track_line(i);
      const sv t = trim(text);
      if (t.empty()) continue;
      if (!was_inside) {
        // Indented non-sentence lines inside a region are bodies / continuation lines; anything
        // else must look like code by itself.
        const bool body_line =
            indent_of(text) > base_indent && !is_markdown_marker(t) && !looks_like_sentence(t);
        if (!body_line && classify(t) == Kind::prose) {
          emit();
          continue;
        }
      }
      last = i;
    }
    if (in_region && st.inside()) {
      // The text ended inside a string or comment that never closes (an echoed prompt whose
      // docstring runs into prose, a garbled quote): its opener was not one. Go back and read
      // what follows it as ordinary lines. Bounded, so that the scan stays linear.
      st = {};
      last = open_line;
      i = open_line + 1;
      if (++rewinds >= 4) track = false;
      continue;
    }
    break;
  }
  if (in_region) emit();
}

// A block that was never closed runs to the end of the response (or to where the model restarted
// with a new fence), often through the model's degenerate rambling. Cut it at the first think tag
// or at the first plain-prose line at indentation 0 (outside strings): code never contains those.
std::size_t cut_off_point(std::span<const sv> pieces) {
  TextState st;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const sv line = pieces[k];
    if (line.find("<think>") != npos || line.find("</think>") != npos) return k;
    const bool was_inside = st.inside();
    update_state(line, st);
    if (was_inside || k == 0 || indent_of(line) != 0) continue;
    const sv t = trim(line);
    if (t.empty()) continue;
    if (classify(t) != Kind::prose) continue;
    if (is_markdown_marker(t) || looks_like_sentence(t)) return k;
    // "Okay, so I think ..." / "Alright, let me": a capitalised run of words.
    if (t[0] >= 'A' && t[0] <= 'Z' && std::count(t.begin(), t.end(), ' ') >= 2) return k;
  }
  return pieces.size();
}

// At least three lines, and statements a function body is made of.
bool looks_like_fragment(sv code) {
  int lines = 0;
  int statements = 0;
  std::size_t pos = 0;
  while (pos < code.size()) {
    std::size_t e = code.find('\n', pos);
    if (e == npos) e = code.size();
    const sv t = trim(code.substr(pos, e - pos));
    pos = e + 1;
    if (t.empty()) continue;
    ++lines;
    const sv w = leading_word(t);
    if (is(w, "return") || is(w, "if") || is(w, "elif") || is(w, "else") || is(w, "for") || is(w, "while") ||
        starts_with_statement(t)) {
      ++statements;
    }
  }
  return lines >= 3 && statements >= 2;
}

bool block_has_definition(const CodeBlock& b) {
  std::size_t pos = 0;
  const sv code = b.code;
  while (pos < code.size()) {
    std::size_t e = code.find('\n', pos);
    if (e == npos) e = code.size();
    const sv t = trim(code.substr(pos, e - pos));
    if (!t.empty() && is_def_start(t)) return true;
    pos = e + 1;
  }
  return false;
}

}  // namespace

// =============================================================================================

const char* to_string(Language language) {
  switch (language) {
    case Language::python: return "python";
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::javascript: return "javascript";
    case Language::typescript: return "typescript";
    case Language::java: return "java";
    case Language::unknown: break;
  }
  return "";
}

Language language_from_tag(std::string_view tag) {
  return classify_tag(tag).language;
}

std::string_view response_line(std::string_view text, int line) {
  if (line < 1) return {};
  std::size_t pos = 0;
  const bool has_cr = text.find('\r') != npos;
  for (int i = 1; i < line; ++i) {
    const std::size_t e = has_cr ? text.find_first_of("\r\n", pos) : text.find('\n', pos);
    if (e == npos) return {};
    pos = e + 1;
    if (text[e] == '\r' && pos < text.size() && text[pos] == '\n') ++pos;
  }
  const std::size_t e = has_cr ? text.find_first_of("\r\n", pos) : text.find('\n', pos);
  return text.substr(pos, e == npos ? npos : e - pos);
}

ReasoningView split_reasoning(std::string_view response) { return view_leading_trace(response); }

std::vector<CodeBlock> extract_code_blocks(const ReasoningView& split) {
  std::vector<CodeBlock> blocks;
  if (split.answer.empty()) return blocks;
  const std::vector<Line> lines = split_lines(split.answer, split.answer_first_line);
  const std::span<const Line> all(lines);

  struct Open {
    FenceOpen fence;
    TagInfo tag;
    std::size_t first = 0;  // index of the first content line
  };
  bool in_block = false;
  Open cur;
  std::size_t gap_start = 0;                                 // first line not yet consumed
  std::vector<std::pair<std::size_t, std::size_t>> gaps;     // unfenced line ranges [b, e)
  bool seen_def = false;                                     // for raw scans of stray segments
  std::vector<sv> pieces;

  auto finish = [&](std::size_t end, sv tail, bool closed) {
    pieces.clear();
    for (std::size_t k = cur.first; k < end; ++k) pieces.push_back(lines[k].text);
    if (!tail.empty()) pieces.push_back(tail);
    if (!closed) {
      pieces.resize(cut_off_point(pieces));
    } else {
      // Think tags never occur in real code: a closed block holding one is the model
      // degenerating mid-answer and closing the fence afterwards. Its code ends there.
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        if (pieces[k].find("think>") == npos) continue;
        if (pieces[k].find("<think>") == npos && pieces[k].find("</think>") == npos) continue;
        pieces.resize(k);
        closed = false;
        break;
      }
    }
    const bool detect = cur.tag.kind != TagKind::supported && cur.tag.kind != TagKind::other_language;
    const int first_number = cur.first < lines.size() ? lines[cur.first].number
                                                      : lines.back().number + 1;
    append_block(blocks, pieces, first_number, cur.fence.indent, cur.tag.language, true, closed,
                 detect);
    in_block = false;
  };
  auto open = [&](const FenceOpen& f, std::size_t fence_line) {
    if (fence_line > gap_start) gaps.emplace_back(gap_start, fence_line);
    cur.fence = f;
    cur.tag = classify_tag(f.info);
    cur.first = fence_line + 1;
    in_block = true;
  };
  auto next_nonblank = [&](std::size_t i) -> std::size_t {
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      if (!is_blank(lines[j].text)) return j;
    }
    return npos;
  };
  // An untagged fence right after unfenced code and before prose closes code that was never
  // opened ("def f(): ... return x\n```\n\nThis function ..."). Scan that code as raw text.
  auto try_stray_closer = [&](std::size_t i, sv glued_prefix) -> bool {
    bool prev_code = false;
    if (!glued_prefix.empty()) {
      prev_code = is_codeish(classify(glued_prefix));
    } else {
      for (std::size_t j = i; j-- > gap_start;) {
        if (!is_blank(lines[j].text)) {
          prev_code = is_codeish(classify(lines[j].text));
          break;
        }
      }
    }
    if (!prev_code) return false;
    const std::size_t nx = next_nonblank(i);
    if (nx != npos) {
      FenceOpen f2;
      if (!parse_fence_start(lines[nx].text, f2) && is_codeish(classify(lines[nx].text))) {
        return false;
      }
    }
    std::vector<Line> seg(lines.begin() + static_cast<std::ptrdiff_t>(gap_start),
                          lines.begin() + static_cast<std::ptrdiff_t>(i));
    if (!glued_prefix.empty()) seg.push_back({glued_prefix, lines[i].number});
    bool seen = seen_def;
    const std::size_t before = blocks.size();
    scan_raw(seg, seen, false, blocks);
    if (blocks.size() == before) return false;
    seen_def = seen;
    gap_start = i + 1;
    return true;
  };

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const sv text = lines[i].text;
    const std::size_t ind = indent_of(text);
    const char lead = ind < text.size() ? text[ind] : '\0';
    const bool fence_lead = lead == '`' || lead == '~';
    // A glued fence needs a backtick right before the (tag-character) tail of the line.
    const sv tail = trim_right(text);
    std::size_t k = tail.size();
    while (k > 0 && is_tag_char(tail[k - 1])) --k;
    const bool glued_candidate = k > 0 && tail[k - 1] == '`';
    if (!in_block) {
      FenceOpen f;
      if (fence_lead && parse_fence_start(text, f)) {
        if (f.ch == '`' && f.info.empty() && try_stray_closer(i, {})) continue;
        open(f, i);
        continue;
      }
      GluedFence g;
      if (glued_candidate && parse_glued_fence(text, g)) {
        const TagInfo tag = classify_tag(g.tag);
        if (g.tag.empty() || tag.kind == TagKind::supported) {
          if (g.tag.empty() && try_stray_closer(i, g.prefix)) continue;
          open({'`', g.len, 0, g.tag}, i);
        }
      }
      continue;
    }
    // Inside a block.
    if (lead == cur.fence.ch && is_closing_fence(text, cur.fence.ch, cur.fence.len)) {
      finish(i, {}, true);
      gap_start = i + 1;
      continue;
    }
    if (lead == cur.fence.ch && is_closing_fence(text, cur.fence.ch, 1) &&
        next_nonblank(i) == npos) {
      // A short fence ("``") as the very last line: a malformed close of a complete block.
      finish(i, {}, true);
      gap_start = i + 1;
      continue;
    }
    FenceOpen f;
    if (fence_lead && parse_fence_start(text, f) &&
        classify_tag(f.info).kind == TagKind::supported) {
      // "```python" inside an open block: the model restarted without closing the first block.
      finish(i, {}, false);
      gap_start = i;
      open(f, i);
      continue;
    }
    if (cur.fence.ch == '`' && glued_candidate) {
      GluedFence g;
      if (parse_glued_fence(text, g) && g.len >= cur.fence.len) {
        const TagInfo tag = classify_tag(g.tag);
        if (g.tag.empty()) {  // "    return score```": closes the block
          finish(i, g.prefix, true);
          gap_start = i + 1;
          continue;
        }
        if (tag.kind == TagKind::supported) {  // "...cut off```python": restart
          finish(i, g.prefix, false);
          gap_start = i;
          open({'`', g.len, 0, g.tag}, i);
          continue;
        }
      }
    }
  }
  if (in_block) {
    finish(lines.size(), {}, false);
    gap_start = lines.size();
  }
  if (gap_start < lines.size()) gaps.emplace_back(gap_start, lines.size());

  // No fences (or fences holding no definition, e.g. only sample output): look for raw code in
  // the text between them.
  const bool any_definition =
      std::any_of(blocks.begin(), blocks.end(), [](const CodeBlock& b) { return block_has_definition(b); });
  if (!any_definition) {
    std::vector<CodeBlock> raw;
    bool seen = false;
    for (const auto& [b, e] : gaps) scan_raw(all.subspan(b, e - b), seen, false, raw);
    if (raw.empty() && blocks.empty()) {
      // Still nothing: the response may start in the middle of a function (its head cut off).
      // Accept code-looking regions of some substance.
      std::vector<CodeBlock> frag;
      seen = false;
      for (const auto& [b, e] : gaps) scan_raw(all.subspan(b, e - b), seen, true, frag);
      for (auto& f : frag) {
        if (looks_like_fragment(f.code)) raw.push_back(std::move(f));
      }
    }
    if (!raw.empty()) {
      for (auto& r : raw) blocks.push_back(std::move(r));
      std::stable_sort(blocks.begin(), blocks.end(), [](const CodeBlock& a, const CodeBlock& b) {
        return a.first_line < b.first_line;
      });
    }
  }
  return blocks;
}

// =============================================================================================
// Language detection: weighted cues from one pass over the tokens, skipping strings and
// comments (docstrings and comments are English and would mislead keyword counts).

namespace {

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

void token_cues(sv tok, sv code, std::size_t after, char before, bool line_start, Cues& s) {
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
      if (line_start) {
        const sv w = peek_word(code, i + 1);
        if (is(w, "include") || is(w, "define") || is(w, "ifndef") || is(w, "ifdef") || is(w, "endif") ||
            is(w, "pragma") || is(w, "undef")) {
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
          line_start = false;
          last_sig = 'a';
        } else {
          s.py += 0.5;  // a '#' comment
        }
      } else {
        s.py += 0.5;
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
      if (i + 2 < n && code[i + 1] == c && code[i + 2] == c) {
        s.py += 2;
        const char q[3] = {c, c, c};
        const std::size_t e = code.find(sv(q, 3), i + 3);
        i = (e == npos) ? n : e + 3;
      } else {
        std::size_t j = i + 1;
        while (j < n && code[j] != c && !is_break(code[j])) j += (code[j] == '\\') ? 2 : 1;
        i = (j < n && code[j] == c) ? j + 1 : std::min(j, n);
      }
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
    i += step;
    line_start = false;
    last_sig = c;
  }
  end_line();

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

}  // namespace codebias::analysis
