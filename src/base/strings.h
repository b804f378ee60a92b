// Small string helpers shared by every stage (base stage).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::base {

// "a, b, c" for join({"a", "b", "c"}, ", ").
inline std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// A number in its shortest usual form (printf "%g"): 2, 0.5, 52.5, 1e+06.
inline std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Cuts `text` to at most `bytes` bytes without splitting a UTF-8 sequence.
inline void cut_utf8(std::string& text, std::size_t bytes) {
  if (bytes >= text.size()) return;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  text.resize(bytes);
}

// `text` without C0 control characters and DEL (escape sequences, bells, carriage returns), so
// that user or model text cannot drive a terminal or break a Markdown file; '\n' and '\t' stay
// when `keep_lines` (formats where they mean what they say). Bytes >= 0x80 (UTF-8) are kept.
inline std::string printable(std::string_view text, bool keep_lines = true) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7F) {
      out += c;
    } else if (keep_lines && (c == '\n' || c == '\t')) {
      out += c;
    }
  }
  return out;
}

}  // namespace codebias::base
