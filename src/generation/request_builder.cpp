#include "generation/request_builder.h"

namespace codebias::generation {
namespace {

void add_sampling(nlohmann::json& body, const RequestConfig& config,
                  std::optional<std::int64_t> seed) {
  body["model"] = config.model;
  if (config.temperature) body["temperature"] = *config.temperature;
  if (config.top_p) body["top_p"] = *config.top_p;
  if (config.max_tokens) body[config.max_tokens_field] = *config.max_tokens;
  if (!config.stop.empty()) body["stop"] = config.stop;
  if (seed) body["seed"] = *seed;
  if (config.reasoning_budget && config.mode == GenerationMode::native) {
    body["thinking_token_budget"] = *config.reasoning_budget;
  }
}

// The assistant text the model continues from, if any.
std::optional<std::string> prefill_for(const RequestConfig& config) {
  if (config.assistant_prefill) return config.assistant_prefill;
  if (config.mode == GenerationMode::vanilla &&
      config.thinking_off == ThinkingOff::empty_think_prefill) {
    return std::string(kEmptyThinkBlock);
  }
  return std::nullopt;
}

}  // namespace

std::string think_block_prefill(std::string_view trace) {
  std::string prefill = "<think>\n";
  prefill += trace;
  prefill += "\n</think>\n\n";
  return prefill;
}

std::optional<GenerationMode> parse_generation_mode(std::string_view name) {
  if (name == "vanilla") return GenerationMode::vanilla;
  if (name == "cot") return GenerationMode::cot;
  if (name == "native") return GenerationMode::native;
  return std::nullopt;
}

std::string_view to_string(GenerationMode mode) {
  switch (mode) {
    case GenerationMode::vanilla: return "vanilla";
    case GenerationMode::cot: return "cot";
    case GenerationMode::native: return "native";
  }
  return "native";
}

nlohmann::json build_request_body(std::vector<ChatMessage> messages, const RequestConfig& config,
                                  std::optional<std::int64_t> seed) {
  if (config.mode == GenerationMode::cot) {
    for (auto message = messages.rbegin(); message != messages.rend(); ++message) {
      if (message->role != "user") continue;
      if (!message->content.empty()) message->content += "\n";
      message->content += kCotInstruction;
      break;
    }
  }
  const auto prefill = prefill_for(config);
  if (prefill) messages.push_back({"assistant", *prefill});

  nlohmann::json body = nlohmann::json::object();
  add_sampling(body, config, seed);
  auto& wire_messages = body["messages"] = nlohmann::json::array();
  for (const auto& message : messages) {
    wire_messages.push_back({{"role", message.role}, {"content", message.content}});
  }
  if (config.mode == GenerationMode::vanilla &&
      config.thinking_off == ThinkingOff::template_kwargs) {
    body["chat_template_kwargs"]["enable_thinking"] = false;
  }
  if (prefill) {
    body["add_generation_prompt"] = false;
    body["continue_final_message"] = true;
  }
  body.merge_patch(config.extra_body);
  return body;
}

nlohmann::json build_completion_body(std::string prompt, const RequestConfig& config,
                                     std::optional<std::int64_t> seed) {
  if (config.mode == GenerationMode::cot) {
    if (!prompt.empty()) prompt += "\n";
    prompt += kCotInstruction;
  }
  if (const auto prefill = prefill_for(config)) prompt += *prefill;
  nlohmann::json body = nlohmann::json::object();
  add_sampling(body, config, seed);
  body["prompt"] = std::move(prompt);
  body.merge_patch(config.extra_body);
  return body;
}

}  // namespace codebias::generation
