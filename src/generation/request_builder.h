// Shaping one request body for an OpenAI-compatible server: sampling parameters, the generation
// mode of ProbeDebias (vanilla / cot / native), a reasoning budget, an assistant prefill, and
// extra fields passed through untouched. The body never carries credentials.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::generation {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

// vanilla: thinking off (standard models: the prompt as is); cot: "Let's think step-by-step!"
// appended to the last user message (standard models); native: the model's own reasoning.
enum class GenerationMode { vanilla, cot, native };

// How `vanilla` turns a reasoning model's thinking off.
enum class ThinkingOff {
  none,                 // a standard model: nothing to turn off
  template_kwargs,      // chat_template_kwargs.enable_thinking = false (vLLM, SGLang, llama.cpp)
  empty_think_prefill,  // an assistant prefill "<think>\n\n</think>\n\n" (same prompt bytes on Qwen3)
};

inline constexpr std::string_view kCotInstruction = "Let's think step-by-step!";
inline constexpr std::string_view kEmptyThinkBlock = "<think>\n\n</think>\n\n";

// "<think>\n{trace}\n</think>\n\n": the prefill that regenerates an answer from a given trace.
std::string think_block_prefill(std::string_view trace);

// "vanilla" | "cot" | "native"; nullopt otherwise.
std::optional<GenerationMode> parse_generation_mode(std::string_view name);
std::string_view to_string(GenerationMode mode);

struct RequestConfig {
  std::string model;
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int> max_tokens;
  // "max_tokens", or "max_completion_tokens" for OpenAI reasoning models (which reject max_tokens).
  std::string max_tokens_field = "max_tokens";
  std::vector<std::string> stop;
  GenerationMode mode = GenerationMode::native;
  ThinkingOff thinking_off = ThinkingOff::template_kwargs;
  // Reasoning-token budget, sent as vLLM's `thinking_token_budget`; other engines take theirs
  // through extra_body (OpenRouter `reasoning.max_tokens`, llama.cpp a server flag).
  std::optional<int> reasoning_budget;
  // Continue from this assistant text (chat: a final assistant message with
  // `continue_final_message: true, add_generation_prompt: false`, as vLLM/SGLang expect;
  // completions: appended to the prompt). Overrides an empty-think prefill.
  std::optional<std::string> assistant_prefill;
  // Merged last as a JSON merge patch (RFC 7386): objects such as chat_template_kwargs merge
  // key by key, a null removes a field. E.g. {"reasoning_effort":"low","top_k":20}.
  nlohmann::json extra_body = nlohmann::json::object();
};

// Body of POST /v1/chat/completions. `seed` is the sample's own seed (base + k).
nlohmann::json build_request_body(std::vector<ChatMessage> messages, const RequestConfig& config,
                                  std::optional<std::int64_t> seed);

// Body of POST /v1/completions for a prompt the client rendered itself.
nlohmann::json build_completion_body(std::string prompt, const RequestConfig& config,
                                     std::optional<std::int64_t> seed);

}  // namespace codebias::generation
