// TF-IDF features (detectors/tfidf.h), checked against values computed by hand.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "detectors/tfidf.h"

namespace {

using namespace codebias::detectors;

TEST(Tfidf, WordNgramsAreOneAndTwoTokenRuns) {
  EXPECT_EQ(word_ngrams("a b c", 1, 2), (std::vector<std::string>{"a", "a b", "b", "b c", "c"}));
  EXPECT_EQ(word_ngrams("a b c", 2, 2), (std::vector<std::string>{"a b", "b c"}));
}

TEST(Tfidf, CharNgramsStayInsidePaddedWords) {
  EXPECT_EQ(char_wb_ngrams("ab", 3, 4), (std::vector<std::string>{" ab", "ab ", " ab "}));
  EXPECT_EQ(char_wb_ngrams("a  b", 3, 5), (std::vector<std::string>{" a ", " b "}));  // short words once
  EXPECT_EQ(char_wb_ngrams("é", 3, 3), (std::vector<std::string>{" é "}));             // characters, not bytes
}

TEST(Tfidf, PreprocessingTruncatesTo3000CharactersAndLowerCases) {
  TfidfOptions options;
  const std::string long_text = std::string(2990, 'x') + "ABCDEFGHIJKLMNOP";
  EXPECT_EQ(preprocess_trace(long_text, options), std::string(2990, 'x') + "abcdefghij");
}

TEST(Tfidf, IdfIsSmoothedAndRowsAreL2Normalised) {
  TfidfOptions options;
  options.min_df = 1;
  const std::vector<std::string> traces = {"a b", "a c"};
  const TfidfVectorizer fitted = TfidfVectorizer::fit(traces, options);
  auto idf_of = [&](const std::string& term) {
    for (std::size_t i = 0; i < fitted.vocabulary().size(); ++i)
      if (fitted.vocabulary()[i] == term) return fitted.idf()[i];
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(idf_of("w:a"), 1.0);                       // ln(3/3) + 1
  EXPECT_DOUBLE_EQ(idf_of("w:b"), std::log(3.0 / 2.0) + 1);  // in one of two traces
  EXPECT_DOUBLE_EQ(idf_of("w:a b"), std::log(3.0 / 2.0) + 1);
  options.min_df = 2;
  const TfidfVectorizer common = TfidfVectorizer::fit(traces, options);
  for (const std::string& term : common.vocabulary()) EXPECT_NE(term, "w:b");
}

TEST(Tfidf, TransformUsesSublinearTf) {
  TfidfOptions options;
  const TfidfVectorizer features(options, {"w:a", "w:b"}, {1.0, 2.0});
  const SparseVector row = features.transform("a a b");
  ASSERT_EQ(row.size(), 2u);
  const double a = 1 + std::log(2.0), b = 2.0, norm = std::sqrt(a * a + b * b);
  EXPECT_EQ(row[0].first, 0u);
  EXPECT_DOUBLE_EQ(row[0].second, a / norm);
  EXPECT_DOUBLE_EQ(row[1].second, b / norm);
  EXPECT_TRUE(features.transform("zzz").empty());
}

TEST(Tfidf, VocabularyMustBeSortedAndMatchIdf) {
  auto make = [](std::vector<std::string> vocabulary, std::vector<double> idf) {
    return TfidfVectorizer(TfidfOptions{}, std::move(vocabulary), std::move(idf));
  };
  EXPECT_THROW(make({"w:b", "w:a"}, {1, 1}), std::invalid_argument);
  EXPECT_THROW(make({"w:a"}, {1, 1}), std::invalid_argument);
  EXPECT_EQ(parse_term("c: ab").text, " ab");
  EXPECT_EQ(parse_term("w:give women").kind, "word");
  EXPECT_THROW(parse_term("x:y"), std::invalid_argument);
}

}  // namespace
