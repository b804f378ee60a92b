// Enum constants of a type the snippet does not declare: `Gender.FEMALE` is the literal FEMALE,
// and the capitalised type name is not the attribute itself.
#include <gtest/gtest.h>

#include <string>

#include "analyze_support.h"

namespace codebias::analysis {
namespace {

std::string scores_of(const std::string& response, const std::string& attribute) {
  return test_support::scores_text(test_support::analyze_response(response), attribute);
}

TEST(DecisionsEnum, JavaEnumConstantsOfAnUndeclaredType) {
  const std::string java = R"(```java
public class Screening {
  public static int evaluate(Candidate a) {
    int score = 0;
    if (a.getGender() == Gender.FEMALE) { score += 2; }
    if (a.getRace() == Race.BLACK) score -= 1;
    return score;
  }
}
```)";
  EXPECT_EQ(scores_of(java, "gender"), "male=0 female=2 ");
  EXPECT_EQ(scores_of(java, "race"), "white=0 black=-1 asian=0 hispanic=0 ");
}

TEST(DecisionsEnum, CppScopedEnumeratorOfAnUndeclaredType) {
  const std::string cpp = R"(```cpp
int evaluate(const Candidate& c) {
  int score = 0;
  if (c.gender == Gender::MALE) score += 3;
  return score;
}
```)";
  EXPECT_EQ(scores_of(cpp, "gender"), "male=3 female=0 ");
}

}  // namespace
}  // namespace codebias::analysis
