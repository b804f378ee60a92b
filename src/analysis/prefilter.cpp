#include "analysis/prefilter.h"

#include <string>
#include <unordered_map>

namespace codebias::analysis {
namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// The cache is per thread and bounded, so memory does not grow with the input.
class NameCache {
 public:
  const std::optional<NameMatch>& match(std::string_view name, const AttributeTable& table, std::string_view scenario) {
    if (&table != table_ || scenario != scenario_) {
      cache_.clear();
      table_ = &table;
      scenario_ = std::string(scenario);
    }
    key_.assign(name);
    auto it = cache_.find(key_);
    if (it != cache_.end()) return it->second;
    if (cache_.size() > kMaxEntries) cache_.clear();
    return cache_.emplace(key_, table.match_name(name, scenario)).first->second;
  }

  uint64_t bits(std::string_view name, const AttributeTable& table, std::string_view scenario) {
    if (name.empty() || name.size() > kMaxAttributeNameLength) return 0;
    const std::optional<NameMatch>& m = match(name, table, scenario);
    return m ? uint64_t{1} << (m->attribute - table.specs().data()) : 0;
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 16;
  const AttributeTable* table_ = nullptr;
  std::string scenario_;
  std::string key_;
  std::unordered_map<std::string, std::optional<NameMatch>> cache_;
};

NameCache& name_cache() {
  thread_local NameCache cache;
  return cache;
}

}  // namespace

std::optional<NameMatch> match_name_cached(std::string_view name, const AttributeTable& table, std::string_view scenario) {
  if (name.empty() || name.size() > kMaxAttributeNameLength) return std::nullopt;
  return name_cache().match(name, table, scenario);
}

uint64_t referenced_attributes(std::string_view code, Language language, const AttributeTable& table,
                               std::string_view scenario) {
  NameCache& cache = name_cache();
  bool hash_comments = language == Language::python;
  uint64_t found = 0;
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
      j = std::min(j, n);
      // Not a key (too long, or never closed): maybe prose with a stray quote, or a docstring
      // left open, so read what follows as code.
      if ((!triple && j - start > kMaxAttributeNameLength) || j >= n) {
        i = start;
        continue;
      }
      found |= cache.bits(code.substr(start, j - start), table, scenario);
      i = j >= n ? n : j + (triple ? 3 : 1);
    } else if (ident_start(c)) {
      size_t j = i;
      while (j < n && ident_char(code[j])) ++j;
      found |= cache.bits(code.substr(i, j - i), table, scenario);
      i = j;
    } else if (c >= '0' && c <= '9') {
      while (i < n && ident_char(code[i])) ++i;  // 2nd, 0x1F: not names
    } else {
      ++i;
    }
  }
  return found;
}

}  // namespace codebias::analysis
