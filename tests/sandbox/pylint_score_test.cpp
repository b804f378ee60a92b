// ProbeDebias's quality score through the installed pylint: ordering and range, never exact
// pylint numbers (they change between pylint versions).
#include "quality/pylint_score.h"

#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

using ::testing::HasSubstr;

constexpr const char* kClean = R"("""Scoring of nurse candidates."""


def evaluate_nurse(candidate):
    """Return the candidate's score from experience and certification."""
    score = 0
    if candidate.years_of_experience >= 3:
        score += 2
    if candidate.certified:
        score += 1
    return score
)";

constexpr const char* kMessy = R"(import os, sys
def Evaluate_Nurse(c):
  s=0
  x = 1
  if c.years_of_experience>=3 : s+=2
  if c.certified == True: s+=1
  try:
      s = s + undefined_name
  except:
      pass
  return s
)";

class PylintScore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access(PylintOptions{}.pylint.c_str(), X_OK) != 0) GTEST_SKIP() << "pylint is not installed";
  }
};

TEST_F(PylintScore, CleanCodeScoresHigherThanMessyCodeWithinZeroToOne) {
  std::vector<QualityScore> scores = pylint_scores({kClean, kMessy}, PylintOptions{});
  ASSERT_EQ(scores.size(), 2U);
  for (const auto& score : scores) {
    ASSERT_TRUE(score.scored) << score.not_scored_reason;
    EXPECT_GE(score.score, 0.0);
    EXPECT_LE(score.score, 1.0);
    ASSERT_TRUE(score.pylint_note.has_value());
    EXPECT_GT(score.statements, 0);
  }
  EXPECT_GT(scores[0].score, scores[1].score);
  EXPECT_GT(scores[0].score, 0.5);
  // The messy file's problems are attributed to it, not to its batch neighbour.
  EXPECT_TRUE(scores[1].messages.count("undefined-variable"));
  EXPECT_FALSE(scores[0].messages.count("undefined-variable"));
  EXPECT_GT(scores[1].counts.at("error"), 0);
}

TEST_F(PylintScore, ScoresDoNotDependOnTheBatch) {
  PylintOptions one_per_batch;
  one_per_batch.batch_size = 1;
  std::vector<std::string> sources = {kMessy, kClean, kMessy};
  std::vector<QualityScore> together = pylint_scores(sources, PylintOptions{});
  std::vector<QualityScore> apart = pylint_scores(sources, one_per_batch);
  ASSERT_EQ(together.size(), 3U);
  ASSERT_EQ(apart.size(), 3U);
  for (std::size_t index = 0; index < sources.size(); ++index) {
    EXPECT_DOUBLE_EQ(together[index].score, apart[index].score) << index;
    EXPECT_EQ(together[index].messages, apart[index].messages) << index;
  }
  // Identical files in one batch: duplicate-code is off, so they score alike.
  EXPECT_DOUBLE_EQ(together[0].score, together[2].score);
}

TEST_F(PylintScore, CodeThatDoesNotParseScoresZero) {
  std::vector<QualityScore> scores = pylint_scores({"def broken(:\n    pass\n"}, PylintOptions{});
  ASSERT_EQ(scores.size(), 1U);
  EXPECT_TRUE(scores[0].scored);
  EXPECT_TRUE(scores[0].syntax_error);
  EXPECT_EQ(scores[0].score, 0.0);
}

TEST(PylintNote, ScaledToZeroOneAndClamped) {
  EXPECT_DOUBLE_EQ(quality_from_pylint_note(7.5), 0.75);
  EXPECT_DOUBLE_EQ(quality_from_pylint_note(10.0), 1.0);
  EXPECT_DOUBLE_EQ(quality_from_pylint_note(-3.0), 0.0);
  EXPECT_DOUBLE_EQ(quality_from_pylint_note(12.0), 1.0);
}

TEST(PylintMissing, IsAClearError) {
  PylintOptions options;
  options.pylint = "/nonexistent/pylint";
  try {
    pylint_scores({kClean}, options);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("/nonexistent/pylint"));
    EXPECT_THAT(error.what(), HasSubstr("apt-get install pylint"));
  }
}

}  // namespace
}  // namespace codebias::quality
