#include "analysis/prefilter.h"

#include <algorithm>
#include <string>

namespace codebias::analysis {
namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

bool mentions(const AttributeSpec& attribute, std::string_view word) {
  if (word.empty() || word.size() > kMaxAttributeNameLength) return false;
  char lower[kMaxAttributeNameLength];
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  std::string_view w(lower, word.size());
  return std::any_of(attribute.prefilter.begin(), attribute.prefilter.end(),
                     [&](const std::string& p) { return w.find(p) != std::string_view::npos; });
}

}  // namespace

bool may_reference(const AttributeSpec* attribute, std::string_view code, Language language) {
  bool hash_comments = language == Language::python;
  size_t i = 0, n = code.size();
  while (i < n) {
    char c = code[i];
    if (hash_comments && c == '#') {
      while (i < n && code[i] != '\n') ++i;
    } else if (!hash_comments && c == '/' && i + 1 < n && code[i + 1] == '/') {
      while (i < n && code[i] != '\n') ++i;
    } else if (!hash_comments && c == '/' && i + 1 < n && code[i + 1] == '*') {
      size_t end = code.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
    } else if (c == '"' || c == '\'' || c == '`') {
      bool triple = i + 2 < n && code[i + 1] == c && code[i + 2] == c;
      size_t start = i + (triple ? 3 : 1);
      size_t j = start;
      while (j < n) {
        if (code[j] == '\\') {
          j += 2;
          continue;
        }
        if (code[j] == c && (!triple || (j + 2 < n && code[j + 1] == c && code[j + 2] == c))) break;
        if (!triple && code[j] == '\n' && c != '`') break;
        ++j;
      }
      if (mentions(*attribute, code.substr(start, std::min(j, n) - start))) return true;
      i = j >= n ? n : j + (triple ? 3 : 1);
    } else if (ident_start(c)) {
      size_t j = i;
      while (j < n && ident_char(code[j])) ++j;
      if (mentions(*attribute, code.substr(i, j - i))) return true;
      i = j;
    } else {
      ++i;
    }
  }
  return false;
}

}  // namespace codebias::analysis
