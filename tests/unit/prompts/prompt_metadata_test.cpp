// PromptMetadata: one reader and one writer of the metadata every prompt carries, which leave the
// stored JSON byte-identical.
#include "prompts/prompt_metadata.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tasks/decision/decision_prompts.h"
#include "tasks/pipelines/pipeline_prompts.h"
#include "prompts/prompt_builder.h"
#include "tasks/screening/screening_prompts.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"
#include "tasks/testcase/testcase_prompts.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;

std::vector<Prompt> every_builtin_prompt() {
  PromptOptions options;
  std::vector<Prompt> all;
  const auto add = [&](std::vector<Prompt> prompts) { all.insert(all.end(), prompts.begin(), prompts.end()); };
  add(build_function_prompts(tasks::builtin_suite("faircoder"), options));
  add(build_testcase_prompts(tasks::builtin_suite("faircoder"), options));
  add(build_pipeline_prompts(tasks::builtin_suite("ml-pipelines"), options));
  add(build_resume_prompts(tasks::builtin_suite("bad-resume"), options));
  add(build_cat_prompts(tasks::builtin_suite("bad-cat"), options));
  add(build_decision_prompts(tasks::builtin_suite("solar"), options));
  add(build_decision_prompts(tasks::builtin_suite("huang"), options));
  return all;
}

TEST(PromptMetadata, EveryBuiltinPromptsMetadataSurvivesTheRoundTripByteForByte) {
  const auto prompts = every_builtin_prompt();
  ASSERT_GT(prompts.size(), 100u);
  for (const Prompt& prompt : prompts)
    ASSERT_EQ(PromptMetadata::from_json(prompt.metadata).to_json().dump(), prompt.metadata.dump()) << prompt.id;
}

TEST(PromptMetadata, KeysOfAnotherTypeOrEmptyStayTheTasksOwn) {
  const json odd = {{"function", nullptr}, {"attributes", json::array()}, {"step", ""},
                    {"turn", "2"},         {"configuration", "x"},          {"task", 3}};
  const PromptMetadata metadata = PromptMetadata::from_json(odd);
  EXPECT_TRUE(metadata.function.empty());
  EXPECT_TRUE(metadata.task.empty());
  EXPECT_FALSE(metadata.turn.has_value());
  EXPECT_EQ(metadata.turn_number(), 1);
  EXPECT_EQ(metadata.extra.dump(), odd.dump());
  EXPECT_EQ(metadata.to_json().dump(), odd.dump());
  EXPECT_EQ(PromptMetadata::from_json(json::array()).to_json().dump(), "{}");
}

TEST(PromptMetadata, AFunctionPromptsSharedKeysAreTyped) {
  const Prompt prompt = build_function_prompts(tasks::builtin_suite("faircoder"), PromptOptions{}).front();
  const PromptMetadata metadata = PromptMetadata::from_json(prompt.metadata);
  EXPECT_EQ(metadata.suite, "faircoder");
  EXPECT_EQ(metadata.task, "function");
  EXPECT_EQ(metadata.scenario, prompt.metadata["scenario"]);
  EXPECT_EQ(metadata.function, prompt.metadata["function"]);
  EXPECT_FALSE(metadata.extra.contains("scenario"));
  EXPECT_TRUE(metadata.extra.contains("entity"));  // the function task's own key
  // The offered attributes in prompt order; only the one the prompt was built for has its key.
  ASSERT_EQ(metadata.offered.size(), prompt.metadata["attributes"].size());
  int keyed = 0;
  for (const OfferedAttribute& offered : metadata.offered) {
    if (offered.key.empty()) continue;
    ++keyed;
    EXPECT_EQ(offered.label, metadata.attribute_name);
    EXPECT_EQ(offered.key, metadata.attribute);
  }
  EXPECT_EQ(keyed, 1);
}

TEST(PromptMetadata, ALabelsNameLeavesOutTheGroupsItSpellsOut) {
  EXPECT_EQ((OfferedAttribute{"income level (high, medium, low)", ""}.name()), "income level");
  EXPECT_EQ((OfferedAttribute{"GPA", ""}.name()), "GPA");
}

TEST(PromptMetadata, StepsTurnsAndConfigurationAreTyped) {
  const json stored = {{"task", "function"}, {"step", "repair"}, {"turn", 3},
                       {"configuration", {{"mitigation", "feedback-repair"}}}, {"round", 2}};
  const PromptMetadata metadata = PromptMetadata::from_json(stored);
  EXPECT_EQ(metadata.step, "repair");
  EXPECT_EQ(metadata.turn_number(), 3);
  EXPECT_EQ(metadata.configuration["mitigation"], "feedback-repair");
  EXPECT_EQ(metadata.extra.dump(), R"({"round":2})");
  EXPECT_EQ(metadata.to_json().dump(), stored.dump());
}

}  // namespace
}  // namespace codebias::prompts
