#include "detectors/text.h"

#include <array>
#include <cctype>

namespace codebias::detectors {
namespace {

bool is_word_byte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Words whose final '.' does not end a sentence (lower case, without the dot).
constexpr std::array<std::string_view, 10> kAbbreviations = {"e.g", "i.e", "etc", "vs", "approx", "dr", "mr", "mrs", "ms", "cf"};

bool ends_in_abbreviation(std::string_view text, std::size_t dot) {
  std::size_t start = dot;
  while (start > 0 && (is_word_byte(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '.')) --start;
  const std::string word = ascii_lower(text.substr(start, dot - start));
  for (std::string_view abbreviation : kAbbreviations)
    if (word == abbreviation) return true;
  return false;
}

// Does a list item start at `pos` (after the line's indentation)?
bool starts_list_item(std::string_view text, std::size_t pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  if (pos >= text.size()) return false;
  if ((text[pos] == '-' || text[pos] == '*' || text[pos] == '+') && pos + 1 < text.size() && text[pos + 1] == ' ')
    return true;
  std::size_t digits = pos;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  return digits > pos && digits + 1 < text.size() && (text[digits] == '.' || text[digits] == ')') &&
         text[digits + 1] == ' ';
}

// A line of code in a trace ("if p.gender == 'female':", "score += 1", "return score"): each is a
// step of its own, never the wrapped continuation of a sentence.
bool looks_like_code(std::string_view line) {
  while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
  while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
  if (line.empty()) return false;
  const char last = line.back();
  if (last == ':' || last == ')' || last == ';' || last == '{' || last == '}') return true;
  for (std::string_view marker : {"==", "+=", "-=", "*=", " = "})
    if (line.find(marker) != std::string_view::npos) return true;
  for (std::string_view start : {"def ", "return", "if ", "elif ", "else", "for ", "#", "//"})
    if (line.substr(0, start.size()) == start) return true;
  return false;
}

std::string_view line_at(std::string_view text, std::size_t begin) {
  const std::size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

void push_trimmed(std::string_view text, std::size_t begin, std::size_t end, std::vector<TextSpan>& out) {
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  if (end > begin) out.push_back({begin, end});
}

}  // namespace

bool is_number_token(std::string_view lower) {
  static constexpr std::array<std::string_view, 11> kNumberWords = {"one", "two", "three", "four", "five", "six",
                                                                   "seven", "eight", "nine", "ten", "half"};
  for (std::string_view word : kNumberWords)
    if (lower == word) return true;
  if (lower.empty() || !std::isdigit(static_cast<unsigned char>(lower.front()))) return false;
  bool dot = false;
  for (char c : lower) {
    if (c == '.' && !dot) dot = true;
    else if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (!is_word_byte(static_cast<unsigned char>(text[pos]))) {
      ++pos;
      continue;
    }
    const std::size_t begin = pos;
    while (pos < text.size()) {
      const auto c = static_cast<unsigned char>(text[pos]);
      if (is_word_byte(c)) {
        ++pos;
        continue;
      }
      // An inner apostrophe, hyphen or (between digits) decimal point joins two word parts.
      const bool joins = (c == '\'' || c == '-' || (c == '.' && std::isdigit(static_cast<unsigned char>(text[pos - 1])))) &&
                         pos + 1 < text.size() && is_word_byte(static_cast<unsigned char>(text[pos + 1])) &&
                         (c != '.' || std::isdigit(static_cast<unsigned char>(text[pos + 1])));
      if (!joins) break;
      ++pos;
    }
    tokens.push_back({ascii_lower(text.substr(begin, pos - begin)), begin, pos});
  }
  return tokens;
}

std::vector<TextSpan> split_sentences(std::string_view text) {
  std::vector<TextSpan> sentences;
  std::size_t start = 0;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c == '\n') {
      std::size_t next = pos + 1;
      while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r')) ++next;
      const bool blank_line = next < text.size() && text[next] == '\n';
      const std::size_t previous_break = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
      const std::size_t line_begin = previous_break == std::string_view::npos ? 0 : previous_break + 1;
      const std::string_view line = text.substr(line_begin, pos - line_begin);
      // A block's header ("if p.gender == 'male':") stays with its indented body: the condition and what it does.
      const bool opens_block = line.find_last_not_of(" \t\r") != std::string_view::npos &&
                               line[line.find_last_not_of(" \t\r")] == ':' && pos + 1 < text.size() &&
                               (text[pos + 1] == ' ' || text[pos + 1] == '\t');
      const bool code = !opens_block && (looks_like_code(line) || looks_like_code(line_at(text, pos + 1)));
      if (blank_line || code || next >= text.size() || starts_list_item(text, pos + 1)) {
        push_trimmed(text, start, pos, sentences);
        start = pos + 1;
      }
      continue;
    }
    if (c != '.' && c != '!' && c != '?') continue;
    std::size_t end = pos + 1;
    while (end < text.size() && (text[end] == '.' || text[end] == '!' || text[end] == '?' || text[end] == '"' ||
                                 text[end] == '\'' || text[end] == ')'))
      ++end;
    if (end < text.size() && !is_space(text[end])) continue;  // "2.5", "file.py"
    if (c == '.' && end == pos + 1 && ends_in_abbreviation(text, pos)) continue;
    push_trimmed(text, start, end, sentences);
    start = end;
    pos = end - 1;
  }
  push_trimmed(text, start, text.size(), sentences);
  return sentences;
}

std::string_view first_characters(std::string_view text, std::size_t max_chars) {
  std::size_t characters = 0;
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    // A UTF-8 continuation byte (10xxxxxx) belongs to the character before it.
    if ((static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) continue;
    if (characters == max_chars) return text.substr(0, pos);
    ++characters;
  }
  return text;
}

}  // namespace codebias::detectors
