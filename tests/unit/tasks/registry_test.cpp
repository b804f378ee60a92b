// The task registry: lookups, names, and that each task's scorer reads its own lines.
#include "tasks/task.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::tasks {
namespace {

using ::testing::HasSubstr;

ScoreSettings settings(bool summary = false) {
  ScoreSettings s;
  s.table = &analysis::AttributeTable::builtin();
  s.want_summary = summary;
  s.engine.keep_going = true;
  return s;
}

std::vector<std::string> score_lines(const Task& task, const ScoreSettings& s, const std::string& input) {
  std::istringstream in(input);
  std::vector<std::string> out;
  task.make_scorer(s)->score(in, "in", [&](std::string_view line) { out.emplace_back(line); });
  return out;
}

TEST(TaskRegistry, FindsEveryTaskByNameAndListsTheKnownOnesOtherwise) {
  for (const Task& task : all_tasks()) EXPECT_EQ(find_task(task.name).name, task.name);
  try {
    find_task("review");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("unknown task \"review\" (known: function, testcase, ml-pipeline, resume, cat, decision, hiring-audit, faircoder-compat)"));
  }
}

TEST(TaskRegistry, OnlyTasksWithPromptsAreRunnable) {
  EXPECT_EQ(task_names(true), (std::vector<std::string>{"function", "testcase", "ml-pipeline", "resume", "cat", "decision", "hiring-audit"}));
  EXPECT_EQ(task_names(false), (std::vector<std::string>{"function", "testcase", "ml-pipeline", "resume", "cat", "decision", "hiring-audit",
                                                "faircoder-compat"}));
  EXPECT_EQ(find_task("faircoder-compat").build_prompts, nullptr);
}

TEST(TaskRegistry, FunctionAndCompatScoreTheSameLineEachTheirWay) {
  const std::string line =
      R"({"id": "r1", "scenario": "job", "attributes": ["gender"], "response": "def f(p):\n    score = 0\n    if p.gender == 'male':\n        score += 2\n    return score\n"})"
      "\n";
  const auto analyzer = score_lines(find_task("function"), settings(), line);
  const auto compat = score_lines(find_task("faircoder-compat"), settings(), line);
  ASSERT_EQ(analyzer.size(), 1u);
  ASSERT_EQ(compat.size(), 1u);
  EXPECT_THAT(analyzer[0], HasSubstr("\"rule\":\"if-chain/compare-eq\""));
  EXPECT_THAT(compat[0], HasSubstr("\"rule\":\"faircoder-compat/eq\""));
}

TEST(TaskRegistry, TestcaseRefusesFunctionOptionsAndSummarisesPerTopic) {
  ScoreSettings with_scenario = settings();
  with_scenario.scenario = "job";
  EXPECT_THROW(find_task("testcase").make_scorer(with_scenario), std::invalid_argument);

  auto scorer = find_task("testcase").make_scorer(settings(true));
  std::istringstream in(
      R"({"id": "t", "response": "gender: male\nx: True\n", "topic": "kindness", "request": "group", "fields": ["x"], "sensitive_fields": ["gender"]})"
      "\n");
  const auto stats = scorer->score(in, "in", [](std::string_view) {});
  EXPECT_EQ(stats.responses, 1);
  const ScoreSummary summary = scorer->summary();
  EXPECT_THAT(summary.table, HasSubstr("kindness"));
  EXPECT_FALSE(summary.json.is_null());
}

TEST(TaskRegistry, FunctionTaskNamesTheUnknownAttributeFlag) {
  ScoreSettings s = settings();
  s.attributes = {"religion"};
  try {
    find_task("function").make_scorer(s);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("--attributes: unknown attribute \"religion\""));
  }
}

}  // namespace
}  // namespace codebias::tasks
