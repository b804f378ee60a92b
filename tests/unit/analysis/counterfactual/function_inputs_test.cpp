// What the analyzer reads of a function's inputs for counterfactual personas: the fields, the
// literals each is compared or combined with, and how the function takes its input.
#include "analysis/counterfactual/function_inputs.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

const InputField& field_named(const FunctionInputs& inputs, const std::string& name) {
  const auto it = std::find_if(inputs.fields.begin(), inputs.fields.end(), [&](const InputField& f) { return f.name == name; });
  if (it == inputs.fields.end()) {
    ADD_FAILURE() << "no field " << name;
    static const InputField none;
    return none;
  }
  return *it;
}

bool has_field(const FunctionInputs& inputs, const std::string& name) {
  return std::any_of(inputs.fields.begin(), inputs.fields.end(), [&](const InputField& f) { return f.name == name; });
}

TEST(FunctionInputs, FieldsOfTheInputObjectWithTheLiteralsTheyMeet) {
  const auto inputs = read_function_inputs(
      "const BONUS = {masters: 2, phd: 3};\n"
      "function band(age) { return age > 40 ? 1 : 0; }\n"
      "function evaluateCandidate(candidate) {\n"
      "  let score = candidate.experience * 2;\n"
      "  if (candidate.gender.toLowerCase() === 'female') score -= 1;\n"
      "  if (['white', 'asian'].includes(candidate.race)) score += 1;\n"
      "  if (candidate.skills.includes('python')) score += 1;\n"
      "  score += BONUS[candidate.degree] || 0;\n"
      "  const married = candidate.married;\n"
      "  if (married) score += 1;\n"
      "  return score + band(candidate.age);\n"
      "}\n",
      Language::javascript, "");
  ASSERT_TRUE(inputs);
  EXPECT_EQ(inputs->function, "evaluateCandidate");
  EXPECT_TRUE(inputs->object_mode);
  EXPECT_THAT(inputs->params, ElementsAre("candidate"));
  EXPECT_FALSE(has_field(*inputs, "candidate"));

  EXPECT_THAT(field_named(*inputs, "experience").kinds, ElementsAre("number"));
  EXPECT_THAT(field_named(*inputs, "experience").numbers, ElementsAre(2.0));
  EXPECT_THAT(field_named(*inputs, "gender").strings, ElementsAre("female"));
  EXPECT_THAT(field_named(*inputs, "race").strings, ElementsAre("white", "asian"));
  EXPECT_TRUE(field_named(*inputs, "skills").kinds.count("collection"));
  EXPECT_THAT(field_named(*inputs, "skills").members, ElementsAre("python"));
  EXPECT_THAT(field_named(*inputs, "degree").strings, UnorderedElementsAre("masters", "phd"));
  EXPECT_TRUE(field_named(*inputs, "married").kinds.count("bool"));  // through the local `married`
  EXPECT_THAT(field_named(*inputs, "age").numbers, ElementsAre(40.0));  // inside the helper band()
}

TEST(FunctionInputs, ParametersThatAreFieldsAMethodAndTheRequestedFunction) {
  const auto positional = read_function_inputs(
      "function score(gender, years) {\n  return gender === 'male' ? years + 1 : years;\n}\n", Language::javascript, "");
  ASSERT_TRUE(positional);
  EXPECT_FALSE(positional->object_mode);
  EXPECT_THAT(field_named(*positional, "gender").strings, ElementsAre("male"));
  EXPECT_TRUE(has_field(*positional, "years"));

  const auto destructured = read_function_inputs(
      "const eligible = ({gender, income}) => gender === 'male' && income > 3;\n", Language::javascript, "");
  ASSERT_TRUE(destructured);
  EXPECT_TRUE(destructured->object_mode);
  EXPECT_THAT(field_named(*destructured, "income").numbers, ElementsAre(3.0));

  const auto method = read_function_inputs(
      "class Applicant {\n  decide() {\n    const bonus = 2;\n    return this.race === 'white' ? bonus : 0;\n  }\n}\n",
      Language::javascript, "");
  ASSERT_TRUE(method);
  EXPECT_EQ(method->owner, "Applicant");
  EXPECT_TRUE(method->object_mode);
  EXPECT_THAT(field_named(*method, "race").strings, ElementsAre("white"));
  EXPECT_FALSE(has_field(*method, "bonus"));  // a local, not the object's

  const auto requested = read_function_inputs(
      "function evaluate(c) { return 1; }\nfunction helper(c) { return c.age; }\n", Language::javascript, "helper");
  ASSERT_TRUE(requested);
  EXPECT_EQ(requested->function, "helper");

  EXPECT_FALSE(read_function_inputs("const weights = {a: 1};\n", Language::javascript, ""));
}

TEST(FunctionInputs, TheJobJsonKeepsWholeNumbersWhole) {
  const auto inputs = read_function_inputs("function f(c) { return c.age >= 30.5 || c.years > 2; }\n",
                                           Language::javascript, "");
  ASSERT_TRUE(inputs);
  const auto json = to_json(*inputs);
  EXPECT_EQ(json["fields"][0]["name"], "age");
  EXPECT_EQ(json["fields"][0]["numbers"][0], 30.5);
  EXPECT_TRUE(json["fields"][1]["numbers"][0].is_number_integer());
  EXPECT_EQ(json["object_mode"], true);
}

TEST(FunctionInputs, JavaGettersRecordAccessorsAndDeclaredTypes) {
  const auto inputs = read_function_inputs(
      "enum Degree { BACHELOR, MASTER }\n"
      "record Applicant(String race, int yearsExperience, Degree degree) {}\n"
      "class Person {\n"
      "  private String gender;\n"
      "  private boolean married;\n"
      "  public String getGender() { return gender; }\n"
      "  public boolean isMarried() { return married; }\n"
      "}\n"
      "class Rules {\n"
      "  static double score(Person p, Applicant a) { return 0; }\n"
      "  static double evaluate(Person p) {\n"
      "    double score = 0;\n"
      "    if (p.getGender().equals(\"male\")) score += 1;\n"
      "    if (p.isMarried()) score += 1;\n"
      "    return score;\n"
      "  }\n"
      "}\n",
      Language::java, "evaluate");
  ASSERT_TRUE(inputs);
  EXPECT_TRUE(inputs->object_mode);
  // The getters read the properties; their names are no fields of their own.
  EXPECT_FALSE(has_field(*inputs, "getGender"));
  EXPECT_THAT(field_named(*inputs, "gender").strings, ElementsAre("male"));
  EXPECT_THAT(field_named(*inputs, "gender").kinds, UnorderedElementsAre("string"));
  EXPECT_THAT(field_named(*inputs, "married").kinds, UnorderedElementsAre("bool"));

  const auto record = read_function_inputs(
      "enum Degree { BACHELOR, MASTER }\n"
      "record Applicant(String race, int yearsExperience, Degree degree) {}\n"
      "class Rules {\n"
      "  static int evaluate(Applicant a) { return a.yearsExperience() + (a.degree() == Degree.MASTER ? 1 : 0); }\n"
      "}\n",
      Language::java, "");
  ASSERT_TRUE(record);
  EXPECT_THAT(field_named(*record, "yearsExperience").kinds, UnorderedElementsAre("number"));
  EXPECT_THAT(field_named(*record, "degree").kinds, UnorderedElementsAre("string"));  // an enum's constant, by name

  // One parameter declared as a value is the field itself, not an object holding fields.
  const auto value = read_function_inputs("class S { static int evaluate(int age) { return age > 40 ? 1 : 0; } }\n",
                                          Language::java, "");
  ASSERT_TRUE(value);
  EXPECT_FALSE(value->object_mode);
  EXPECT_THAT(field_named(*value, "age").numbers, ElementsAre(40));
  EXPECT_TRUE(field_named(*value, "age").kinds.count("number"));
}

// Python is read as Python's ast visitor walks it (python_inputs.h): what the drivers plan from.
TEST(FunctionInputs, PythonMethodTakesTheInputAsSelf) {
  const auto inputs = read_function_inputs(
      "from dataclasses import dataclass\n"
      "@dataclass\n"
      "class Applicant:\n"
      "    income: int\n"
      "    def qualified_for_financial_aid(self) -> bool:\n"
      "        return self.income < 25000 and self.education in ['high school', 'college']\n"
      "    @property\n"
      "    def rich(self):\n"
      "        return self.income > 10\n",
      Language::python, "qualifiedForFinancialAid");
  ASSERT_TRUE(inputs);
  EXPECT_EQ(inputs->function, "qualified_for_financial_aid");
  EXPECT_EQ(inputs->owner, "Applicant");
  EXPECT_THAT(inputs->params, ElementsAre("self"));
  EXPECT_TRUE(inputs->object_mode);
  ASSERT_EQ(inputs->fields.size(), 2U);
  EXPECT_EQ(inputs->fields[0].name, "income");
  EXPECT_THAT(inputs->fields[0].numbers, ElementsAre(25000, 10));
  EXPECT_THAT(inputs->fields[1].strings, ElementsAre("high school", "college"));
}

TEST(FunctionInputs, PythonParametersWithoutDefaultsChooseTheMode) {
  const auto keywords = read_function_inputs("def score(age, gender, bonus=0):\n    return age * 2 + bonus\n",
                                             Language::python, "");
  ASSERT_TRUE(keywords);
  EXPECT_FALSE(keywords->object_mode);
  EXPECT_THAT(keywords->params, ElementsAre("age", "gender", "bonus"));
  // `age * 2 + bonus` reads bonus first (the outer BinOp's sides), then age; gender is a parameter.
  ASSERT_EQ(keywords->fields.size(), 3U);
  EXPECT_EQ(keywords->fields[0].name, "bonus");
  EXPECT_EQ(keywords->fields[1].name, "age");
  EXPECT_EQ(keywords->fields[2].name, "gender");

  const auto object = read_function_inputs("def score(candidate, weight=1.0):\n    return candidate.age * weight\n",
                                           Language::python, "");
  ASSERT_TRUE(object);
  EXPECT_TRUE(object->object_mode);
  EXPECT_TRUE(has_field(*object, "age"));
  EXPECT_FALSE(has_field(*object, "weight"));
}

TEST(FunctionInputs, PythonConditionsKeepEachComparisonsOperator) {
  const auto inputs = read_function_inputs(
      "def f(c):\n"
      "    if 60 < c.age and c.kind not in ('a', 'b') and c.note is None and 'x' in c.tags:\n"
      "        return c.rate == 3.5\n"
      "    return c.level in [1, 2]\n",
      Language::python, "");
  ASSERT_TRUE(inputs);
  using Condition = std::pair<std::string, nlohmann::json>;
  EXPECT_THAT(field_named(*inputs, "age").conditions, ElementsAre(Condition{"Gt", 60}));  // mirrored
  EXPECT_THAT(field_named(*inputs, "kind").conditions, ElementsAre(Condition{"NotIn", {"a", "b"}}));
  EXPECT_THAT(field_named(*inputs, "note").conditions, ElementsAre(Condition{"Is", nullptr}));
  EXPECT_THAT(field_named(*inputs, "level").conditions, ElementsAre(Condition{"In", {1, 2}}));
  EXPECT_THAT(field_named(*inputs, "tags").members, ElementsAre("x"));
  EXPECT_THAT(field_named(*inputs, "tags").kinds, ElementsAre("collection"));
  const auto json = to_json(*inputs, true);
  EXPECT_TRUE(json["fields"][0]["numbers"][0].is_number_integer());  // 60, not 60.0
  EXPECT_TRUE(json["fields"][4]["numbers"][0].is_number_float());    // 3.5
  EXPECT_EQ(json["fields"][2]["conditions"], nlohmann::json::parse(R"([["Is", null]])"));
  EXPECT_FALSE(to_json(*inputs)["fields"][0].contains("conditions"));  // JavaScript's and Java's plans
}

TEST(FunctionInputs, PythonFieldsComeInTheOrderAstVisitsThem) {
  const auto inputs = read_function_inputs(
      "def f(c):\n"
      "    if c.a > 1 and c.b:\n"
      "        return 1\n"
      "    elif c.c == 'x':\n"
      "        return {'k': c.e, 'l': c.f}[c.d]\n"
      "    return c.g\n",
      Language::python, "");
  ASSERT_TRUE(inputs);
  // The BoolOp truth-tests its values (c.b) before visiting them (c.a); a Dict's keys, then its
  // values; a Subscript reads its slice (c.d) before its value is visited.
  std::vector<std::string> names;
  for (const auto& field : inputs->fields) names.push_back(field.name);
  EXPECT_THAT(names, ElementsAre("b", "a", "c", "d", "e", "f", "g"));
}

TEST(FunctionInputs, PythonHelpersPassedAFieldReadItToo) {
  const auto inputs = read_function_inputs(
      "BONUS = {'phd': 3, 'ms': 2}\n"
      "def band(age):\n"
      "    return 'old' if age > 60 else 'young'\n"
      "def score(c):\n"
      "    return band(c.age) + BONUS.get(c.degree, 0)\n",
      Language::python, "");
  ASSERT_TRUE(inputs);
  EXPECT_EQ(inputs->function, "score");
  using Condition = std::pair<std::string, nlohmann::json>;
  EXPECT_THAT(field_named(*inputs, "age").conditions, ElementsAre(Condition{"Gt", 60}));
  EXPECT_THAT(field_named(*inputs, "age").kinds, UnorderedElementsAre("number"));
  EXPECT_THAT(field_named(*inputs, "degree").strings, ElementsAre("phd", "ms"));
}

// Hostile answers nest far deeper than Python would parse: the reader stops descending instead of
// exhausting the stack, and still reads the function around them.
TEST(FunctionInputs, PythonNestedPastAnyParserStillReadsTheFunction) {
  const std::size_t depth = 5000;
  std::string chain = "c.age > 1";
  for (int i = 0; i < 2000; ++i) chain += " and c.age > 1";
  std::string elifs = "    if c.age > 1:\n        pass\n";
  for (int i = 0; i < 2000; ++i) elifs += "    elif c.age > 1:\n        pass\n";
  const std::string code = "def score(c):\n    x = " + std::string(depth, '(') + "c.gpa" + std::string(depth, ')') +
                           "\n    y = " + std::string(depth, '-') + "c.gpa\n    z = " + chain + "\n" + elifs +
                           "    return c.age > 30\n";
  const auto inputs = read_function_inputs(code, Language::python, "");
  ASSERT_TRUE(inputs);
  EXPECT_EQ(inputs->function, "score");
  EXPECT_TRUE(inputs->object_mode);
  using Condition = std::pair<std::string, nlohmann::json>;
  EXPECT_THAT(field_named(*inputs, "age").conditions, testing::Contains(Condition{"Gt", 30}));
}

// An integer past int64 is left out of the literals rather than clamped to another number.
TEST(FunctionInputs, PythonIntegersPastInt64AreLeftOut) {
  const auto inputs = read_function_inputs(
      "def score(c):\n    return c.income > 99999999999999999999 or c.income > 5\n", Language::python, "");
  ASSERT_TRUE(inputs);
  using Condition = std::pair<std::string, nlohmann::json>;
  EXPECT_THAT(field_named(*inputs, "income").conditions, ElementsAre(Condition{"Gt", 5}));
}

}  // namespace
}  // namespace codebias::analysis
