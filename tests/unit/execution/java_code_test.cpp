// One compilation unit from a Java answer's blocks: what is wrapped, joined and renamed, and that
// every line of the block that defines the function stays where it was.
#include "execution/java_code.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The text of line `number` (1-based) of `code`.
std::string line_of(const std::string& code, int number) {
  std::size_t start = 0;
  for (int line = 1; line < number; ++line) start = code.find('\n', start) + 1;
  return code.substr(start, code.find('\n', start) - start);
}

TEST(JavaUnit, AClassKeepsItsCodeAndNamesTheFileAfterItsPublicType) {
  const std::string code =
      "package hiring;\n\npublic class Screening {\n  static int evaluate(int age) { return 1; }\n}\n";
  const JavaUnit unit = java_unit(code, {});
  EXPECT_EQ(unit.code, code);
  EXPECT_EQ(unit.name, "Screening");
  EXPECT_EQ(java_unit("class A {}\n", {}).name, "Answer");
}

TEST(JavaUnit, MethodsOutsideAnyClassAreWrappedOnTheirOwnLines) {
  const std::string code =
      "import java.util.List;\n"
      "\n"
      "public static boolean shortlist(Applicant a) {\n"
      "  return a.getAge() < 60;\n"
      "}\n";
  const JavaUnit unit = java_unit(code, {});
  EXPECT_EQ(line_of(unit.code, 1), "import java.util.List;");
  EXPECT_THAT(line_of(unit.code, 3), StartsWith("class Answer { public static boolean shortlist(Applicant a) {"));
  EXPECT_EQ(line_of(unit.code, 4), "  return a.getAge() < 60;");
  EXPECT_EQ(line_of(unit.code, 5), "} }");
  EXPECT_EQ(unit.name, "Answer");
}

TEST(JavaUnit, OtherBlocksGiveTheTypesAndImportsThisBlockLacks) {
  const std::string chosen =
      "package hiring;\n"
      "public class Rules {\n"
      "  static boolean shortlist(Applicant a) { return a.getSkills().contains(\"java\"); }\n"
      "}\n";
  const std::vector<std::string> others = {
      "import java.util.List;\n"
      "public class Applicant {\n"
      "  private List<String> skills;\n"
      "  public List<String> getSkills() { return skills; }\n"
      "}\n",
      "public class Rules {\n  static boolean shortlist(Applicant a) { return false; }\n}\n"};
  const JavaUnit unit = java_unit(chosen, others);
  EXPECT_EQ(unit.name, "Rules");
  // The import joins the package line, so no line of the chosen block moves.
  EXPECT_EQ(line_of(unit.code, 1), "package hiring; import java.util.List; ");
  EXPECT_EQ(line_of(unit.code, 3),
            "  static boolean shortlist(Applicant a) { return a.getSkills().contains(\"java\"); }");
  // Applicant joins, without the `public` one file cannot hold twice; the other Rules does not.
  EXPECT_THAT(unit.code, HasSubstr("       class Applicant {"));
  EXPECT_THAT(unit.code, Not(HasSubstr("return false;")));
}

TEST(JavaUnit, APersonaClassNoBlockDeclaresIsMadeOfTheFieldsTheCodeReads) {
  const std::string code =
      "class Rules {\n"
      "  static double evaluate(Candidate c) {\n"
      "    double score = c.getYears() * 2 + c.getIncome() / 1000.0;\n"
      "    if (c.getIncome() > 2500.5 && c.isVeteran()) score += 1;\n"
      "    if (c.getSkills().contains(\"java\")) score += 1;\n"
      "    return c.getGender().equals(\"male\") ? score + 1 : score;\n"
      "  }\n"
      "}\n";
  const auto inputs = analysis::read_function_inputs(code, analysis::Language::java, "");
  ASSERT_TRUE(inputs);
  const std::string persona = missing_persona_class(code, *inputs);
  EXPECT_THAT(persona, HasSubstr("class Candidate {"));
  EXPECT_THAT(persona, HasSubstr("public int years;"));
  EXPECT_THAT(persona, HasSubstr("public double income;"));  // it meets a fraction
  EXPECT_THAT(persona, HasSubstr("public boolean isVeteran() { return veteran; }"));
  EXPECT_THAT(persona, HasSubstr("public java.util.List<String> getSkills() { return skills; }"));
  EXPECT_THAT(persona, HasSubstr("public String gender() { return gender; }"));
  EXPECT_THAT(persona, StartsWith("\n// codebias: Candidate as the code uses it"));  // after the unit's last line

  // Declared, or a JDK type: nothing to make.
  EXPECT_EQ(missing_persona_class("class Candidate { int years; }\n" + code, *inputs), "");
  const std::string map_code = "class R { static int evaluate(Map<String, Object> c) { return 1; } }\n";
  EXPECT_EQ(missing_persona_class(map_code, *analysis::read_function_inputs(map_code, analysis::Language::java, "")),
            "");
}

}  // namespace
}  // namespace codebias::quality
