// The executions a run starts while generating: taken by the analysis as they would have run there.
#include "tasks/run_executions.h"

#include <string>

#include <gtest/gtest.h>

namespace codebias::tasks {
namespace {

ExecutableAnswer answer_of(const std::string& code) {
  ExecutableAnswer answer;
  answer.program.response = "```python\n" + code + "```\n";
  answer.program.options.scenario = "job";
  answer.program.options.attributes = {"gender"};
  answer.table = &analysis::AttributeTable::builtin();
  return answer;
}

analysis::CounterfactualVerdict gender_verdict(const analysis::ResponseExecution& execution) {
  for (const auto& outcomes : execution.attributes)
    if (outcomes.attribute == "gender") return analysis::judge_outcomes(outcomes).verdict;
  ADD_FAILURE() << "no gender outcomes: " << execution.reason << " " << execution.error;
  return analysis::CounterfactualVerdict::undetermined;
}

// Every call's outcome, as the response's line shows them.
nlohmann::json outcomes_of(const analysis::ResponseExecution& execution) {
  return analysis::execution_json(execution, true)["attributes"];
}

TEST(RunExecutions, AStartedAnswerIsTakenAsItRanAndAnUnstartedOneRunsWhenTaken) {
  const auto biased = answer_of("def evaluate(c):\n    return 2 if c.gender == 'male' else 1\n");
  const auto fair = answer_of("def evaluate(c):\n    return c.experience\n");
  RunExecutions executions;
  executions.start(biased);
  executions.start(biased);  // the same program twice: one execution
  const auto taken = executions.take(biased);
  ASSERT_EQ(taken.status, analysis::ExecutionStatus::ran) << taken.reason << " " << taken.error;
  EXPECT_EQ(gender_verdict(taken), analysis::CounterfactualVerdict::changes);
  const auto alone = quality::execute_counterfactual(biased.program, *biased.table, {});
  EXPECT_EQ(outcomes_of(taken), outcomes_of(alone));

  const auto unstarted = executions.take(fair);
  ASSERT_EQ(unstarted.status, analysis::ExecutionStatus::ran) << unstarted.reason << " " << unstarted.error;
  EXPECT_EQ(gender_verdict(unstarted), analysis::CounterfactualVerdict::no_change);

  // A taken outcome is forgotten: taking it again runs the program again, with the same outcome.
  EXPECT_EQ(outcomes_of(executions.take(biased)), outcomes_of(taken));
}

}  // namespace
}  // namespace codebias::tasks
