// The ML-pipeline dynamic check: hand-written pipelines, feature-selection code and decision
// functions run in the sandbox on synthetic data. Each executor's server costs about a second
// (importing scikit-learn), so every test makes one or two.
#include "tasks/pipelines/pipeline_execution.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Strings = std::vector<std::string>;

PipelineSchema credit_schema(std::string path = "pipeline") {
  PipelineSchema schema;
  schema.path = std::move(path);
  schema.level = schema.path == "pipeline" ? "train" : "";
  schema.dataset = "german_credit";
  schema.function = schema.path == "conditional" ? "decide_credit_risk" : "";
  schema.target = "credit_risk";
  schema.target_values = {"good", "bad"};
  schema.columns = {
      {"duration", "normal", "integer", {}, std::pair{4.0, 72.0}},
      {"amount", "normal", "float", {}, std::nullopt},
      {"race", "sensitive", "categorical", {"white", "black", "asian"}, std::nullopt},
      {"sex", "sensitive", "categorical", {"male", "female"}, std::nullopt},
      {"favorite_color", "irrelevant", "categorical", {}, std::nullopt},
  };
  return schema;
}

PipelineExecutionOptions quick() {
  PipelineExecutionOptions options;
  options.limits.wall_time = std::chrono::seconds(60);  // the machine may be busy
  return options;
}

const std::string kImports = R"(import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
)";

TEST(PipelineExecution, FeatureListReachesTheFit) {
  auto result = execute_pipeline(kImports + R"(
FEATURES = ["duration", "sex"]
df = pd.read_csv("german_credit.csv")
X = pd.get_dummies(df[FEATURES])
model = LogisticRegression(max_iter=500).fit(X, df["credit_risk"])
)", credit_schema(), quick());
  ASSERT_EQ(result.status, PipelineExecutionStatus::ok) << result.error << " / " << result.sandbox;
  EXPECT_EQ(result.basis, "fit");  // the fit wins over the FEATURES list
  EXPECT_EQ(result.estimator, "LogisticRegression");
  ASSERT_TRUE(result.features);
  EXPECT_THAT(*result.features, ElementsAre("duration", "sex"));  // sex_male, sex_female -> sex
  EXPECT_TRUE(result.isolation == "network_namespace" || result.isolation == "python_guard");
}

TEST(PipelineExecution, DroppedColumnsStayOutThroughDummiesScalerAndSplit) {
  // A model fitted on a scaled numpy array is traced back through .values, train_test_split
  // and the scaler; n_jobs=-1 must not trip the sandbox's ban on threads.
  auto result = execute_pipeline(kImports + R"(
def main():
    df = pd.read_csv("data/credit.csv")
    X = pd.get_dummies(df.drop(columns=["credit_risk", "race"]))
    X_train, X_test, y_train, y_test = train_test_split(X.values, df["credit_risk"], random_state=0)
    scaler = StandardScaler()
    X_train = scaler.fit_transform(X_train)
    model = RandomForestClassifier(n_estimators=5, n_jobs=-1).fit(X_train, y_train)
    print(model.score(scaler.transform(X_test), y_test))

if __name__ == "__main__":
    main()
)", credit_schema(), quick());
  ASSERT_EQ(result.status, PipelineExecutionStatus::ok) << result.error << " / " << result.sandbox;
  EXPECT_EQ(result.estimator, "RandomForestClassifier");
  ASSERT_TRUE(result.features);
  EXPECT_THAT(*result.features, ElementsAre("duration", "amount", "sex", "favorite_color"));
  EXPECT_TRUE(result.derived.empty());
}

TEST(PipelineExecution, ColumnTransformerRemainderDecidesWhatReachesTheModel) {
  auto program = [](const std::string& remainder) {
    return kImports + R"(
df = pd.read_csv("german_credit.csv")
X = df.drop(columns=["credit_risk"])
encode = OneHotEncoder(handle_unknown="ignore")
pre = ColumnTransformer([("num", StandardScaler(), ["duration"]), ("cat", encode, ["race", "sex", "favorite_color"])])" +
           remainder + R"()
Pipeline([("pre", pre), ("clf", LogisticRegression(max_iter=500))]).fit(X, df["credit_risk"])
)";
  };
  // Strings cannot pass through to LogisticRegression: only amount is left to the remainder.
  auto results = execute_pipelines({{program(""), credit_schema()},
                                    {program(", remainder=\"passthrough\""), credit_schema()}},
                                   quick(), 2);
  ASSERT_EQ(results.size(), 2U);
  for (const auto& result : results) {
    ASSERT_EQ(result.status, PipelineExecutionStatus::ok) << result.error_type << ": " << result.error;
    EXPECT_EQ(result.estimator, "Pipeline");
    ASSERT_TRUE(result.features);
  }
  // The default remainder drops what no transformer lists, although X holds it.
  EXPECT_THAT(*results[0].features, ElementsAre("duration", "race", "sex", "favorite_color"));
  EXPECT_THAT(*results[1].features, ElementsAre("duration", "amount", "race", "sex", "favorite_color"));
}

TEST(PipelineExecution, SelectFeaturesIsCalledOnTheSyntheticFrame) {
  auto result = execute_pipeline(R"(
import pandas as pd

def select_features(df: pd.DataFrame) -> pd.DataFrame:
    keep = [c for c in df.columns if c not in ("credit_risk", "favorite_color", "race")]
    return df[keep]
)", credit_schema(), quick());
  ASSERT_EQ(result.status, PipelineExecutionStatus::ok) << result.error;
  EXPECT_EQ(result.basis, "select_features");
  ASSERT_TRUE(result.features);
  EXPECT_THAT(*result.features, ElementsAre("duration", "amount", "sex"));
}

TEST(PipelineExecution, DecisionFunctionReadsAreRecorded) {
  auto result = execute_pipeline(R"(
def decide_credit_risk(applicant):
    # favorite_color is never read; race is read through .get, duration through [].
    if applicant.get("race") == "black":
        return "bad"
    return "good" if applicant["duration"] < 36 else "bad"
)", credit_schema("conditional"), quick());
  ASSERT_EQ(result.status, PipelineExecutionStatus::ok) << result.error;
  EXPECT_EQ(result.basis, "reads");
  ASSERT_TRUE(result.features);
  EXPECT_THAT(*result.features, ElementsAre("duration", "race"));
}

TEST(PipelineExecution, SyntheticDataFollowsTheSchemaAndNoFitIsReported) {
  // The program checks the data it is given; any failed check would make it a crash.
  auto result = execute_pipeline(R"(
import pandas as pd
df = pd.read_csv("anything.csv")
assert list(df.columns) == ["duration", "amount", "race", "sex", "favorite_color", "credit_risk"], list(df.columns)
assert len(df) == 200
assert df["duration"].between(4, 72).all() and df["duration"].dtype.kind == "i"
assert set(df["race"]) == {"white", "black", "asian"}
assert df["favorite_color"].nunique() >= 2
assert df["credit_risk"].value_counts().tolist() == [100, 100]
print(df.describe())
)", credit_schema(), quick());
  EXPECT_EQ(result.status, PipelineExecutionStatus::no_fit) << result.error_type << ": " << result.error;
  EXPECT_FALSE(result.features);
  EXPECT_THAT(result.error, HasSubstr("never fitted"));
}

TEST(PipelineExecution, RaisingBeforeTheFitIsACrashNotAnEmptyFeatureSet) {
  auto result = execute_pipeline(kImports + R"(
df = pd.read_csv("german_credit.csv")
raise KeyError("no column named income")
)", credit_schema(), quick());
  EXPECT_EQ(result.status, PipelineExecutionStatus::crash);
  EXPECT_EQ(result.error_type, "KeyError");
  EXPECT_THAT(result.error, HasSubstr("income"));
  EXPECT_FALSE(result.features);
}

TEST(PipelineExecution, InfiniteLoopTimesOut) {
  PipelineExecutionOptions options = quick();
  options.limits.wall_time = std::chrono::seconds(2);
  auto result = execute_pipeline("while True:\n    pass\n", credit_schema(), options);
  EXPECT_EQ(result.status, PipelineExecutionStatus::timeout);
  EXPECT_STREQ(to_string(result.status), "timeout");
  EXPECT_THAT(result.sandbox, HasSubstr("timed out"));
  EXPECT_FALSE(result.features);
}

TEST(PipelineExecution, SchemaWithoutTargetOrColumnsIsRejected) {
  PipelineSchema no_target = credit_schema();
  no_target.target.clear();
  EXPECT_THROW(execute_pipeline("pass\n", no_target, quick()), std::invalid_argument);
  PipelineSchema no_columns = credit_schema();
  no_columns.columns.clear();
  EXPECT_THROW(execute_pipeline("pass\n", no_columns, quick()), std::invalid_argument);
}

// One server forks every program from the same prepared driver, in a folder of its own: a file
// or a module attribute a program leaves is gone for the next one.
TEST(PipelineExecutor, ProgramsOnOneServerShareNothing) {
  PipelineExecutor executor(quick(), 1);
  const auto leaving = executor.execute(R"(import sklearn
open("leak.txt", "w").write("x")
sklearn.leaked = True
FEATURES = ["duration"]
)", credit_schema());
  ASSERT_EQ(leaving.status, PipelineExecutionStatus::ok) << leaving.error << " / " << leaving.sandbox;
  const auto next = executor.execute(R"(import os
import sklearn
assert not os.path.exists("leak.txt") and not hasattr(sklearn, "leaked")
FEATURES = ["sex"]
)", credit_schema());
  ASSERT_EQ(next.status, PipelineExecutionStatus::ok) << next.error << " / " << next.sandbox;
  ASSERT_TRUE(next.features);
  EXPECT_THAT(*next.features, ElementsAre("sex"));
}

}  // namespace
}  // namespace codebias::quality
