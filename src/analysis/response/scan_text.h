// Character classes, trimming, lines and word sets: the scanning vocabulary of the response
// reader (fences.cpp, line_kinds.cpp, raw_code.cpp, fenced_blocks.cpp, language_detection.cpp).
// Only ASCII bytes carry meaning; any other byte is ordinary text.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <vector>

namespace codebias::analysis::response_scanning {

using sv = std::string_view;
inline constexpr std::size_t npos = sv::npos;

constexpr bool is_hspace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
constexpr bool is_break(char c) { return c == '\n' || c == '\r'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_ident_start(char c) { return is_alpha(c) || c == '_' || c == '$'; }
constexpr bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
constexpr char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline sv trim_left(sv s) {
  std::size_t i = 0;
  while (i < s.size() && is_hspace(s[i])) ++i;
  return s.substr(i);
}
inline sv trim_right(sv s) {
  std::size_t n = s.size();
  while (n > 0 && is_hspace(s[n - 1])) --n;
  return s.substr(0, n);
}
inline sv trim(sv s) { return trim_right(trim_left(s)); }
inline std::size_t indent_of(sv line) {
  std::size_t i = 0;
  while (i < line.size() && is_hspace(line[i])) ++i;
  return i;
}
inline bool is_blank(sv s) { return trim_left(s).empty(); }

struct Line {
  sv text;      // without the line break
  int number;   // 1-based line of the response
};

// The lines of `text`, numbered from `first_number`; "\n", "\r\n" and a lone "\r" each end a line.
inline std::vector<Line> split_lines(sv text, int first_number) {
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
inline sv leading_word(sv t) {
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

}  // namespace codebias::analysis::response_scanning
