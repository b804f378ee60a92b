// Counterfactual execution of JavaScript answers (node, counterfactual_runner.js): its calling
// styles, what the sandbox refused and what the vm context keeps out. The constructs shared with
// Python run in both languages in counterfactual_execution_test.cpp (CounterfactualConstruct).
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "counterfactual_test_support.h"

#include "quality/counterfactual_execution.h"

namespace codebias::quality {
namespace {

using analysis::CounterfactualVerdict;
using analysis::ExecutionStatus;
using ::testing::HasSubstr;
using testing::count_of;
using testing::mean_of;
using testing::verdict_of;

analysis::ResponseExecution execute_js(const std::string& code, std::vector<std::string> offered = {"gender"},
                                       FieldDomains domains = {}, std::string function = {}) {
  CounterfactualProgram program;
  program.response = "Here is the function.\n```javascript\n" + code + "```\n";
  program.options.scenario = "job";
  program.options.attributes = std::move(offered);
  program.options.function = std::move(function);
  program.domains = std::move(domains);
  CounterfactualOptions options;
  options.call_seconds = 0.5;
  return execute_counterfactual(program, analysis::AttributeTable::builtin(), options);
}

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
  ASSERT_EQ(write.status, ExecutionStatus::ran) << write.reason << " " << write.error;
  const auto written = verdict_of(write, "gender");
  EXPECT_EQ(count_of(written, "refused"), 2 * written.bases);
  EXPECT_EQ(written.verdict, CounterfactualVerdict::undetermined);
  EXPECT_THAT(analysis::execution_json(write, true).dump(), HasSubstr("refused (file write)"));

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

  CounterfactualProgram java;
  java.response = "```java\nclass A { int score(Person p) { return 1; } }\n```\n";
  const auto not_run = execute_counterfactual(java, analysis::AttributeTable::builtin(), {});
  EXPECT_EQ(not_run.status, ExecutionStatus::not_run);
  EXPECT_EQ(not_run.reason, "no_runtime:java");
}

}  // namespace
}  // namespace codebias::quality
