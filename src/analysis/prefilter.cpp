#include "analysis/prefilter.h"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace codebias::analysis {
namespace {

enum CharClass : uint8_t { kOther, kIdentStart, kDigit };

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> table{};
  for (int c = 'a'; c <= 'z'; ++c) table[static_cast<size_t>(c)] = kIdentStart;
  for (int c = 'A'; c <= 'Z'; ++c) table[static_cast<size_t>(c)] = kIdentStart;
  for (int c = '0'; c <= '9'; ++c) table[static_cast<size_t>(c)] = kDigit;
  table['_'] = kIdentStart;
  table['$'] = kIdentStart;
  return table;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

uint8_t class_of(char c) { return kClasses[static_cast<unsigned char>(c)]; }
bool ident_start(char c) { return class_of(c) == kIdentStart; }
bool ident_char(char c) { return class_of(c) != kOther; }

// The cache is per thread and bounded, so memory does not grow with the input.
class NameCache {
 public:
  const std::optional<NameMatch>& match(std::string_view name, const AttributeTable& table, std::string_view scenario) {
    if (&table != table_ || scenario != scenario_) {
      cache_.clear();
      table_ = &table;
      scenario_ = std::string(scenario);
      build_anchors(table);
    }
    key_.assign(name);
    auto it = cache_.find(key_);
    if (it != cache_.end()) return it->second;
    if (cache_.size() > kMaxEntries) cache_.clear();
    return cache_.emplace(key_, table.match_name(name, scenario)).first->second;
  }

  uint64_t bits(std::string_view name, const AttributeTable& table, std::string_view scenario) {
    if (name.empty() || name.size() > kMaxAttributeNameLength) return 0;
    if (&table != table_ || scenario != scenario_) match(name, table, scenario);  // resets the anchors
    if (!has_anchor(name)) return 0;
    const std::optional<NameMatch>& m = match(name, table, scenario);
    return m ? uint64_t{1} << (m->attribute - table.specs().data()) : 0;
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 16;
  static constexpr uint32_t kAnchorBits = 1 << 15;

  // Every name the table accepts contains the first three letters of one of its tokens (lower
  // case): a bitmap of those trigrams rejects almost every other name before any lookup.
  static uint32_t lower(char x) {
    return static_cast<unsigned char>(x) | ((x >= 'A' && x <= 'Z') ? 0x20u : 0u);
  }
  static uint32_t trigram(char a, char b, char c) {
    return ((lower(a) << 10) ^ (lower(b) << 5) ^ lower(c)) & (kAnchorBits - 1);
  }

  void build_anchors(const AttributeTable& table) {
    anchors_.assign(kAnchorBits, 0);
    short_names_ = false;
    // A name must contain every token of a pattern, so the longest one is enough.
    auto add = [&](const std::vector<std::string>& tokens) {
      std::string longest;
      for (std::string token : tokens) {
        if (!token.empty() && token.back() == '*') token.pop_back();
        if (token.size() > longest.size()) longest = token;
      }
      if (longest.size() < 3) short_names_ = true;
      else anchors_[trigram(longest[0], longest[1], longest[2])] = 1;
    };
    for (const AttributeSpec& spec : table.specs()) {
      for (const NamePattern& pattern : spec.names) add(pattern.tokens);
      for (const FlagPattern& flag : spec.flags) add(flag.tokens);
    }
  }

  bool has_anchor(std::string_view name) const {
    if (short_names_) return true;
    for (size_t i = 0; i + 3 <= name.size(); ++i)
      if (anchors_[trigram(name[i], name[i + 1], name[i + 2])]) return true;
    return false;
  }

  std::vector<uint8_t> anchors_;
  bool short_names_ = true;
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
    } else if (class_of(c) == kDigit) {
      while (i < n && ident_char(code[i])) ++i;  // 2nd, 0x1F: not names
    } else {
      ++i;
    }
  }
  return found;
}

}  // namespace codebias::analysis
