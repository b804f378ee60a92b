#include "analysis/parsing/prefilter.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace codebias::analysis {
namespace {

// What a byte starts, for the lexer below.
enum Lexeme : uint8_t { kPlain, kIdentifier, kDigitStart, kQuote, kHash, kSlash };

constexpr std::array<uint8_t, 256> make_lexemes() {
  std::array<uint8_t, 256> table{};
  for (int c = 'a'; c <= 'z'; ++c) table[static_cast<size_t>(c)] = kIdentifier;
  for (int c = 'A'; c <= 'Z'; ++c) table[static_cast<size_t>(c)] = kIdentifier;
  for (int c = '0'; c <= '9'; ++c) table[static_cast<size_t>(c)] = kDigitStart;
  table['_'] = kIdentifier;
  table['$'] = kIdentifier;
  table['"'] = kQuote;
  table['\''] = kQuote;
  table['`'] = kQuote;
  table['#'] = kHash;
  table['/'] = kSlash;
  return table;
}
constexpr std::array<uint8_t, 256> kLexemes = make_lexemes();

Lexeme lexeme_of(char c) { return static_cast<Lexeme>(kLexemes[static_cast<unsigned char>(c)]); }
bool ident_char(char c) {
  Lexeme l = lexeme_of(c);
  return l == kIdentifier || l == kDigitStart;
}

constexpr std::array<uint8_t, 256> make_lower_case() {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) table[static_cast<size_t>(c)] = static_cast<uint8_t>((c >= 'A' && c <= 'Z') ? c | 0x20 : c);
  return table;
}
constexpr std::array<uint8_t, 256> kLowerCase = make_lower_case();

size_t end_of_line(std::string_view code, size_t from) {
  size_t end = code.find('\n', from);
  return end == std::string_view::npos ? code.size() : end;
}

// The cache is per thread and bounded, so memory does not grow with the input.
class NameCache {
 public:
  // Binds the cache to a table and scenario. Matches are kept per scenario (inputs mix them);
  // another table empties the cache.
  void use(const AttributeTable& table, std::string_view scenario) {
    if (table.identity() == table_identity_ && scenario == by_scenario_[current_].scenario) return;
    table_ = &table;
    if (table.identity() != table_identity_) {
      by_scenario_.clear();
      table_identity_ = table.identity();
      build_anchors(table);
    }
    auto known = std::find_if(by_scenario_.begin(), by_scenario_.end(),
                              [&](const ScenarioMatches& m) { return m.scenario == scenario; });
    if (known == by_scenario_.end()) {
      if (by_scenario_.size() >= kMaxScenarios) by_scenario_.clear();
      by_scenario_.push_back(ScenarioMatches{std::string(scenario), {}});
      known = by_scenario_.end() - 1;
    }
    current_ = static_cast<size_t>(known - by_scenario_.begin());
  }

  const std::optional<NameMatch>& match(std::string_view name) {
    ScenarioMatches& matches = by_scenario_[current_];
    auto it = matches.names.find(name);
    if (it != matches.names.end()) return it->second;
    if (matches.names.size() > kMaxEntries) matches.names.clear();
    return matches.names.emplace(std::string(name), table_->match_name(name, matches.scenario)).first->second;
  }

  // Call use() first.
  uint64_t bits(std::string_view name) {
    if (name.empty() || name.size() > kMaxAttributeNameLength || !has_anchor(name)) return 0;
    const std::optional<NameMatch>& m = match(name);
    return m ? uint64_t{1} << (m->attribute - table_->specs().data()) : 0;
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 15;
  static constexpr size_t kMaxScenarios = 4;
  static constexpr uint32_t kAnchorBits = 1 << 15;

  // Every name the table accepts contains the first three letters of one of its tokens (lower
  // case): a bitmap of those trigrams rejects almost every other name before any lookup.
  static uint32_t lower(char x) { return kLowerCase[static_cast<unsigned char>(x)]; }
  static uint32_t trigram(uint32_t a, uint32_t b, uint32_t c) {
    return ((a << 10) ^ (b << 5) ^ c) & (kAnchorBits - 1);
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
      else anchors_[trigram(lower(longest[0]), lower(longest[1]), lower(longest[2]))] = 1;
    };
    for (const AttributeSpec& spec : table.specs()) {
      for (const NamePattern& pattern : spec.names) add(pattern.tokens);
      for (const FlagPattern& flag : spec.flags) add(flag.tokens);
    }
  }

  bool has_anchor(std::string_view name) const {
    if (short_names_) return true;
    if (name.size() < 3) return false;
    uint32_t a = lower(name[0]), b = lower(name[1]);
    for (size_t i = 2; i < name.size(); ++i) {
      uint32_t c = lower(name[i]);
      if (anchors_[trigram(a, b, c)]) return true;
      a = b;
      b = c;
    }
    return false;
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };

  struct ScenarioMatches {
    std::string scenario;
    std::unordered_map<std::string, std::optional<NameMatch>, Hash, std::equal_to<>> names;
  };

  std::vector<uint8_t> anchors_;
  bool short_names_ = true;
  const AttributeTable* table_ = nullptr;
  uint64_t table_identity_ = 0;
  std::vector<ScenarioMatches> by_scenario_;
  size_t current_ = 0;
};

NameCache& name_cache() {
  thread_local NameCache cache;
  return cache;
}

}  // namespace

std::optional<NameMatch> match_name_cached(std::string_view name, const AttributeTable& table, std::string_view scenario) {
  if (name.empty() || name.size() > kMaxAttributeNameLength) return std::nullopt;
  NameCache& cache = name_cache();
  cache.use(table, scenario);
  return cache.match(name);
}

uint64_t referenced_attributes(std::string_view code, Language language, const AttributeTable& table,
                               std::string_view scenario, std::vector<AttributeMention>* mentions) {
  NameCache& cache = name_cache();
  cache.use(table, scenario);
  bool hash_comments = language == Language::python;
  uint64_t found = 0;
  auto note = [&](size_t offset, std::string_view token) {
    uint64_t bits = cache.bits(token);
    if (bits && mentions) mentions->push_back(AttributeMention{offset, bits});
    found |= bits;
  };
  size_t i = 0, n = code.size();
  while (i < n) {
    char c = code[i];
    switch (lexeme_of(c)) {
      case kPlain:
        ++i;
        break;
      case kDigitStart:
        while (i < n && ident_char(code[i])) ++i;  // 2nd, 0x1F: not names
        break;
      case kIdentifier: {
        size_t j = i + 1;
        while (j < n && ident_char(code[j])) ++j;
        note(i, code.substr(i, j - i));
        i = j;
        break;
      }
      case kHash:
        if (hash_comments) i = end_of_line(code, i);
        else ++i;
        break;
      case kSlash:
        if (hash_comments || i + 1 >= n) {
          ++i;
        } else if (code[i + 1] == '/') {
          i = end_of_line(code, i);
        } else if (code[i + 1] == '*') {
          size_t end = code.find("*/", i + 2);
          i = end == std::string_view::npos ? n : end + 2;
        } else {
          ++i;
        }
        break;
      case kQuote: {
        if (c == '`' && hash_comments) {  // Python has no backtick strings
          ++i;
          break;
        }
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
          break;
        }
        note(start, code.substr(start, j - start));
        i = j >= n ? n : j + (triple ? 3 : 1);
        break;
      }
    }
  }
  return found;
}

}  // namespace codebias::analysis
