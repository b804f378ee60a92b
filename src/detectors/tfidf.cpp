#include "detectors/tfidf.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "detectors/text.h"

namespace codebias::detectors {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Byte offsets where each UTF-8 character of `word` starts, plus its size.
std::vector<std::size_t> character_starts(std::string_view word) {
  std::vector<std::size_t> starts;
  for (std::size_t pos = 0; pos < word.size(); ++pos)
    if ((static_cast<unsigned char>(word[pos]) & 0xC0) != 0x80) starts.push_back(pos);
  starts.push_back(word.size());
  return starts;
}

// Every term of the preprocessed text with its count, "w:" and "c:" prefixed.
std::unordered_map<std::string, int> term_counts(std::string_view text, const TfidfOptions& options) {
  std::unordered_map<std::string, int> counts;
  for (std::string& gram : word_ngrams(text, options.word_min_n, options.word_max_n)) ++counts["w:" + gram];
  for (std::string& gram : char_wb_ngrams(text, options.char_min_n, options.char_max_n)) ++counts["c:" + gram];
  return counts;
}

[[noreturn]] void fail(std::string_view origin, const std::string& field, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": field preprocessing." + field + ": " + what);
}

int read_int(const nlohmann::json& json, const char* key, std::string_view origin, int minimum) {
  if (!json.contains(key) || !json[key].is_number_integer()) fail(origin, key, "expected an integer");
  const long value = json[key].get<long>();
  if (value < minimum || value > 1'000'000'000) fail(origin, key, "out of range");
  return static_cast<int>(value);
}

bool read_bool(const nlohmann::json& json, const char* key, std::string_view origin) {
  if (!json.contains(key) || !json[key].is_boolean()) fail(origin, key, "expected true or false");
  return json[key].get<bool>();
}

}  // namespace

nlohmann::json TfidfOptions::to_json() const {
  return {{"max_chars", max_chars},   {"lowercase", lowercase},   {"word_ngrams", {word_min_n, word_max_n}},
          {"char_wb_ngrams", {char_min_n, char_max_n}}, {"min_df", min_df}, {"sublinear_tf", sublinear_tf},
          {"idf", "ln((1 + n) / (1 + df)) + 1"}, {"norm", "l2"}};
}

TfidfOptions TfidfOptions::from_json(const nlohmann::json& json, std::string_view origin) {
  if (!json.is_object()) fail(origin, "(object)", "expected an object");
  TfidfOptions options;
  options.max_chars = static_cast<std::size_t>(read_int(json, "max_chars", origin, 1));
  options.lowercase = read_bool(json, "lowercase", origin);
  options.min_df = read_int(json, "min_df", origin, 1);
  options.sublinear_tf = read_bool(json, "sublinear_tf", origin);
  auto range = [&](const char* key, int& low, int& high) {
    const nlohmann::json& value = json.contains(key) ? json[key] : nlohmann::json();
    if (!value.is_array() || value.size() != 2 || !value[0].is_number_integer() || !value[1].is_number_integer())
      fail(origin, key, "expected [min_n, max_n]");
    low = value[0].get<int>();
    high = value[1].get<int>();
    if (low < 1 || high < low || high > 10) fail(origin, key, "expected 1 <= min_n <= max_n <= 10");
  };
  range("word_ngrams", options.word_min_n, options.word_max_n);
  range("char_wb_ngrams", options.char_min_n, options.char_max_n);
  return options;
}

Term parse_term(std::string_view entry) {
  if (entry.size() >= 2 && entry[1] == ':' && (entry[0] == 'w' || entry[0] == 'c'))
    return {entry[0] == 'w' ? "word" : "char", std::string(entry.substr(2))};
  throw std::invalid_argument("vocabulary entry \"" + std::string(entry) + "\" is neither w:<words> nor c:<characters>");
}

std::string preprocess_trace(std::string_view trace, const TfidfOptions& options) {
  const std::string_view kept = first_characters(trace, options.max_chars);
  return options.lowercase ? ascii_lower(kept) : std::string(kept);
}

std::vector<std::string> word_ngrams(std::string_view text, int min_n, int max_n) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<std::string> grams;
  for (std::size_t start = 0; start < tokens.size(); ++start) {
    std::string gram;
    for (int n = 1; n <= max_n && start + static_cast<std::size_t>(n) <= tokens.size(); ++n) {
      const Token& token = tokens[start + static_cast<std::size_t>(n) - 1];
      if (n > 1) gram += ' ';
      gram += text.substr(token.begin, token.end - token.begin);
      if (n >= min_n) grams.push_back(gram);
    }
  }
  return grams;
}

std::vector<std::string> char_wb_ngrams(std::string_view text, int min_n, int max_n) {
  std::vector<std::string> grams;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    std::size_t end = pos;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end == pos) break;
    const std::string padded = " " + std::string(text.substr(pos, end - pos)) + " ";
    const std::vector<std::size_t> starts = character_starts(padded);
    const std::size_t characters = starts.size() - 1;
    for (int n = min_n; n <= max_n; ++n) {
      const auto width = static_cast<std::size_t>(n);
      if (characters <= width) {  // the whole padded word, once
        grams.push_back(padded);
        break;
      }
      for (std::size_t first = 0; first + width <= characters; ++first)
        grams.push_back(padded.substr(starts[first], starts[first + width] - starts[first]));
    }
    pos = end;
  }
  return grams;
}

TfidfVectorizer::TfidfVectorizer(TfidfOptions options, std::vector<std::string> vocabulary, std::vector<double> idf)
    : options_(options), vocabulary_(std::move(vocabulary)), idf_(std::move(idf)) {
  if (vocabulary_.size() != idf_.size())
    throw std::invalid_argument("vocabulary has " + std::to_string(vocabulary_.size()) + " terms but idf " +
                                std::to_string(idf_.size()) + " values");
  if (!std::is_sorted(vocabulary_.begin(), vocabulary_.end()) ||
      std::adjacent_find(vocabulary_.begin(), vocabulary_.end()) != vocabulary_.end())
    throw std::invalid_argument("vocabulary is not sorted and free of repeats");
}

TfidfVectorizer TfidfVectorizer::fit(std::span<const std::string> traces, const TfidfOptions& options) {
  std::map<std::string, int> document_frequency;
  for (const std::string& trace : traces)
    for (const auto& [term, count] : term_counts(preprocess_trace(trace, options), options)) ++document_frequency[term];
  std::vector<std::string> vocabulary;
  std::vector<double> idf;
  const double n = static_cast<double>(traces.size());
  for (const auto& [term, df] : document_frequency) {
    if (df < options.min_df) continue;
    vocabulary.push_back(term);
    idf.push_back(std::log((1 + n) / (1 + df)) + 1);
  }
  return TfidfVectorizer(options, std::move(vocabulary), std::move(idf));
}

SparseVector TfidfVectorizer::transform(std::string_view trace) const {
  SparseVector row;
  for (const auto& [term, count] : term_counts(preprocess_trace(trace, options_), options_)) {
    auto found = std::lower_bound(vocabulary_.begin(), vocabulary_.end(), term);
    if (found == vocabulary_.end() || *found != term) continue;
    const auto index = static_cast<std::size_t>(found - vocabulary_.begin());
    const double tf = options_.sublinear_tf ? 1 + std::log(static_cast<double>(count)) : count;
    row.emplace_back(static_cast<std::uint32_t>(index), tf * idf_[index]);
  }
  std::sort(row.begin(), row.end());
  double norm = 0;
  for (const auto& [index, value] : row) norm += value * value;
  norm = std::sqrt(norm);
  if (norm > 0)
    for (auto& entry : row) entry.second /= norm;
  return row;
}

}  // namespace codebias::detectors
