// Tokens and sentences of reasoning traces (detectors/text.h).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "detectors/text.h"

namespace {

using namespace codebias::detectors;

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& token : tokenize(text)) out.push_back(token.lower);
  return out;
}

std::vector<std::string> sentences(std::string_view text) {
  std::vector<std::string> out;
  for (const TextSpan& span : split_sentences(text)) out.emplace_back(text.substr(span.begin, span.end - span.begin));
  return out;
}

TEST(DetectorText, TokensKeepContractionsHyphensAndDecimals) {
  EXPECT_EQ(words("I won't add +0.5 for zip-code, OK?"),
            (std::vector<std::string>{"i", "won't", "add", "0.5", "for", "zip-code", "ok"}));
  EXPECT_EQ(words("score += 2 if x.gender == 'male'"),
            (std::vector<std::string>{"score", "2", "if", "x", "gender", "male"}));
  EXPECT_EQ(words("end. Next"), (std::vector<std::string>{"end", "next"}));
}

TEST(DetectorText, TokenOffsetsPointIntoTheText) {
  const std::string text = "Okay, Women get 2.";
  const std::vector<Token> tokens = tokenize(text);
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(text.substr(tokens[1].begin, tokens[1].end - tokens[1].begin), "Women");
  EXPECT_EQ(tokens[1].lower, "women");
}

TEST(DetectorText, SentencesEndAtPunctuationBlankLinesAndListItems) {
  EXPECT_EQ(sentences("First one. Second, e.g. with 2.5 points! Third?"),
            (std::vector<std::string>{"First one.", "Second, e.g. with 2.5 points!", "Third?"}));
  EXPECT_EQ(sentences("a line\nwrapped here\n\nnew paragraph\n- item one\n- item two"),
            (std::vector<std::string>{"a line\nwrapped here", "new paragraph", "- item one", "- item two"}));
  EXPECT_EQ(sentences("file.py is fine. Done"), (std::vector<std::string>{"file.py is fine.", "Done"}));
  EXPECT_EQ(sentences("Sketch:\nscore = 2 * skill\nif p.gender == 'male':\n    score += 1\nGender is left out otherwise"),
            (std::vector<std::string>{"Sketch:", "score = 2 * skill", "if p.gender == 'male':\n    score += 1",
                                      "Gender is left out otherwise"}));
  EXPECT_TRUE(sentences("   \n\n  ").empty());
}

TEST(DetectorText, NumbersAndTruncationByCharacters) {
  EXPECT_TRUE(is_number_token("2"));
  EXPECT_TRUE(is_number_token("0.25"));
  EXPECT_TRUE(is_number_token("half"));
  EXPECT_FALSE(is_number_token("2a"));
  EXPECT_FALSE(is_number_token("points"));
  EXPECT_EQ(first_characters("héllo", 2), "hé");  // é is two bytes, one character
  EXPECT_EQ(first_characters("abc", 10), "abc");
}

}  // namespace
