#include "generation/request_builder.h"

#include <gtest/gtest.h>

namespace codebias::generation {
namespace {

RequestConfig base_config() {
  RequestConfig config;
  config.model = "m";
  config.temperature = 0.7;
  config.top_p = 0.95;
  config.max_tokens = 512;
  config.stop = {"```\n"};
  return config;
}

const std::vector<ChatMessage> kMessages = {{"system", "be brief"}, {"user", "write f"}};

TEST(BuildRequestBody, CarriesSamplingParametersAndTheSeed) {
  const auto body = build_request_body(kMessages, base_config(), 1234);
  EXPECT_EQ(body["model"], "m");
  EXPECT_EQ(body["temperature"], 0.7);
  EXPECT_EQ(body["top_p"], 0.95);
  EXPECT_EQ(body["max_tokens"], 512);
  EXPECT_EQ(body["stop"], nlohmann::json::array({"```\n"}));
  EXPECT_EQ(body["seed"], 1234);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][1]["content"], "write f");
  EXPECT_FALSE(body.contains("chat_template_kwargs"));  // native mode leaves thinking alone
}

TEST(BuildRequestBody, NoSeedMeansNoSeedField) {
  EXPECT_FALSE(build_request_body(kMessages, base_config(), std::nullopt).contains("seed"));
}

TEST(BuildRequestBody, MaxTokensFieldIsConfigurable) {
  auto config = base_config();
  config.max_tokens_field = "max_completion_tokens";
  const auto body = build_request_body(kMessages, config, std::nullopt);
  EXPECT_EQ(body["max_completion_tokens"], 512);
  EXPECT_FALSE(body.contains("max_tokens"));
}

TEST(BuildRequestBody, VanillaTurnsThinkingOffThroughTemplateKwargs) {
  auto config = base_config();
  config.mode = GenerationMode::vanilla;
  const auto body = build_request_body(kMessages, config, std::nullopt);
  EXPECT_EQ(body["chat_template_kwargs"]["enable_thinking"], false);
  EXPECT_EQ(body["messages"].size(), 2u);
}

TEST(BuildRequestBody, VanillaCanPrefillAnEmptyThinkBlockInstead) {
  auto config = base_config();
  config.mode = GenerationMode::vanilla;
  config.thinking_off = ThinkingOff::empty_think_prefill;
  const auto body = build_request_body(kMessages, config, std::nullopt);
  ASSERT_EQ(body["messages"].size(), 3u);
  EXPECT_EQ(body["messages"][2]["role"], "assistant");
  EXPECT_EQ(body["messages"][2]["content"], "<think>\n\n</think>\n\n");
  EXPECT_EQ(body["continue_final_message"], true);
  EXPECT_EQ(body["add_generation_prompt"], false);
  EXPECT_FALSE(body.contains("chat_template_kwargs"));
}

TEST(BuildRequestBody, VanillaForAStandardModelSendsThePromptAsIs) {
  auto config = base_config();
  config.mode = GenerationMode::vanilla;
  config.thinking_off = ThinkingOff::none;
  const auto body = build_request_body(kMessages, config, std::nullopt);
  EXPECT_FALSE(body.contains("chat_template_kwargs"));
  EXPECT_EQ(body["messages"].size(), 2u);
}

TEST(BuildRequestBody, CotAppendsTheInstructionToTheLastUserMessage) {
  auto config = base_config();
  config.mode = GenerationMode::cot;
  const auto body = build_request_body(kMessages, config, std::nullopt);
  EXPECT_EQ(body["messages"][1]["content"], "write f\nLet's think step-by-step!");
  EXPECT_EQ(body["messages"][0]["content"], "be brief");
}

TEST(BuildRequestBody, NativeModeSendsTheReasoningBudget) {
  auto config = base_config();
  config.reasoning_budget = 1024;
  EXPECT_EQ(build_request_body(kMessages, config, std::nullopt)["thinking_token_budget"], 1024);
  config.mode = GenerationMode::vanilla;
  EXPECT_FALSE(build_request_body(kMessages, config, std::nullopt).contains("thinking_token_budget"));
}

TEST(BuildRequestBody, PrefillFromAGivenTraceContinuesTheAssistantMessage) {
  auto config = base_config();
  config.assistant_prefill = think_block_prefill("use only skills");
  const auto body = build_request_body(kMessages, config, 7);
  EXPECT_EQ(body["messages"].back()["content"], "<think>\nuse only skills\n</think>\n\n");
  EXPECT_EQ(body["continue_final_message"], true);
  EXPECT_EQ(body["add_generation_prompt"], false);
}

TEST(BuildRequestBody, ExtraFieldsArePassedThroughAndMergedIntoObjects) {
  auto config = base_config();
  config.mode = GenerationMode::vanilla;
  config.extra_body = {{"chat_template_kwargs", {{"custom", 1}}},
                       {"reasoning_effort", "low"},
                       {"top_k", 20},
                       {"stop", nullptr}};
  const auto body = build_request_body(kMessages, config, std::nullopt);
  EXPECT_EQ(body["chat_template_kwargs"]["enable_thinking"], false);
  EXPECT_EQ(body["chat_template_kwargs"]["custom"], 1);
  EXPECT_EQ(body["reasoning_effort"], "low");
  EXPECT_EQ(body["top_k"], 20);
  EXPECT_FALSE(body.contains("stop"));  // a null in the patch removes the field
}

TEST(BuildCompletionBody, AppendsPrefillToThePrompt) {
  auto config = base_config();
  config.mode = GenerationMode::vanilla;
  config.thinking_off = ThinkingOff::empty_think_prefill;
  const auto body = build_completion_body("<|im_start|>assistant\n", config, 3);
  EXPECT_EQ(body["prompt"], "<|im_start|>assistant\n<think>\n\n</think>\n\n");
  EXPECT_EQ(body["seed"], 3);
  EXPECT_FALSE(body.contains("messages"));
}

TEST(GenerationModeNames, RoundTrip) {
  for (const auto mode : {GenerationMode::vanilla, GenerationMode::cot, GenerationMode::native}) {
    EXPECT_EQ(parse_generation_mode(to_string(mode)), mode);
  }
  EXPECT_EQ(parse_generation_mode("thinking"), std::nullopt);
}

}  // namespace
}  // namespace codebias::generation
