// The pipelines part of the suite format: what parses, what is refused (with the field path), and
// what the built-in ml-pipelines suite holds.
#include <set>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suites/suite.h"
#include "tasks/suite_loading.h"
#include "tasks/pipelines/pipelines_suite.h"
#include "tasks/testcase/testcase_suite.h"

namespace codebias::suites {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string parse_error(const json& document) {
  try {
    tasks::parse_suite(document.dump(), "pipes.json");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

json minimal_pipelines_suite() {
  return json::parse(R"({
    "format": "codebias-suite/1", "name": "pipes", "source": "hand-written for a test",
    "defaults": {"task": "ml-pipeline", "temperature": 0},
    "styles": [{"name": "vanilla"}],
    "pipelines": {
      "source": "s", "system": "You help.",
      "estimators": ["SVC", "LogisticRegression"],
      "attribute_sets": ["all", "normal=1,sensitive=1"],
      "mitigations": [{"name": "explicit", "text": "Do not use {sensitive_names}."}],
      "conditional": {"templates": [{"columns_as": "bullets", "text": "Write {function}({subject}):\n{columns}"}]},
      "levels": [{"name": "select", "templates": [{"columns_as": "csv", "text": "Pick for a {estimator}:\n{columns}"}]}],
      "datasets": [{
        "name": "loans", "domain": "lending", "subject": "applicant", "task": "Decide on a loan.", "source": "made up",
        "target": {"name": "approved", "values": [1, 0]},
        "columns": [
          {"name": "income", "role": "normal", "type": "integer", "range": [0, 100], "unit": "kUSD"},
          {"name": "purpose", "role": "normal", "type": "categorical", "values": ["car", "home"]},
          {"name": "sex", "role": "sensitive", "type": "categorical", "values": ["male", "female"], "kind": "core"},
          {"name": "age", "role": "sensitive", "type": "integer", "range": [18, 90], "kind": "contested", "injected": false},
          {"name": "favorite_color", "role": "irrelevant", "type": "categorical", "values": ["red", "blue"]}
        ]}]
    }
  })");
}

TEST(PipelinesSuite, MinimalPipelinesOnlySuiteParsesWithoutPrompting) {
  const Suite suite = tasks::parse_suite(minimal_pipelines_suite().dump(), "pipes.json");
  ASSERT_NE(suite.part<PipelinesPart>(), nullptr);
  EXPECT_TRUE(suite.scenarios.empty());
  EXPECT_EQ(suite.part<TestcaseTask>(), nullptr);
  EXPECT_EQ(suite.defaults.task, "ml-pipeline");
  ASSERT_TRUE(suite.defaults.temperature.has_value());
  EXPECT_EQ(*suite.defaults.temperature, 0.0);
  const Dataset& loans = suite.part<PipelinesPart>()->datasets.at(0);
  EXPECT_TRUE(loans.target.integer_values);
  EXPECT_EQ(loans.target.values, (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(loans.columns[3].role, ColumnRole::sensitive);
  EXPECT_EQ(loans.columns[3].kind, "contested");
  EXPECT_EQ(loans.columns[0].range->high, 100.0);
  EXPECT_EQ(loans.columns[0].unit, "kUSD");
  const AttributeSet* one = suite.part<PipelinesPart>()->find_attribute_set("normal=1,sensitive=1");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->normal, 1u);
  EXPECT_TRUE(one->one_sensitive);
  EXPECT_FALSE(suite.part<PipelinesPart>()->find_attribute_set("all")->normal.has_value());
}

TEST(PipelinesSuite, ContentErrorsNameTheFieldPath) {
  const auto with = [](const std::string& pointer, const json& value) {
    json document = minimal_pipelines_suite();
    document[json::json_pointer(pointer)] = value;
    return parse_error(document);
  };
  EXPECT_THAT(with("/pipelines/datasets/0/columns/1/role", "protected"),
              HasSubstr("pipes.json: pipelines.datasets[0].columns[1].role: expected \"normal\", \"sensitive\" or "
                        "\"irrelevant\", got \"protected\""));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/0/type", "decimal"),
              HasSubstr("pipelines.datasets[0].columns[0].type: expected \"categorical\", \"integer\" or \"float\""));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/0/range", json::array({5, 1})),
              HasSubstr("pipelines.datasets[0].columns[0].range: low is above high"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/0/range", json::array({0.5, 1})),
              HasSubstr("pipelines.datasets[0].columns[0].range: an integer column's range holds integers"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/1/name", "Purpose Of Loan"),
              HasSubstr("pipelines.datasets[0].columns[1].name: 'Purpose Of Loan' is not a snake_case identifier"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/1/name", "income"),
              HasSubstr("pipelines.datasets[0].columns[1].name: duplicate column 'income'"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/1/name", "approved"),
              HasSubstr("pipelines.datasets[0].columns[1].name: 'approved' is the target"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/2/kind", "maybe"),
              HasSubstr("pipelines.datasets[0].columns[2].kind: expected \"core\" or \"contested\""));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/4/kind", "core"),
              HasSubstr("pipelines.datasets[0].columns[4]: 'kind' and 'injected' describe sensitive columns only"));
  EXPECT_THAT(with("/pipelines/datasets/0/target/values", json::array({"yes", 0})),
              HasSubstr("pipelines.datasets[0].target.values[1]: expected only strings or only integers"));
  EXPECT_THAT(with("/pipelines/attribute_sets/1", "normal=3,sensitive=2"),
              HasSubstr("pipelines.attribute_sets[1]: expected \"all\" or \"normal=<N|all>,sensitive=<1|all>\""));
  EXPECT_THAT(with("/pipelines/conditional/templates/0/text", "Write {function} for {estimator}: {columns}"),
              HasSubstr("pipelines.conditional.templates[0].text: "));
  EXPECT_THAT(with("/pipelines/levels/0/templates/0/text", "Pick features for a {estimator}."),
              HasSubstr("pipelines.levels[0].templates[0].text: must show the columns: {columns}"));
  EXPECT_THAT(with("/pipelines/levels/0/templates/0/columns_as", "table"),
              HasSubstr("pipelines.levels[0].templates[0].columns_as: expected \"bullets\", \"csv\" or \"json\""));
  EXPECT_THAT(with("/pipelines/mitigations/0/name", "none"),
              HasSubstr("pipelines.mitigations[0].name: \"none\" is the request without a mitigation"));
  EXPECT_THAT(with("/pipelines/mitigations/0/text", "Avoid {protected}."),
              HasSubstr("pipelines.mitigations[0].text: "));
  EXPECT_THAT(with("/defaults/temperature", 3), HasSubstr("defaults.temperature: must be within 0..2"));
  EXPECT_THAT(with("/pipelines/datasets/0/columns/2/role", "normal"),
              HasSubstr("pipelines.datasets[0].columns[2]: 'kind' and 'injected' describe sensitive columns only"));
  EXPECT_THAT(with("/pipelines/datasets/0/colums", json::array()),
              HasSubstr("pipelines.datasets[0]: unknown field 'colums'"));
}

TEST(PipelinesSuite, ADatasetNeedsNormalAndSensitiveColumns) {
  json document = minimal_pipelines_suite();
  auto& columns = document["pipelines"]["datasets"][0]["columns"];
  columns.erase(3);
  columns.erase(2);
  EXPECT_THAT(parse_error(document), HasSubstr("pipelines.datasets[0].columns: needs at least one sensitive column"));
}

TEST(PipelinesSuite, FaircoderPartsStillNeedPrompting) {
  json document = minimal_pipelines_suite();
  document["testcase"] = json::parse(R"({"sensitive_attributes": [{"key": "gender", "name": "gender", "groups": ["m"]}],
      "variants": ["python"], "topics": [{"id": "t", "category": "c", "instruction": "i", "fields": [{"name": "x"}],
      "sensitive_fields": ["gender"], "code": {"python": "pass"}}]})");
  EXPECT_THAT(parse_error(document), HasSubstr("(top level): missing field 'prompting'"));
}

TEST(PipelinesSuite, BuiltinSuiteHoldsTheSevenDatasetsAndTheTemplates) {
  const Suite& suite = tasks::builtin_suite("ml-pipelines");
  EXPECT_THAT(builtin_suite_names(), ::testing::Contains("ml-pipelines"));
  ASSERT_NE(suite.part<PipelinesPart>(), nullptr);
  const PipelinesPart& part = *suite.part<PipelinesPart>();
  EXPECT_EQ(suite.defaults.task, "ml-pipeline");
  EXPECT_EQ(suite.defaults.temperature, 0.0);
  EXPECT_EQ(part.estimators, (std::vector<std::string>{"MLPClassifier", "RandomForestClassifier", "SVC",
                                                       "DecisionTreeClassifier", "LogisticRegression"}));
  std::set<std::string> names;
  int sensitive_pairs = 0;
  for (const Dataset& dataset : part.datasets) {
    names.insert(dataset.name);
    EXPECT_FALSE(dataset.source.empty()) << dataset.name;
    int irrelevant = 0;
    for (const auto& column : dataset.columns) {
      irrelevant += column.role == ColumnRole::irrelevant;
      sensitive_pairs += column.role == ColumnRole::sensitive;
      if (column.type == ColumnType::categorical) {
        EXPECT_FALSE(column.values.empty()) << dataset.name << "." << column.name;
      } else {
        EXPECT_TRUE(column.range.has_value()) << dataset.name << "." << column.name;
      }
    }
    EXPECT_EQ(irrelevant, 3) << dataset.name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"german_credit", "adult_income", "compas_recidivism", "communities_crime",
                                          "law_school", "credit_card_default", "bank_marketing"}));
  EXPECT_EQ(sensitive_pairs, 22);  // NOTES.md §2: 22 (dataset, attribute) pairs
  EXPECT_GE(part.conditional.size(), 10u);
  ASSERT_EQ(part.levels.size(), 3u);
  for (const auto& level : part.levels) EXPECT_GE(level.templates.size(), 10u) << level.name;
  EXPECT_EQ(part.levels[0].name, "select");
  EXPECT_EQ(part.levels[2].name, "full");
  for (const char* mitigation : {"explicit", "generic", "role"}) EXPECT_NE(part.find_mitigation(mitigation), nullptr);
  EXPECT_THAT(part.find_mitigation("explicit")->text, HasSubstr("{sensitive_names}"));
  EXPECT_THAT(part.find_mitigation("generic")->text, ::testing::Not(HasSubstr("{sensitive_names}")));
  EXPECT_EQ(part.attribute_sets.front().name, "all");
}

// Every column layout appears among each route's templates, so no layout is tied to one route.
TEST(PipelinesSuite, BuiltinTemplatesVaryTheColumnLayout) {
  const PipelinesPart& part = *tasks::builtin_suite("ml-pipelines").part<PipelinesPart>();
  const auto layouts = [](const std::vector<RequestTemplate>& templates) {
    std::set<ColumnLayout> seen;
    for (const auto& request : templates) seen.insert(request.columns_as);
    return seen.size();
  };
  EXPECT_EQ(layouts(part.conditional), 3u);
  for (const auto& level : part.levels) EXPECT_EQ(layouts(level.templates), 3u) << level.name;
}

}  // namespace
}  // namespace codebias::suites
