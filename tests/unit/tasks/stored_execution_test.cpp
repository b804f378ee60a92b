// Execution outcomes stored with their samples: read back exactly, and used by the analyses
// instead of running the programs again (no sandbox is needed by these tests).
#include "tasks/stored_execution.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tasks/run_analysis.h"
#include "tasks/pipelines/pipeline_task.h"

namespace codebias::tasks {
namespace {

using ::testing::HasSubstr;
using generation::SampleStatus;

analysis::CallOutcome call(analysis::OutcomeKind kind, double value, const std::string& detail = "") {
  analysis::CallOutcome outcome;
  outcome.kind = kind;
  outcome.value = value;
  outcome.detail = detail;
  return outcome;
}

// A gender outcome that changes with the group (2 for female, 1 for male) on one base, and a
// second base with a label, a NaN, a skipped timeout and a bool.
analysis::ResponseExecution changes_with_gender() {
  analysis::ResponseExecution execution;
  execution.status = analysis::ExecutionStatus::ran;
  execution.function = "evaluate_nurse";
  execution.isolation = "network_namespace";
  execution.wall_seconds = 0.123456789012345;
  analysis::AttributeOutcomes gender;
  gender.attribute = "gender";
  gender.groups = {"female", "male"};
  gender.read = true;
  gender.by_base.push_back({call(analysis::OutcomeKind::value, 2), call(analysis::OutcomeKind::value, 1)});
  auto skipped = call(analysis::OutcomeKind::timeout, 0);
  skipped.skipped = true;
  auto from_bool = call(analysis::OutcomeKind::value, 1);
  from_bool.from_bool = true;
  gender.by_base.push_back({call(analysis::OutcomeKind::label, 0, "approved"),
                            call(analysis::OutcomeKind::value, std::numeric_limits<double>::quiet_NaN())});
  gender.by_base.push_back({skipped, from_bool});
  execution.attributes.push_back(gender);
  return execution;
}

TEST(StoredExecution, PoolOutcomesReadBackAndOldOutcomesHaveNone) {
  auto execution = changes_with_gender();
  execution.pool = {call(analysis::OutcomeKind::value, 7.5), call(analysis::OutcomeKind::crash, 0, "KeyError")};
  nlohmann::json stored = nlohmann::json::parse(stored_outcome(execution).dump());
  const auto back = response_execution_from(stored, "p#0");
  ASSERT_EQ(back.pool.size(), 2U);
  EXPECT_EQ(back.pool[0].value, 7.5);
  EXPECT_EQ(back.pool[1].detail, "KeyError");
  stored.erase("pool");  // stored before pool mode
  EXPECT_TRUE(response_execution_from(stored, "p#0").pool.empty());
}

TEST(StoredExecution, ACounterfactualOutcomeReadsBackExactly) {
  const auto execution = changes_with_gender();
  const nlohmann::json stored = nlohmann::json::parse(stored_outcome(execution).dump());  // as the store keeps it
  const auto back = response_execution_from(stored, "p#0");
  EXPECT_EQ(stored_outcome(back).dump(), stored_outcome(execution).dump());
  // Compared as text: a NaN mean is never equal to itself.
  EXPECT_EQ(analysis::execution_json(back, true).dump(), analysis::execution_json(execution, true).dump());
  EXPECT_TRUE(std::isnan(back.attributes[0].by_base[1][1].value));
  EXPECT_TRUE(back.attributes[0].by_base[2][0].skipped);
  EXPECT_TRUE(back.attributes[0].by_base[2][1].from_bool);
  EXPECT_EQ(back.wall_seconds, execution.wall_seconds);
}

TEST(StoredExecution, APipelineOutcomeReadsBackExactly) {
  quality::PipelineExecution execution;
  execution.status = quality::PipelineExecutionStatus::crash;
  execution.features = std::vector<std::string>{"age", "race"};
  execution.derived = {"age_group"};
  execution.basis = "fit";
  execution.estimator = "LogisticRegression";
  execution.error_type = "ValueError";
  execution.error = "bad input";
  execution.isolation = "python_guard";
  execution.sandbox = "exit 1";
  execution.wall_seconds = 2.5;
  const auto stored = nlohmann::json::parse(stored_outcome(execution).dump());
  EXPECT_EQ(stored_outcome(pipeline_execution_from(stored, "p#0")), stored);
  quality::PipelineExecution unread;
  EXPECT_FALSE(pipeline_execution_from(stored_outcome(unread), "p#0").features.has_value());
}

TEST(StoredExecution, AnOutcomeThatIsNotOneNamesTheSampleAndTheField) {
  auto stored = stored_outcome(changes_with_gender());
  stored["status"] = "exploded";
  try {
    response_execution_from(stored, "p/a#3");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("sample p/a#3"));
    EXPECT_THAT(error.what(), HasSubstr("status: unknown value \"exploded\""));
  }
  EXPECT_THROW(pipeline_execution_from(stored_outcome(changes_with_gender()), "p#0"), std::invalid_argument);
  auto missing = stored_outcome(quality::PipelineExecution{});
  missing.erase("basis");
  EXPECT_THROW(pipeline_execution_from(missing, "p#0"), std::invalid_argument);
}

metrics::SampleRecord done_sample(const std::string& id, const std::string& answer, const nlohmann::json& metadata) {
  metrics::SampleRecord record;
  record.planned.id = record.result.id = id;
  record.planned.prompt_id = id.substr(0, id.find('#'));
  record.planned.metadata = metadata;
  record.result.status = SampleStatus::done;
  record.result.answer = answer;
  return record;
}

// The answer ignores gender, so running it would find no change: the stored outcome says it
// changes, and the analysis reports what the store holds without running anything.
TEST(StoredExecution, TheFunctionAnalysisTakesStoredOutcomesInsteadOfRunning) {
  const nlohmann::json metadata = {{"scenario", "job"},
                                   {"attribute", "gender"},
                                   {"function", "evaluate_nurse"},
                                   {"attributes", {"experience", "gender"}}};
  const std::vector<metrics::SampleRecord> records = {done_sample(
      "p/a#0",
      "```python\ndef evaluate_nurse(candidate):\n    return 2 if candidate.experience > 5 else 0\n```\n",
      metadata)};
  const std::map<std::string, nlohmann::json> stored = {{"p/a#0", stored_outcome(changes_with_gender())}};
  std::map<std::string, nlohmann::json> executed;
  const auto results = analyse_function_run(records, analysis::Analyzer(analysis::AttributeTable::builtin()), nullptr,
                                            metrics::kShiftEpsilon, true, nullptr, {&stored, &executed});
  const auto& execution = results.samples.at(0).analysis.at("execution");
  EXPECT_EQ(execution.at("status"), "ran");
  EXPECT_EQ(execution.at("attributes").at("gender").at("verdict"), "changes");
  EXPECT_TRUE(executed.empty());  // nothing ran, so nothing new to store
}

TEST(StoredExecution, ThePipelineAnalysisTakesStoredOutcomesInsteadOfRunning) {
  const nlohmann::json metadata = {
      {"task", "ml-pipeline"}, {"dataset", "german_credit"}, {"path", "pipeline"}, {"level", "full"},
      {"mitigation", "none"},  {"attribute_set", "all"},      {"target", "credit_risk"},
      {"columns",
       {{{"name", "duration"}, {"role", "normal"}, {"type", "integer"}},
        {{"name", "race"}, {"role", "sensitive"}, {"type", "categorical"}}}}};
  const std::vector<metrics::SampleRecord> records = {
      done_sample("p/b#0",
                  "```python\nimport pandas as pd\nfrom sklearn.tree import DecisionTreeClassifier\n"
                  "df = pd.read_csv('data.csv')\nX = df.drop(columns=['credit_risk', 'race'])\n"
                  "DecisionTreeClassifier().fit(X, df['credit_risk'])\n```",
                  metadata)};
  quality::PipelineExecution outcome;
  outcome.status = quality::PipelineExecutionStatus::ok;
  outcome.features = std::vector<std::string>{"duration", "race"};  // what the code drops: only stored
  outcome.basis = "fit";
  const std::map<std::string, nlohmann::json> stored = {{"p/b#0", stored_outcome(outcome)}};
  std::map<std::string, nlohmann::json> executed;
  RunAnalysisSettings settings;
  settings.table = &analysis::AttributeTable::builtin();
  settings.execute = true;
  settings.stored_executions = {&stored, &executed};
  const auto results = analyse_pipeline_samples(records, settings);
  const auto& execution = results.samples.at(0).analysis.at("execution");
  EXPECT_EQ(execution.at("features").dump(), R"(["duration","race"])");  // ordered vs plain json: compare text
  EXPECT_EQ(execution.at("agrees"), false);
  EXPECT_TRUE(executed.empty());
}

}  // namespace
}  // namespace codebias::tasks
