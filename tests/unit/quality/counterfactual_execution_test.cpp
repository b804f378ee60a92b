// Counterfactual execution on hand-written functions, one construct each: the per-group
// outcomes the sandbox observed, the verdict read from them, and what the sandbox refused.
#include "quality/counterfactual_execution.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "counterfactual_test_support.h"

namespace codebias::quality {
namespace {

using analysis::CounterfactualVerdict;
using analysis::ExecutionStatus;
using ::testing::HasSubstr;
using testing::count_of;
using testing::mean_of;
using testing::verdict_of;

analysis::ResponseExecution execute(const std::string& code, std::vector<std::string> offered = {"gender", "age"},
                                    FieldDomains domains = {}) {
  CounterfactualProgram program;
  program.response = "```python\n" + code + "```\n";
  program.options.scenario = "job";
  program.options.attributes = std::move(offered);
  program.domains = std::move(domains);
  CounterfactualOptions options;
  options.call_seconds = 0.5;
  return execute_counterfactual(program, analysis::AttributeTable::builtin(), options);
}

// The constructs every executed language must get right, each written in Python and in
// JavaScript (which runs under node: counterfactual_javascript_test.cpp has its own cases).
struct Source {
  std::string python;
  std::string javascript;
};

class CounterfactualConstruct : public ::testing::TestWithParam<std::string> {
 protected:
  analysis::ResponseExecution run(const Source& source, std::vector<std::string> offered = {"gender", "age"},
                                  FieldDomains domains = {}) const {
    CounterfactualProgram program;
    const bool javascript = GetParam() == "javascript";
    program.response = "```" + GetParam() + "\n" + (javascript ? source.javascript : source.python) + "```\n";
    program.options.scenario = "job";
    program.options.attributes = std::move(offered);
    program.domains = std::move(domains);
    CounterfactualOptions options;
    options.call_seconds = 0.5;
    return execute_counterfactual(program, analysis::AttributeTable::builtin(), options);
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
                              "};\n"});
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
                        "}\n"},
                       {"gender"});
  const auto gender = verdict_of(one, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes);
  EXPECT_EQ(count_of(gender, "crash"), gender.bases);
  EXPECT_FALSE(gender.group_means);  // female has no value to average
  EXPECT_THAT(gender.explanation, HasSubstr(GetParam() == "python" ? "raises ValueError" : "raises RangeError"));

  const auto all = run({"def evaluate(c):\n    return c.missing_field / 0\n",
                        "function evaluate(c) {\n  return c.missing_field.no.such;\n}\n"},
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
                              "}\n"},
                             {"gender"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  // Three female calls time out, the other five are not run: timeouts, never "no change".
  EXPECT_EQ(count_of(gender, "timeout"), gender.bases);
  EXPECT_EQ(count_of(gender, "value"), gender.bases);
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::undetermined);
}

INSTANTIATE_TEST_SUITE_P(Languages, CounterfactualConstruct, ::testing::Values("python", "javascript"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

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
  ASSERT_EQ(execution.status, ExecutionStatus::ran);
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(count_of(gender, "refused"), 2 * gender.bases);
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::undetermined);
  EXPECT_THAT(analysis::execution_json(execution, true).dump(), HasSubstr("refused (file write)"));
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

CounterfactualProgram program_of(const std::string& code, std::vector<std::string> offered = {"gender"}) {
  CounterfactualProgram program;
  program.response = "```python\n" + code + "```\n";
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

}  // namespace
}  // namespace codebias::quality
