// Tokens, sentences and clauses of a reasoning trace, with byte offsets into it: what the
// keywords detector matches phrases on and the TF-IDF features are built from.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::detectors {

struct Token {
  std::string lower;  // ASCII lower case; non-ASCII bytes kept
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last byte
};

struct TextSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Words: runs of letters and digits (any non-ASCII byte counts as a letter), with an apostrophe
// or hyphen inside a word kept ("don't", "zip-code"); a decimal number ("2.5") is one token.
// Every other byte separates.
std::vector<Token> tokenize(std::string_view text);

// A number token: digits with an optional decimal part ("2", "0.5"), or "one" … "ten", "half".
bool is_number_token(std::string_view lower);

// Sentences: a sentence ends at '.', '!' or '?' followed by whitespace or the end (not inside
// "2.5", "e.g.", "i.e.", "etc.", "vs.", "approx.", "Dr."), at a blank line, before a line
// that starts a list item ("- ", "* ", "1. ", "1) ") and at a line break next to a line of code
// (one ending in ':' or ')', holding '==' or '+=', starting with "if ", "return", ...), except
// between a block's header (a line ending in ':') and its indented body; other line breaks are
// taken for a wrapped sentence. Leading and trailing whitespace is left
// out of each span; empty sentences are dropped.
std::vector<TextSpan> split_sentences(std::string_view text);

// ASCII lower case of the text.
std::string ascii_lower(std::string_view text);

// The first `max_chars` characters (UTF-8 code points) of the text; all of it when shorter.
std::string_view first_characters(std::string_view text, std::size_t max_chars);

}  // namespace codebias::detectors
