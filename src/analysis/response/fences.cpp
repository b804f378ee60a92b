// Fence tags, fence lines and glued fences.
#include "analysis/response/fences.h"

namespace codebias::analysis::response_scanning {

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

}  // namespace codebias::analysis::response_scanning
