// The ml-pipeline prompt builder over the built-in ml-pipelines suite: slice, ids, determinism,
// column order, estimator draw, metadata, variants, mitigations and attribute sets.
#include "tasks/pipelines/pipeline_prompts.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "tasks/suite_loading.h"
#include "tasks/pipelines/pipelines_suite.h"
#include "tasks/testcase/testcase_prompts.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

const suites::Suite& suite() { return tasks::builtin_suite("ml-pipelines"); }

std::vector<Prompt> build(const PromptOptions& options = {}) { return build_pipeline_prompts(suite(), options); }

std::vector<std::string> column_names(const Prompt& prompt) {
  std::vector<std::string> names;
  for (const auto& column : prompt.metadata["columns"]) names.push_back(column["name"].get<std::string>());
  return names;
}

std::vector<std::string> names_with_role(const Prompt& prompt, const std::string& role) {
  std::vector<std::string> names;
  for (const auto& column : prompt.metadata["columns"]) {
    if (column["role"] == role) names.push_back(column["name"].get<std::string>());
  }
  return names;
}

const Prompt& by_id(const std::vector<Prompt>& prompts, const std::string& id) {
  const auto it = std::find_if(prompts.begin(), prompts.end(), [&](const Prompt& p) { return p.id == id; });
  if (it == prompts.end()) throw std::runtime_error("no prompt " + id);
  return *it;
}

std::string message_of(const std::invalid_argument& error) { return error.what(); }

std::string build_error(const PromptOptions& options, const suites::Suite& on = suite()) {
  try {
    build_pipeline_prompts(on, options);
  } catch (const std::invalid_argument& error) {
    return message_of(error);
  }
  return "";
}

TEST(PipelinePrompts, DefaultSliceIsEveryDatasetRouteAndTenVariants) {
  const auto prompts = build();
  ASSERT_EQ(prompts.size(), 7u * (1 + 3) * 10);
  std::set<std::string> ids;
  std::map<std::string, std::set<int>> variants_per_route;
  for (const auto& prompt : prompts) {
    ids.insert(prompt.id);
    const auto& m = prompt.metadata;
    EXPECT_EQ(m["attribute_set"], "all");
    EXPECT_EQ(m["mitigation"], "none");
    const std::string route = m["path"].get<std::string>() + "/" + (m["level"].is_null() ? "-" : m["level"].get<std::string>());
    variants_per_route[m["dataset"].get<std::string>() + "/" + route].insert(m["variant"].get<int>());
  }
  EXPECT_EQ(ids.size(), prompts.size()) << "ids must be unique";
  EXPECT_EQ(variants_per_route.size(), 28u);
  for (const auto& [route, variants] : variants_per_route) EXPECT_EQ(variants.size(), 10u) << route;
  EXPECT_EQ(prompts.front().id, "ml-pipelines/german_credit/conditional/-/all/none/v0/0");
  EXPECT_NO_THROW(by_id(prompts, "ml-pipelines/bank_marketing/pipeline/full/all/none/v9/0"));
}

TEST(PipelinePrompts, MetadataHasExactlyTheContractKeys) {
  const auto prompts = build();
  const std::set<std::string> expected = {"suite",   "task",          "style",      "sample",  "seed",
                                          "dataset", "path",          "level",      "estimator", "variant",
                                          "attribute_set", "mitigation", "target", "target_values", "columns",
                                          "function"};
  const Prompt& conditional = by_id(prompts, "ml-pipelines/compas_recidivism/conditional/-/all/none/v3/0");
  const Prompt& pipeline = by_id(prompts, "ml-pipelines/compas_recidivism/pipeline/train/all/none/v3/0");
  for (const Prompt* prompt : {&conditional, &pipeline}) {
    std::set<std::string> keys;
    for (const auto& item : prompt->metadata.items()) keys.insert(item.key());
    EXPECT_EQ(keys, expected) << prompt->id;
    EXPECT_EQ(prompt->metadata["task"], "ml-pipeline");
    EXPECT_EQ(prompt->metadata["target"], "two_year_recid");
    EXPECT_EQ(prompt->metadata["target_values"], json::array({1, 0}));
    for (const auto& column : prompt->metadata["columns"]) {
      // name, role, type, and the value domain: values (categorical) or a range (numeric, when known).
      EXPECT_GE(column.size(), 3u);
      EXPECT_LE(column.size(), 4u);
      if (column["type"] == "categorical") {
        EXPECT_TRUE(column.contains("values")) << column.dump();
      }
      EXPECT_THAT((std::vector<std::string>{"normal", "sensitive", "irrelevant"}), ::testing::Contains(column["role"]));
      EXPECT_THAT((std::vector<std::string>{"categorical", "integer", "float"}), ::testing::Contains(column["type"]));
      EXPECT_NE(column["name"], "two_year_recid");
    }
  }
  EXPECT_EQ(conditional.metadata["function"], "decide_two_year_recid");
  EXPECT_TRUE(conditional.metadata["level"].is_null());
  EXPECT_TRUE(conditional.metadata["estimator"].is_null());
  EXPECT_EQ(pipeline.metadata["level"], "train");
  EXPECT_TRUE(pipeline.metadata["function"].is_null());
  EXPECT_THAT(conditional.messages.back().content, HasSubstr("decide_two_year_recid"));
  EXPECT_THAT(conditional.messages.back().content, HasSubstr("if/elif/else"));
  EXPECT_THAT(pipeline.messages.back().content, HasSubstr(pipeline.metadata["estimator"].get<std::string>()));
  EXPECT_EQ(pipeline.messages.front().role, "system");
}

TEST(PipelinePrompts, SameSeedSameBytesOtherSeedOtherOrder) {
  PromptOptions options;
  options.seed = 7;
  const auto first = build(options);
  const auto second = build(options);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(prompt_json_line(first[i]), prompt_json_line(second[i]));
  options.seed = 8;
  const auto other = build(options);
  int reordered = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].id, other[i].id);
    reordered += column_names(first[i]) != column_names(other[i]);
  }
  EXPECT_GT(reordered, static_cast<int>(first.size()) * 9 / 10);
}

TEST(PipelinePrompts, APromptDoesNotChangeWhenOthersAreFilteredOut) {
  const auto all = build();
  PromptOptions only;
  only.scenarios = {"law_school"};
  only.paths = {"pipeline"};
  only.levels = {"full"};
  const auto some = build(only);
  ASSERT_EQ(some.size(), 10u);
  for (const auto& prompt : some) EXPECT_EQ(prompt_json_line(prompt), prompt_json_line(by_id(all, prompt.id)));
}

TEST(PipelinePrompts, ColumnsAreCompleteShuffledAndMixed) {
  const auto prompts = build();
  const auto& datasets = suite().part<suites::PipelinesPart>()->datasets;
  int in_suite_order = 0;
  int sensitive_last = 0;
  int sensitive_first = 0;
  std::set<std::size_t> sensitive_positions;
  for (const auto& prompt : prompts) {
    const auto& dataset = *suite().part<suites::PipelinesPart>()->find_dataset(prompt.metadata["dataset"].get<std::string>());
    std::vector<std::string> suite_order;
    for (const auto& column : dataset.columns) suite_order.push_back(column.name);
    auto shown = column_names(prompt);
    in_suite_order += shown == suite_order;
    for (const auto& name : shown) EXPECT_THAT(prompt.messages.back().content, HasSubstr(name)) << prompt.id;
    const std::string last_role = prompt.metadata["columns"].back()["role"];
    sensitive_last += last_role == "sensitive";
    sensitive_first += prompt.metadata["columns"].front()["role"] == "sensitive";
    for (std::size_t i = 0; i < shown.size(); ++i) {
      if (prompt.metadata["columns"][i]["role"] == "sensitive") sensitive_positions.insert(i);
    }
    std::sort(shown.begin(), shown.end());
    std::sort(suite_order.begin(), suite_order.end());
    EXPECT_EQ(shown, suite_order) << prompt.id << ": every column, each once";
  }
  EXPECT_EQ(datasets.size(), 7u);
  EXPECT_EQ(in_suite_order, 0);
  EXPECT_GT(sensitive_first, 0);
  EXPECT_LT(sensitive_last, static_cast<int>(prompts.size()) / 2) << "sensitive columns are not appended at the end";
  EXPECT_GT(sensitive_positions.size(), 10u);
}

// Routes, levels and mitigations of one variant show the same columns in the same order and
// (for the pipeline levels) ask for the same estimator: comparisons between them are paired.
TEST(PipelinePrompts, AVariantSharesItsColumnOrderAndEstimator) {
  PromptOptions options;
  options.mitigations = {"none", "generic"};
  const auto prompts = build(options);
  const Prompt& conditional = by_id(prompts, "ml-pipelines/adult_income/conditional/-/all/none/v4/0");
  const Prompt& select = by_id(prompts, "ml-pipelines/adult_income/pipeline/select/all/none/v4/0");
  const Prompt& full = by_id(prompts, "ml-pipelines/adult_income/pipeline/full/all/generic/v4/0");
  EXPECT_EQ(column_names(conditional), column_names(select));
  EXPECT_EQ(column_names(select), column_names(full));
  EXPECT_EQ(select.metadata["estimator"], full.metadata["estimator"]);
  const Prompt& next = by_id(prompts, "ml-pipelines/adult_income/pipeline/select/all/none/v5/0");
  EXPECT_NE(column_names(select), column_names(next));
}

TEST(PipelinePrompts, EstimatorIsDrawnUniformly) {
  PromptOptions options;
  options.paths = {"pipeline"};
  options.levels = {"select"};
  options.samples = 30;
  const auto prompts = build(options);
  ASSERT_EQ(prompts.size(), 7u * 10 * 30);
  std::map<std::string, int> counts;
  for (const auto& prompt : prompts) ++counts[prompt.metadata["estimator"].get<std::string>()];
  ASSERT_EQ(counts.size(), 5u);
  for (const auto& [estimator, count] : counts) {
    // 2100 draws, 420 expected each; 4 standard deviations is about +-73.
    EXPECT_GT(count, 340) << estimator;
    EXPECT_LT(count, 500) << estimator;
  }
}

TEST(PipelinePrompts, EveryRouteOffersAtLeastTenVariantsAndRefusesMoreThanItHas) {
  PromptOptions options;
  options.scenarios = {"german_credit"};
  options.variants = static_cast<int>(suite().part<suites::PipelinesPart>()->conditional.size());
  options.paths = {"conditional"};
  const auto conditional = build(options);
  EXPECT_GE(conditional.size(), 10u);
  std::set<std::string> texts;
  for (const auto& prompt : conditional) texts.insert(prompt.messages.back().content);
  EXPECT_EQ(texts.size(), conditional.size()) << "each variant is its own paraphrase";

  options.variants = *options.variants + 1;
  EXPECT_THAT(build_error(options), HasSubstr("exceeds the 12 templates of conditional"));
  options.variants = 0;
  EXPECT_THAT(build_error(options), HasSubstr("variants must be at least 1"));
}

TEST(PipelinePrompts, CsvLayoutPutsTheTargetLastWithThreeSampleRows) {
  PromptOptions options;
  options.scenarios = {"german_credit"};
  const auto prompts = build(options);
  const Prompt& csv = by_id(prompts, "ml-pipelines/german_credit/pipeline/select/all/none/v1/0");  // a csv template
  const std::string& text = csv.messages.back().content;
  const auto start = text.find("```csv\n");
  ASSERT_NE(start, std::string::npos) << text;
  const auto end = text.find("```", start + 7);
  const std::string block = text.substr(start + 7, end - start - 7);
  const auto header = block.substr(0, block.find('\n'));
  std::vector<std::string> names = column_names(csv);
  names.push_back("credit_risk");
  EXPECT_EQ(header, base::join(names, ","));
  EXPECT_EQ(std::count(block.begin(), block.end(), '\n'), 4);
}

TEST(PipelinePrompts, MitigationsAppendTheirTextAndExplicitNamesTheOfferedSensitiveColumns) {
  PromptOptions options;
  options.scenarios = {"compas_recidivism"};
  options.paths = {"pipeline"};
  options.levels = {"select"};
  options.mitigations = {"role", "explicit", "none", "generic"};
  options.variants = 1;
  const auto prompts = build(options);
  ASSERT_EQ(prompts.size(), 4u);
  EXPECT_EQ(prompts[0].metadata["mitigation"], "none");  // suite order, whatever the option order
  const std::string plain = prompts[0].messages.back().content;
  const auto text = [&](const std::string& mitigation) {
    return by_id(prompts, "ml-pipelines/compas_recidivism/pipeline/select/all/" + mitigation + "/v0/0").messages.back().content;
  };
  EXPECT_THAT(text("explicit"), HasSubstr("`race`"));
  EXPECT_THAT(text("explicit"), HasSubstr("`sex`"));
  EXPECT_THAT(text("explicit"), HasSubstr("`age`"));
  EXPECT_THAT(text("explicit"), HasSubstr("protected characteristics"));
  EXPECT_THAT(text("generic"), HasSubstr("fair"));
  EXPECT_THAT(text("role"), HasSubstr("responsible machine-learning engineer"));
  EXPECT_THAT(text("role"), HasSubstr("unlawful"));
  for (const char* mitigation : {"explicit", "generic", "role"}) {
    EXPECT_TRUE(text(mitigation).starts_with(plain + "\n\n")) << mitigation << ": appended to the request";
  }
  EXPECT_THAT(text("generic").substr(plain.size()), Not(HasSubstr("race")));
  EXPECT_THAT(plain, Not(HasSubstr("protected")));
}

TEST(PipelinePrompts, OneSensitiveSetsKeepTheSensitiveColumnsIdentity) {
  PromptOptions options;
  options.scenarios = {"german_credit"};
  options.paths = {"pipeline"};
  options.levels = {"select"};
  options.attribute_sets = {"normal=3,sensitive=1", "normal=6,sensitive=all"};
  options.variants = 2;
  const auto prompts = build(options);
  // 2 variants x (4 one-sensitive prompts + 1 all-sensitive prompt).
  ASSERT_EQ(prompts.size(), 10u);
  std::map<int, std::set<std::vector<std::string>>> normal_sets_per_variant;
  std::set<std::string> sensitive_seen;
  for (const auto& prompt : prompts) {
    const auto normal = names_with_role(prompt, "normal");
    const auto sensitive = names_with_role(prompt, "sensitive");
    EXPECT_EQ(names_with_role(prompt, "irrelevant").size(), 3u);
    if (prompt.metadata["attribute_set"] == "normal=3,sensitive=1") {
      ASSERT_EQ(sensitive.size(), 1u);
      EXPECT_THAT(prompt.id, HasSubstr("/normal=3,sensitive=1:" + sensitive[0] + "/"));
      EXPECT_EQ(normal.size(), 3u);
      sensitive_seen.insert(sensitive[0]);
      auto sorted = normal;
      std::sort(sorted.begin(), sorted.end());
      normal_sets_per_variant[prompt.metadata["variant"].get<int>()].insert(sorted);
    } else {
      EXPECT_EQ(prompt.metadata["attribute_set"], "normal=6,sensitive=all");
      EXPECT_EQ(normal.size(), 6u);
      EXPECT_EQ(sensitive.size(), 4u);
    }
  }
  EXPECT_EQ(sensitive_seen, (std::set<std::string>{"sex", "foreign_worker", "race", "age"}));
  for (const auto& [variant, sets] : normal_sets_per_variant) {
    EXPECT_EQ(sets.size(), 1u) << "variant " << variant << ": the same normal columns for every sensitive column";
  }
  EXPECT_NE(*normal_sets_per_variant[0].begin(), *normal_sets_per_variant[1].begin());

  options.attributes = {"race"};
  const auto race = build(options);
  EXPECT_EQ(race.size(), 4u);  // the race prompt and the all-sensitive one, per variant
}

TEST(PipelinePrompts, BadOptionsAreRefusedWithTheirName) {
  PromptOptions options;
  options.scenarios = {"titanic"};
  EXPECT_THAT(build_error(options), HasSubstr("dataset 'titanic' is not one of: german_credit, adult_income"));
  options = {};
  options.paths = {"lookup"};
  EXPECT_THAT(build_error(options), HasSubstr("path 'lookup' is not one of: conditional, pipeline"));
  options = {};
  options.levels = {"tune"};
  EXPECT_THAT(build_error(options), HasSubstr("level 'tune' is not one of: select, train, full"));
  options = {};
  options.paths = {"conditional"};
  options.levels = {"select"};
  EXPECT_THAT(build_error(options), HasSubstr("levels apply to the pipeline path"));
  options = {};
  options.mitigations = {"polite"};
  EXPECT_THAT(build_error(options), HasSubstr("mitigation 'polite' is not one of: none, explicit, generic, role"));
  options = {};
  options.attribute_sets = {"normal=2,sensitive=1"};
  EXPECT_THAT(build_error(options), HasSubstr("attribute set 'normal=2,sensitive=1' is not one of: all, "));
  options = {};
  options.attributes = {"race"};
  EXPECT_THAT(build_error(options), HasSubstr("none is selected"));
  options.attribute_sets = {"normal=3,sensitive=1"};
  options.attributes = {"religion"};
  EXPECT_THAT(build_error(options), HasSubstr("attribute 'religion' is not one of: sex, foreign_worker, race, age"));
  options = {};
  options.position = "front";
  EXPECT_THAT(build_error(options), HasSubstr("position applies to the function and testcase tasks"));
  options = {};
  options.requests = {"group"};
  EXPECT_THAT(build_error(options), HasSubstr("requests apply to the testcase task only"));
  EXPECT_THAT(build_error({}, tasks::builtin_suite("faircoder")), HasSubstr("suite 'faircoder' has no pipelines part"));
}

TEST(PipelinePrompts, FaircoderBuildersRefuseThePipelineOptions) {
  PromptOptions options;
  options.mitigations = {"explicit"};
  EXPECT_THROW(build_function_prompts(tasks::builtin_suite("faircoder"), options), std::invalid_argument);
  EXPECT_THROW(build_testcase_prompts(tasks::builtin_suite("faircoder"), options), std::invalid_argument);
  EXPECT_THROW(build_function_prompts(suite(), {}), std::invalid_argument);  // no function part
}

}  // namespace
}  // namespace codebias::prompts
