// TF-IDF features of a reasoning trace as the paper's classical baselines use them (ProbeDebias
// §4.4.3: traces truncated to 3,000 characters): word 1–2-grams and character 3–5-grams inside
// word boundaries (scikit-learn's char_wb), sublinear tf, smoothed idf, l2-normalised rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::detectors {

struct TfidfOptions {
  std::size_t max_chars = 3000;  // characters kept from the start of the trace
  bool lowercase = true;
  int word_min_n = 1;
  int word_max_n = 2;
  int char_min_n = 3;
  int char_max_n = 5;
  int min_df = 2;  // a term must occur in at least this many training traces
  bool sublinear_tf = true;  // 1 + ln(tf)

  nlohmann::json to_json() const;
  // Throws std::runtime_error naming `origin` and the field.
  static TfidfOptions from_json(const nlohmann::json& json, std::string_view origin);
};

// (feature index, value), indices strictly increasing.
using SparseVector = std::vector<std::pair<std::uint32_t, double>>;

// Vocabulary terms are "w:<words>" for word n-grams and "c:<characters>" for character n-grams.
struct Term {
  std::string kind;  // "word" or "char"
  std::string text;
};
Term parse_term(std::string_view vocabulary_entry);

// The trace as features see it: truncated, then lower-cased.
std::string preprocess_trace(std::string_view trace, const TfidfOptions& options);
// Word n-grams of preprocessed text (tokens of detectors/text.h joined by one space).
std::vector<std::string> word_ngrams(std::string_view text, int min_n, int max_n);
// Character n-grams of each whitespace-separated word padded with one space on each side; a
// padded word shorter than n gives itself once.
std::vector<std::string> char_wb_ngrams(std::string_view text, int min_n, int max_n);

class TfidfVectorizer {
 public:
  // Vocabulary sorted by term; idf = ln((1 + n) / (1 + df)) + 1.
  static TfidfVectorizer fit(std::span<const std::string> traces, const TfidfOptions& options);
  // From a model file's parts; throws std::invalid_argument when sizes differ.
  TfidfVectorizer(TfidfOptions options, std::vector<std::string> vocabulary, std::vector<double> idf);

  SparseVector transform(std::string_view trace) const;
  const TfidfOptions& options() const { return options_; }
  const std::vector<std::string>& vocabulary() const { return vocabulary_; }
  const std::vector<double>& idf() const { return idf_; }

 private:
  TfidfOptions options_;
  std::vector<std::string> vocabulary_;
  std::vector<double> idf_;
};

}  // namespace codebias::detectors
