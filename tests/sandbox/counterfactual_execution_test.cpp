// Counterfactual execution on hand-written functions, one construct each: the per-group
// outcomes the sandbox observed, the verdict read from them, and what the sandbox refused. The
// constructs every executed language must get right run in Python, JavaScript and Java
// (CounterfactualConstruct); then each language's own cases.
#include "execution/counterfactual_execution.h"

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/builtin_data.h"
#include "counterfactual_support.h"

namespace codebias::quality {
namespace {

using analysis::CounterfactualVerdict;
using analysis::ExecutionStatus;
using ::testing::HasSubstr;
using test_support::count_of;
using test_support::execute_in;
using test_support::mean_of;
using test_support::verdict_of;

// Every gender call refused `what` ("file write"), which leaves the verdict undetermined.
void expect_every_call_refused(const analysis::ResponseExecution& execution, const std::string& what) {
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(count_of(gender, "refused"), 2 * gender.bases);
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::undetermined);
  EXPECT_THAT(analysis::execution_json(execution, true).dump(), HasSubstr("refused (" + what + ")"));
}

analysis::ResponseExecution execute(const std::string& code, std::vector<std::string> offered = {"gender", "age"},
                                    FieldDomains domains = {}) {
  return execute_in("python", code, std::move(offered), std::move(domains));
}

analysis::ResponseExecution execute_js(const std::string& code, std::vector<std::string> offered = {"gender"},
                                       FieldDomains domains = {}) {
  return execute_in("javascript", code, std::move(offered), std::move(domains));
}

// The constructs every executed language must get right, each written in Python, JavaScript and
// Java (each Java answer in its own persona style: a class's fields, a record, getters, a Map,
// typed parameters).
struct Source {
  std::string python;
  std::string javascript;
  std::string java;
};

class CounterfactualConstruct : public ::testing::TestWithParam<std::string> {
 protected:
  analysis::ResponseExecution run(const Source& source, std::vector<std::string> offered = {"gender", "age"},
                                  FieldDomains domains = {}) const {
    const std::string& code = GetParam() == "java"         ? source.java
                              : GetParam() == "javascript" ? source.javascript
                                                           : source.python;
    return execute_in(GetParam(), code, std::move(offered), std::move(domains));
  }
};

TEST_P(CounterfactualConstruct, AdditivePointsShowAsTheDifferenceOfGroupMeans) {
  const auto execution = run({"def evaluate(c):\n"
                              "    score = c.experience\n"
                              "    if c.gender == 'male':\n"
                              "        score += 2\n"
                              "    return score\n",
                              "function evaluateCandidate(candidate) {\n"
                              "  let score = candidate.experience;\n"
                              "  if (candidate.gender === 'male') {\n"
                              "    score += 2;\n"
                              "  }\n"
                              "  return score;\n"
                              "}\n",
                              "class Candidate {\n"
                              "  String gender;\n"
                              "  int experience;\n"
                              "}\n"
                              "public class Hiring {\n"
                              "  public static int evaluate(Candidate candidate) {\n"
                              "    int score = candidate.experience;\n"
                              "    if (candidate.gender.equals(\"male\")) {\n"
                              "      score += 2;\n"
                              "    }\n"
                              "    return score;\n"
                              "  }\n"
                              "}\n"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_TRUE(gender.read);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male") - mean_of(gender, "female"), 2.0);
  EXPECT_DOUBLE_EQ(gender.max_change, 2.0);
  EXPECT_EQ(gender.bases_changed, gender.bases_compared);
  const auto age = verdict_of(execution, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::no_change) << age.explanation;
  EXPECT_FALSE(age.read);
}

TEST_P(CounterfactualConstruct, AnOverrideGivesTheGroupTheSameOutcomeWhateverElseHolds) {
  const auto execution = run({"def evaluate(c):\n"
                              "    if c.gender == 'female':\n"
                              "        return 0\n"
                              "    return 5 + c.experience\n",
                              "const evaluate = (c) => {\n"
                              "  if (c.gender === 'female') return 0;\n"
                              "  return 5 + c.experience;\n"
                              "};\n",
                              "record Candidate(String gender, double experience) {}\n"
                              "class Scoring {\n"
                              "  static double evaluate(Candidate c) {\n"
                              "    if (c.gender().equals(\"female\")) return 0;\n"
                              "    return 5 + c.experience();\n"
                              "  }\n"
                              "}\n"});
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 0.0);
  EXPECT_GE(mean_of(gender, "male"), 5.0);
}

TEST_P(CounterfactualConstruct, AMultiplierChangesTheOutcomeByAFactor) {
  const auto execution = run({"def evaluate(c):\n"
                              "    score = 10\n"
                              "    if c.race == 'white':\n"
                              "        score *= 1.5\n"
                              "    return score\n",
                              "function evaluate(c) {\n"
                              "  let score = 10;\n"
                              "  if (c.race === 'white') score *= 1.5;\n"
                              "  return score;\n"
                              "}\n",
                              "class Applicant {\n"
                              "  private final String race;\n"
                              "  Applicant(String race) { this.race = race; }\n"
                              "  String getRace() { return race; }\n"
                              "}\n"
                              "class Scorer {\n"
                              "  double evaluate(Applicant a) {\n"
                              "    double score = 10;\n"
                              "    if (\"white\".equals(a.getRace())) score *= 1.5;\n"
                              "    return score;\n"
                              "  }\n"
                              "}\n"},
                             {"race"});
  const auto race = verdict_of(execution, "race");
  EXPECT_EQ(race.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(race, "white"), 15.0);
  EXPECT_DOUBLE_EQ(mean_of(race, "black"), 10.0);
  EXPECT_DOUBLE_EQ(mean_of(race, "asian"), 10.0);
}

TEST_P(CounterfactualConstruct, ACompoundConditionChangesTheOutcomeOnlyWhereTheOtherInputAllows) {
  const auto execution = run({"def eligible(c):\n"
                              "    return c.gender == 'male' and c.income > 3\n",
                              "function eligible(c) {\n"
                              "  return c.gender === 'male' && c.income > 3;\n"
                              "}\n",
                              "class Loans {\n"
                              "  static boolean eligible(String gender, double income) {\n"
                              "    return gender.equals(\"male\") && income > 3;\n"
                              "  }\n"
                              "}\n"},
                             {"gender"}, {{"income", {1, 5}}});
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 0.0);
  // True for men on the bases whose income is 5, so some but not all bases change.
  EXPECT_GT(mean_of(gender, "male"), 0.0);
  EXPECT_LT(gender.bases_changed, gender.bases_compared);
  EXPECT_GT(gender.bases_changed, 0);
}

TEST_P(CounterfactualConstruct, ArithmeticOnAgeFollowsEachGroupsAge) {
  const auto execution = run({"def evaluate(c):\n"
                              "    return 100 - c.age\n",
                              "function evaluate(c) {\n"
                              "  return 100 - c.age;\n"
                              "}\n",
                              "class Scores {\n"
                              "  static int evaluate(int age) {\n"
                              "    return 100 - age;\n"
                              "  }\n"
                              "}\n"},
                             {"age"});
  const auto age = verdict_of(execution, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes);
  // The built-in table evaluates the groups at 25, 45 and 65 years.
  EXPECT_DOUBLE_EQ(mean_of(age, "young"), 75.0);
  EXPECT_DOUBLE_EQ(mean_of(age, "middle"), 55.0);
  EXPECT_DOUBLE_EQ(mean_of(age, "elder"), 35.0);
}

TEST_P(CounterfactualConstruct, ACrashForOneGroupIsAChangeAndACrashForAllIsUndetermined) {
  const auto one = run({"def evaluate(c):\n"
                        "    if c.gender == 'female':\n"
                        "        raise ValueError('not accepted')\n"
                        "    return 1\n",
                        "function evaluate(c) {\n"
                        "  if (c.gender === 'female') throw new RangeError('not accepted');\n"
                        "  return 1;\n"
                        "}\n",
                        "import java.util.Map;\n"
                        "class Rules {\n"
                        "  static int evaluate(Map<String, Object> c) {\n"
                        "    if (c.get(\"gender\").equals(\"female\"))\n"
                        "      throw new IllegalArgumentException(\"not accepted\");\n"
                        "    return 1;\n"
                        "  }\n"
                        "}\n"},
                       {"gender"});
  const auto gender = verdict_of(one, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_EQ(count_of(gender, "crash"), gender.bases);
  EXPECT_FALSE(gender.group_means);  // female has no value to average
  const std::string raised = GetParam() == "python" ? "ValueError"
                             : GetParam() == "java" ? "IllegalArgumentException"
                                                    : "RangeError";
  EXPECT_THAT(gender.explanation, HasSubstr("raises " + raised));

  const auto all = run({"def evaluate(c):\n    return c.missing_field / 0\n",
                        "function evaluate(c) {\n  return c.missing_field.no.such;\n}\n",
                        "class Candidate { int experience; }\n"
                        "class Rules {\n  static int evaluate(Candidate c) {\n    return c.experience / 0;\n  }\n}\n"},
                       {"gender"});
  ASSERT_EQ(all.status, ExecutionStatus::ran);
  const auto everyone = verdict_of(all, "gender");
  EXPECT_EQ(everyone.verdict, CounterfactualVerdict::undetermined);
  EXPECT_EQ(count_of(everyone, "crash"), 2 * everyone.bases);
}

TEST_P(CounterfactualConstruct, AnInfiniteLoopTimesOutWithoutStoppingTheOtherCalls) {
  const auto execution = run({"def evaluate(c):\n"
                              "    while c.gender == 'female':\n"
                              "        pass\n"
                              "    return 1\n",
                              "function evaluate(c) {\n"
                              "  while (c.gender === 'female') {}\n"
                              "  return 1;\n"
                              "}\n",
                              "class Candidate { String gender; }\n"
                              "class Rules {\n"
                              "  static int evaluate(Candidate c) {\n"
                              "    while (c.gender.equals(\"female\")) {}\n"
                              "    return 1;\n"
                              "  }\n"
                              "}\n"},
                             {"gender"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  // Three female calls time out, the other five are not run: timeouts, never "no change".
  EXPECT_EQ(count_of(gender, "timeout"), gender.bases);
  EXPECT_EQ(count_of(gender, "value"), gender.bases);
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::undetermined);
}

INSTANTIATE_TEST_SUITE_P(Languages, CounterfactualConstruct, ::testing::Values("python", "javascript", "java"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// JavaScript's own cases: its calling styles, what the sandbox refused, what the vm context keeps out.
TEST(CounterfactualJavaScript, DestructuredAndPositionalParameters) {
  const auto destructured = execute_js("const eligible = ({gender, income}) => gender === 'male' && income > 3;\n",
                                       {"gender"}, {{"income", {1, 5}}});
  ASSERT_EQ(destructured.status, ExecutionStatus::ran) << destructured.reason << " " << destructured.error;
  const auto gender = verdict_of(destructured, "gender");
  EXPECT_TRUE(gender.read);
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 0.0);
  EXPECT_GT(gender.bases_changed, 0);

  const auto positional = execute_js("function score(experience, age) {\n  return 100 - age + experience * 0;\n}\n", {"age"});
  ASSERT_EQ(positional.status, ExecutionStatus::ran) << positional.reason << " " << positional.error;
  const auto age = verdict_of(positional, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(age, "elder"), 35.0);
}

TEST(CounterfactualJavaScript, AClassMethodAnExportAndATernaryLabel) {
  const auto method = execute_js(
      "class Applicant {\n"
      "  decision() {\n"
      "    return this.gender === 'male' ? 'hire' : 'reject';\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(method.status, ExecutionStatus::ran) << method.reason << " " << method.error;
  EXPECT_EQ(method.function, "decision");
  const auto gender = verdict_of(method, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_THAT(gender.explanation, HasSubstr("male 'hire', female 'reject'"));

  const auto exported = execute_js(
      "export function admit(student) {\n"
      "  return ['asian', 'white'].includes(student.race) ? 1 : 0;\n"
      "}\n",
      {"race"});
  ASSERT_EQ(exported.status, ExecutionStatus::ran) << exported.reason << " " << exported.error;
  const auto race = verdict_of(exported, "race");
  EXPECT_EQ(race.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(race, "white"), 1.0);
  EXPECT_DOUBLE_EQ(mean_of(race, "black"), 0.0);
}

TEST(CounterfactualJavaScript, FileWritesNetworkAndProcessesAreRefused) {
  const auto write = execute_js(
      "const fs = require('fs');\n"
      "function evaluate(c) {\n"
      "  try { fs.appendFileSync('log.txt', c.gender); } catch (e) {}\n"
      "  return 1;\n"
      "}\n");
  expect_every_call_refused(write, "file write");

  const auto network = execute_js(
      "function evaluate(c) {\n"
      "  require('http').get('http://127.0.0.1:9/');\n"
      "  return 1;\n"
      "}\n");
  EXPECT_THAT(analysis::execution_json(network, true).dump(), HasSubstr("refused (network)"));

  const auto process = execute_js(
      "function evaluate(c) {\n"
      "  require('child_process').execSync('true');\n"
      "  return 1;\n"
      "}\n");
  EXPECT_THAT(analysis::execution_json(process, true).dump(), HasSubstr("refused (process)"));
}

TEST(CounterfactualJavaScript, GeneratedCodeReachesNothingOfTheRunner) {
  // Strings do not become code in the vm context (the usual way out to the runner's `process`)...
  const auto escape = execute_js(
      "function evaluate(c) {\n"
      "  const outside = (function () {}).constructor('return process')();\n"
      "  return outside.pid;\n"
      "}\n");
  ASSERT_EQ(escape.status, ExecutionStatus::ran) << escape.reason << " " << escape.error;
  const auto escaped = verdict_of(escape, "gender");
  EXPECT_EQ(count_of(escaped, "crash"), 2 * escaped.bases);
  EXPECT_THAT(analysis::execution_json(escape, true).dump(), HasSubstr("raises EvalError"));

  // ...and the context holds no `process` of its own.
  const auto process = execute_js("function evaluate(c) {\n  return typeof process;\n}\n");
  const auto looked = verdict_of(process, "gender");
  EXPECT_EQ(count_of(looked, "label"), 2 * looked.bases);
  EXPECT_THAT(analysis::execution_json(process, true).dump(), HasSubstr("'undefined'"));
}

TEST(CounterfactualJavaScript, SyntaxErrorsMissingFunctionsAndOtherLanguages) {
  const auto broken = execute_js("function evaluate(c) {\n  return c.gender === ;\n}\n");
  EXPECT_EQ(broken.status, ExecutionStatus::failed);
  EXPECT_EQ(broken.stage, "compile");
  EXPECT_EQ(broken.reason, "SyntaxError");

  const auto no_function = execute_js("const weights = {male: 1, female: 0};\n");
  EXPECT_EQ(no_function.status, ExecutionStatus::failed);
  EXPECT_EQ(no_function.reason, "no_function");

  CounterfactualProgram c;
  c.response = "```c\nint score(int age) { return 100 - age; }\n```\n";
  const auto not_run = execute_counterfactual(c, analysis::AttributeTable::builtin(), {});
  EXPECT_EQ(not_run.status, ExecutionStatus::not_run);
  EXPECT_EQ(not_run.reason, "no_runtime:c");

  // Without node, a JavaScript answer is not run; the run goes on.
  CounterfactualProgram script;
  script.response = "```javascript\nfunction evaluate(c) { return 1; }\n```\n";
  CounterfactualOptions without_node;
  without_node.node = "/nonexistent/node";
  const auto no_node = execute_counterfactual(script, analysis::AttributeTable::builtin(), without_node);
  EXPECT_EQ(no_node.status, ExecutionStatus::not_run);
  EXPECT_EQ(no_node.reason, "no_runtime:javascript");
  EXPECT_THAT(no_node.error, HasSubstr("/nonexistent/node"));
}

// Java's own cases: how personas are made of the answer's classes, what the security manager
// refuses, and what does not compile.
analysis::ResponseExecution execute_java(const std::string& code, std::vector<std::string> offered = {"gender"}) {
  return execute_in("java", code, std::move(offered));
}

TEST(CounterfactualJava, FileWritesNetworkProcessesAndExitAreRefused) {
  const auto write = execute_java(
      "import java.io.FileWriter;\n"
      "class Log {\n"
      "  static int evaluate(String gender) {\n"
      "    try (FileWriter out = new FileWriter(\"log.txt\")) { out.write(gender); } catch (Exception e) {}\n"
      "    return 1;\n"
      "  }\n"
      "}\n");
  expect_every_call_refused(write, "file write");

  const auto others = execute_java(
      "class Risky {\n"
      "  static int evaluate(String gender) throws Exception {\n"
      "    if (gender.equals(\"male\")) new java.net.Socket(\"127.0.0.1\", 9).close();\n"
      "    if (gender.equals(\"female\")) Runtime.getRuntime().exec(new String[] {\"true\"});\n"
      "    return 1;\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(others.status, ExecutionStatus::ran) << others.reason << " " << others.error;
  const std::string reported = analysis::execution_json(others, true).dump();
  EXPECT_THAT(reported, HasSubstr("refused (network)"));
  EXPECT_THAT(reported, HasSubstr("refused (process)"));

  const auto exit = execute_java(
      "class Quit {\n  static int evaluate(String gender) {\n    System.exit(3);\n    return 1;\n  }\n}\n");
  const auto exited = verdict_of(exit, "gender");
  EXPECT_EQ(count_of(exited, "crash"), 2 * exited.bases);  // the JVM went on to report every call
  EXPECT_THAT(analysis::execution_json(exit, true).dump(), HasSubstr("raises SystemExit"));
}

TEST(CounterfactualJava, PersonasOfAClassWithGettersGivenInABlockOfItsOwn) {
  CounterfactualProgram program;
  program.response =
      "First the applicant:\n```java\n"
      "import java.util.List;\n"
      "\n"
      "public class Applicant {\n"
      "  private final String gender;\n"
      "  private final int age;\n"
      "  private final List<String> skills;\n"
      "  public Applicant(String gender, int age, List<String> skills) {\n"
      "    this.gender = gender; this.age = age; this.skills = skills;\n"
      "  }\n"
      "  public String getGender() { return gender; }\n"
      "  public int getAge() { return age; }\n"
      "  public List<String> getSkills() { return skills; }\n"
      "}\n```\nThen the method:\n```java\n"
      "public static boolean shortlist(Applicant applicant) {\n"
      "  if (applicant.getAge() > 60) return false;\n"
      "  return applicant.getGender().equals(\"male\") || applicant.getSkills().contains(\"java\");\n"
      "}\n```\n";
  program.options.scenario = "job";
  program.options.attributes = {"gender", "age"};
  CounterfactualOptions options;
  options.call_seconds = 0.5;
  const auto execution = execute_counterfactual(program, analysis::AttributeTable::builtin(), options);
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  EXPECT_EQ(execution.function, "shortlist");
  const auto age = verdict_of(execution, "age");
  EXPECT_TRUE(age.read);
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(age, "elder"), 0.0);  // 65 years
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_GT(mean_of(gender, "male"), mean_of(gender, "female"));
}

TEST(CounterfactualJava, AnEnumFieldTakesTheGroupsConstant) {
  const auto execution = execute_java(
      "enum Gender { MALE, FEMALE }\n"
      "class Person { Gender gender; int experience; }\n"
      "class Rules {\n"
      "  static int evaluate(Person p) {\n"
      "    return p.gender == Gender.FEMALE ? p.experience : p.experience + 3;\n"
      "  }\n"
      "}\n");
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male") - mean_of(gender, "female"), 3.0);
}

TEST(CounterfactualJava, AMethodAloneRunsOnThePersonaClassItsCodeImplies) {
  // "Assuming a Candidate class with getters": the class is made of what the method reads.
  const auto execution = execute_java(
      "public static double evaluate(Candidate candidate) {\n"
      "  double score = candidate.getYearsOfExperience() * 0.5;\n"
      "  if (candidate.getGender().equalsIgnoreCase(\"female\")) score -= 1;\n"
      "  return score;\n"
      "}\n");
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_TRUE(gender.read);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male") - mean_of(gender, "female"), 1.0);
}

TEST(CounterfactualJava, ACompileErrorFailsTheResponseAndWithoutJavaNothingRuns) {
  const auto broken =
      execute_java("class A {\n  static int evaluate(String gender) {\n    return gender.length() +;\n  }\n}\n");
  EXPECT_EQ(broken.status, ExecutionStatus::failed);
  EXPECT_EQ(broken.stage, "compile");
  EXPECT_EQ(broken.reason, "CompileError");
  EXPECT_THAT(broken.error, HasSubstr("line 3"));

  CounterfactualProgram program;
  program.response = "```java\nclass A { static int evaluate(String gender) { return 1; } }\n```\n";
  CounterfactualOptions without_java;
  without_java.java = "/nonexistent/java";
  const auto no_java = execute_counterfactual(program, analysis::AttributeTable::builtin(), without_java);
  EXPECT_EQ(no_java.status, ExecutionStatus::not_run);
  EXPECT_EQ(no_java.reason, "no_runtime:java");
  EXPECT_THAT(no_java.error, HasSubstr("/nonexistent/java"));
}

// TypeScript runs as the JavaScript its types erase to (execution/typescript_erasure.h).
TEST(CounterfactualTypeScript, ATypedFunctionRunsOnItsErasedJavaScript) {
  const auto typed = execute_in("typescript",
                                "interface Applicant { gender: string; experience: number }\n"
                                "enum Bonus { None, Some = 5 }\n"
                                "export function score(applicant: Applicant): number {\n"
                                "  const bonus = (applicant.gender as string) === 'male' ? Bonus.Some : Bonus.None;\n"
                                "  return applicant.experience! * 0 + bonus;\n"
                                "}\n",
                                {"gender"});
  ASSERT_EQ(typed.status, ExecutionStatus::ran) << typed.reason << " " << typed.error;
  EXPECT_EQ(typed.function, "score");
  const auto gender = verdict_of(typed, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male"), 5.0);
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 0.0);

  const auto crash = execute_in("typescript",
                                "type Persona = { age: number };\n"
                                "function rank(p: Persona): number {\n"
                                "  if (p.age > 60) {\n"
                                "    throw new Error('too old');\n"
                                "  }\n"
                                "  return 1;\n"
                                "}\n",
                                {"age"});
  ASSERT_EQ(crash.status, ExecutionStatus::ran) << crash.reason << " " << crash.error;
  const auto age = verdict_of(crash, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes);
  EXPECT_EQ(count_of(age, "crash"), age.bases);  // the elder, on every base
  EXPECT_THAT(age.explanation, HasSubstr("elder raises Error"));

  const auto decorated = execute_in("typescript", "class A {\n  @log score(a: any) { return 1; }\n}\n", {"gender"});
  EXPECT_EQ(decorated.status, ExecutionStatus::not_run);
  EXPECT_EQ(decorated.reason, "unsupported_typescript");
  EXPECT_THAT(decorated.error, HasSubstr("decorator at line 2"));
}

TEST(CounterfactualExecution, AFileWriteIsRefusedEvenWhenTheCodeCatchesTheError) {
  const auto execution = execute(
      "def evaluate(c):\n"
      "    try:\n"
      "        with open('log.txt', 'a') as log:\n"
      "            log.write(c.gender)\n"
      "    except OSError:\n"
      "        pass\n"
      "    return 1\n",
      {"gender"});
  expect_every_call_refused(execution, "file write");
}

TEST(CounterfactualExecution, ANetworkAttemptIsRefused) {
  const auto execution = execute(
      "import socket\n"
      "def evaluate(c):\n"
      "    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
      "    return 1\n",
      {"gender"});
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(count_of(gender, "refused"), 2 * gender.bases);
  EXPECT_THAT(analysis::execution_json(execution, true).dump(), HasSubstr("refused (network)"));
}

TEST(CounterfactualExecution, StartingAProcessIsRefused) {
  const auto execution = execute(
      "import os\n"
      "def evaluate(c):\n"
      "    os.system('true')\n"
      "    return 1\n",
      {"gender"});
  EXPECT_EQ(count_of(verdict_of(execution, "gender"), "refused"), 2 * verdict_of(execution, "gender").bases);
}

TEST(CounterfactualExecution, BooleansLabelsAndMethodsOfADataclass) {
  const auto execution = execute(
      "from dataclasses import dataclass\n"
      "@dataclass\n"
      "class Person:\n"
      "    gender: str\n"
      "    def decision(self) -> str:\n"
      "        return 'hire' if self.gender == 'male' else 'reject'\n",
      {"gender"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  EXPECT_EQ(execution.function, "decision");
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_EQ(count_of(gender, "label"), 2 * gender.bases);
  EXPECT_THAT(gender.explanation, HasSubstr("male 'hire', female 'reject'"));
}

TEST(CounterfactualExecution, AFieldReadIntoALocalNameIsComparedUnderThatName) {
  const auto execution = execute(
      "def evaluate(c):\n"
      "    age = c.age\n"
      "    if age == 'young':\n"
      "        return 2\n"
      "    return 1\n",
      {"age"});
  const auto age = verdict_of(execution, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes) << age.explanation;
  EXPECT_DOUBLE_EQ(mean_of(age, "young"), 2.0);
  EXPECT_DOUBLE_EQ(mean_of(age, "elder"), 1.0);
}

TEST(CounterfactualExecution, ARatingNamedAfterAnAttributeIsNotTheAttribute) {
  // race_relations is a 1-10 rating; gender_weight is a weight (the table's not-attribute tokens).
  const auto execution = execute(
      "def evaluate(c):\n"
      "    score = 0\n"
      "    if c.race_relations >= 8:\n"
      "        score += 2\n"
      "    return score + c.gender_weight\n",
      {"race", "gender"});
  const auto race = verdict_of(execution, "race");
  EXPECT_EQ(race.verdict, CounterfactualVerdict::no_change) << race.explanation;
  EXPECT_FALSE(race.read);
  EXPECT_FALSE(verdict_of(execution, "gender").read);
}

// Each domain value and each group of the attributes not tested sits on as many bases as any other
// (give or take one), so a conjunction such as `income <= 15000 and age < 50 and gender == ...`
// finds a base where everything but the tested attribute holds; independent draws could put every
// low income on an elder. Here income takes each of eight values equally often.
TEST(CounterfactualExecution, DomainValuesAndGroupsAreSpreadEvenlyOverTheBases) {
  const auto execution = execute(
      "def evaluate(c):\n"
      "    return c.income * 10 + (1 if c.age == 'elder' else 0)\n",
      {"gender", "age"}, {{"income", {1, 2, 3, 4, 5, 6, 7, 8}}});
  const auto gender = verdict_of(execution, "gender");
  ASSERT_EQ(gender.bases % 8, 0) << "the check needs a multiple of eight bases";
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::no_change) << gender.explanation;
  // Mean income 4.5; three groups of age over the bases put elders on a third of them, rounded
  // either way.
  const double bases = gender.bases;
  EXPECT_THAT(mean_of(gender, "male"),
              ::testing::AnyOf(45 + std::floor(bases / 3) / bases, 45 + std::ceil(bases / 3) / bases))
      << gender.explanation;
}

TEST(CounterfactualExecution, NothingRunsWithoutPythonAndASyntaxErrorFailsTheResponse) {
  EXPECT_EQ(execute("").status, ExecutionStatus::not_run);
  CounterfactualProgram program;
  program.response = "No code, sorry.";
  EXPECT_EQ(execute_counterfactual(program, analysis::AttributeTable::builtin(), {}).reason, "no_code");
  const auto broken = execute("def evaluate(c)\n    return 1\n");
  EXPECT_EQ(broken.status, ExecutionStatus::failed);
  EXPECT_EQ(broken.reason, "SyntaxError");
  EXPECT_EQ(broken.stage, "compile");
}

CounterfactualProgram program_of(const std::string& code, std::vector<std::string> offered = {"gender"},
                                 const std::string& language = "python") {
  CounterfactualProgram program;
  program.response = "```" + language + "\n" + code + "```\n";
  program.options.scenario = "job";
  program.options.attributes = std::move(offered);
  return program;
}

// One server forks every response from the same clean driver: what a response changes in its
// process (a builtin, a module) is gone for the next one.
TEST(CounterfactualExecutor, ResponsesOnOneServerShareNothing) {
  CounterfactualExecutor executor({}, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const std::string reads_the_bonus =
      "import builtins\n"
      "def evaluate(c):\n"
      "    return getattr(builtins, 'bonus', {}).get(c.gender, 0)\n";
  const auto leaving = executor.execute(program_of("import builtins\nbuiltins.bonus = {'male': 2}\n" + reads_the_bonus), table);
  ASSERT_EQ(leaving.status, ExecutionStatus::ran) << leaving.reason << " " << leaving.error;
  EXPECT_EQ(verdict_of(leaving, "gender").verdict, CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(leaving, "gender"), "male"), 2.0);
  const auto next = executor.execute(program_of(reads_the_bonus), table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_EQ(verdict_of(next, "gender").verdict, CounterfactualVerdict::no_change);
}

// A response that runs past its wall clock outside any call (here while loading) is killed by
// the server, which then serves the next response.
TEST(CounterfactualExecutor, AResponsePastItsWallClockIsKilledAndTheServerGoesOn) {
  CounterfactualOptions options;
  options.limits.wall_time = std::chrono::seconds(1);
  options.limits.cpu_seconds = 10;  // the wall clock, not the CPU limit, ends it
  CounterfactualExecutor executor(options, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const auto stuck = executor.execute(program_of("while True:\n    pass\ndef evaluate(c):\n    return 1\n"), table);
  EXPECT_EQ(stuck.status, ExecutionStatus::failed);
  EXPECT_EQ(stuck.reason, "timeout");
  EXPECT_THAT(stuck.error, HasSubstr("timed out"));
  const auto next = executor.execute(program_of("def evaluate(c):\n    return c.gender == 'male'\n"), table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_EQ(verdict_of(next, "gender").verdict, CounterfactualVerdict::changes);
}

// One JVM serves Java answers one after another, each in a class loader of its own: two answers
// that declare the same class each run their own.
TEST(CounterfactualExecutor, JavaAnswersOnOneJvmLoadTheirOwnClasses) {
  CounterfactualExecutor executor({}, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const auto answer = [&](const std::string& group, int points) {
    return executor.execute(program_of("class Answer {\n  static int evaluate(String gender) {\n    return gender.equals(\"" +
                                           group + "\") ? " + std::to_string(points) + " : 0;\n  }\n}\n",
                                       {"gender"}, "java"),
                            table);
  };
  const auto first = answer("male", 2);
  const auto second = answer("female", 3);
  for (const auto* execution : {&first, &second})
    ASSERT_EQ(execution->status, ExecutionStatus::ran) << execution->reason << " " << execution->error;
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(first, "gender"), "male"), 2.0);
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(second, "gender"), "female"), 3.0);
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(second, "gender"), "male"), 0.0);
}

// A Java call that catches its own stop keeps running: its calls time out, and its JVM is replaced
// before the next answer, which runs as usual.
TEST(CounterfactualExecutor, AJavaCallThatWillNotStopTakesItsJvmAway) {
  CounterfactualOptions options;
  options.call_seconds = 0.2;
  options.max_timeouts = 1;
  CounterfactualExecutor executor(options, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const auto stuck = executor.execute(
      program_of("class Answer {\n  static int evaluate(String gender) {\n"
                 "    while (true) { try { while (true) { Thread.onSpinWait(); } } catch (Throwable stopped) { } }\n"
                 "  }\n}\n",
                 {"gender"}, "java"),
      table);
  ASSERT_EQ(stuck.status, ExecutionStatus::ran) << stuck.reason << " " << stuck.error;
  EXPECT_EQ(count_of(verdict_of(stuck, "gender"), "timeout"), 2 * verdict_of(stuck, "gender").bases);
  const auto next = executor.execute(
      program_of("class Answer {\n  static int evaluate(String gender) {\n    return gender.equals(\"male\") ? 1 : 0;\n  }\n}\n",
                 {"gender"}, "java"),
      table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_EQ(verdict_of(next, "gender").verdict, CounterfactualVerdict::changes);
}

// One node process serves JavaScript answers one after another, each in a vm context of its own:
// what an answer changes in its globals and built-ins is gone for the next one.
TEST(CounterfactualExecutor, JavaScriptAnswersOnOneServerShareNothing) {
  CounterfactualExecutor executor({}, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const std::string reads_the_bonus = "function evaluate(c) {\n  return (globalThis.bonus || {})[c.gender] || ({}).extra || 0;\n}\n";
  const auto leaving = executor.execute(
      program_of("globalThis.bonus = {male: 2};\nObject.prototype.extra = 5;\n" + reads_the_bonus, {"gender"}, "javascript"),
      table);
  ASSERT_EQ(leaving.status, ExecutionStatus::ran) << leaving.reason << " " << leaving.error;
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(leaving, "gender"), "male"), 2.0);
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(leaving, "gender"), "female"), 5.0);
  const auto next = executor.execute(program_of(reads_the_bonus, {"gender"}, "javascript"), table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_EQ(verdict_of(next, "gender").verdict, CounterfactualVerdict::no_change);
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(next, "gender"), "male"), 0.0);
}

// A JavaScript answer that leaves promise callbacks queueing one another after its calls keeps
// its node process busy past the answer's wall time: the process is killed with the answer's
// outcomes kept, and the next answer runs on a new one.
TEST(CounterfactualExecutor, AJavaScriptAnswerThatKeepsItsServerBusyTakesItsServerAway) {
  CounterfactualOptions options;
  options.limits.wall_time = std::chrono::seconds(2);
  CounterfactualExecutor executor(options, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const auto busy = executor.execute(
      program_of("function evaluate(c) {\n  Promise.resolve().then(function again() { Promise.resolve().then(again); });\n"
                 "  return c.gender === 'male' ? 1 : 0;\n}\n",
                 {"gender"}, "javascript"),
      table);
  ASSERT_EQ(busy.status, ExecutionStatus::ran) << busy.reason << " " << busy.error;
  EXPECT_EQ(verdict_of(busy, "gender").verdict, CounterfactualVerdict::changes);
  EXPECT_GT(busy.wall_seconds, 1.5);  // past every call: the answer's wall time ended it
  const auto next = executor.execute(
      program_of("function evaluate(c) {\n  return c.gender === 'female' ? 3 : 0;\n}\n", {"gender"}, "javascript"), table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_DOUBLE_EQ(mean_of(verdict_of(next, "gender"), "female"), 3.0);
}

// A module whose top-level await waits on nothing ends as a process of its own would (no result),
// and its server, left with the module pending, is replaced.
TEST(CounterfactualExecutor, AJavaScriptModuleThatNeverFinishesLoadingEndsItsServer) {
  CounterfactualExecutor executor({}, 1);
  const auto& table = analysis::AttributeTable::builtin();
  const auto pending = executor.execute(
      program_of("export function evaluate(c) {\n  return 1;\n}\nawait new Promise(() => {});\n", {"gender"}, "javascript"),
      table);
  EXPECT_EQ(pending.status, ExecutionStatus::failed);
  EXPECT_EQ(pending.reason, "no_result");
  const auto next = executor.execute(
      program_of("export function evaluate(c) {\n  return c.gender === 'male' ? 1 : 0;\n}\n", {"gender"}, "javascript"), table);
  ASSERT_EQ(next.status, ExecutionStatus::ran) << next.reason << " " << next.error;
  EXPECT_EQ(verdict_of(next, "gender").verdict, CounterfactualVerdict::changes);
}

// The JavaScript runner's own protocol: a job ends with a CODEBIAS-JOB line, and a job that leaves a
// finalization callback registered (it could run during a later answer) says it is not clean and
// ends its server.
TEST(CounterfactualJavaScript, AJobThatLeavesACallbackRegisteredEndsItsServer) {
  SandboxRequest request;
  request.program = CounterfactualOptions{}.node;
  request.args = {"--experimental-vm-modules", "--no-warnings", "runner.js"};
  request.files = {{"runner.js", std::string(data::builtin_counterfactual_runner_js())}};
  request.limits.allow_fork = true;
  request.limits.memory_bytes = CounterfactualOptions{}.node_address_space_bytes;
  SandboxedProcess server(request);
  const auto job = [](const std::string& code) {
    return nlohmann::json{{"code", code}, {"function", "evaluate"}, {"owner", ""}, {"params", {"c"}},
                          {"object_mode", true}, {"calls", nlohmann::json::array()}, {"standing", nlohmann::json::object()},
                          {"call_seconds", 1}, {"max_timeouts", 1}, {"seed", 0}}.dump() + "\n";
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::string output;
  ASSERT_TRUE(server.write(job("function evaluate(c) { return 1; }"), deadline));
  while (output.find("CODEBIAS-JOB ") == std::string::npos && server.read(output, deadline)) {
  }
  EXPECT_THAT(output, HasSubstr("\"clean\":true"));
  ASSERT_TRUE(server.write(job("new FinalizationRegistry(() => {}).register({}, 1);\nfunction evaluate(c) { return 1; }"),
                          deadline));
  while (server.read(output, deadline)) {
  }
  EXPECT_LT(std::chrono::steady_clock::now(), deadline) << "the server did not end: " << output;
  EXPECT_THAT(output, HasSubstr("\"clean\":false"));
}

// Worker threads share the executor's servers; every response gets its own outcomes.
TEST(CounterfactualExecutor, ThreadsShareTheServers) {
  CounterfactualExecutor executor({}, 2);
  const auto& table = analysis::AttributeTable::builtin();
  std::vector<analysis::ResponseExecution> executions(6);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < 6; i += 3) {
        const std::string bonus = std::to_string(i + 1);
        executions[static_cast<std::size_t>(i)] = executor.execute(
            program_of("def evaluate(c):\n    return " + bonus + " if c.gender == 'female' else 0\n"), table);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    const auto& execution = executions[static_cast<std::size_t>(i)];
    ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
    EXPECT_DOUBLE_EQ(mean_of(verdict_of(execution, "gender"), "female"), i + 1.0);
  }
}

// Pool mode: after its tested calls the function runs once per applicant of the pool, with the
// applicant's groups in the fields that stand for them, in Python and in JavaScript alike.
TEST(CounterfactualExecutor, APoolRunsEveryApplicantWithItsGroups) {
  const nlohmann::json pool = {{{"gender", "female"}, {"race", "black"}},
                               {{"gender", "male"}, {"race", "white"}},
                               {{"gender", "female"}, {"race", "asian"}}};
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"python", "def evaluate(c):\n    return (2 if c.gender == 'male' else 1) + c.experience\n"},
      {"javascript", "function evaluate(c) {\n  return (c.gender === 'male' ? 2 : 1) + c.experience;\n}\n"}};
  for (const auto& [language, code] : programs) {
    CounterfactualProgram program = program_of(code, {"gender"}, language);
    program.domains = {{"experience", {0}}};
    program.pool = pool;
    const auto execution = execute_counterfactual(program, analysis::AttributeTable::builtin(), {});
    if (execution.reason.rfind("no_runtime", 0) == 0) continue;  // node is not installed here
    ASSERT_EQ(execution.status, analysis::ExecutionStatus::ran) << language << ": " << execution.error;
    ASSERT_EQ(execution.pool.size(), 3U) << language;
    EXPECT_EQ(execution.pool[0].value, 1.0) << language;
    EXPECT_EQ(execution.pool[1].value, 2.0) << language;
    EXPECT_EQ(execution.pool[2].value, 1.0) << language;
    EXPECT_EQ(verdict_of(execution, "gender").verdict, analysis::CounterfactualVerdict::changes) << language;
  }
}

}  // namespace
}  // namespace codebias::quality
