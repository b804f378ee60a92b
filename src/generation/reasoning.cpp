// Reading the reasoning trace of a result: API fields first, then <think> tags (base/reasoning_split.h).
#include "generation/reasoning.h"

#include "base/json_fields.h"

namespace codebias::generation {
namespace {

constexpr std::string_view kOpen = "<think>";
constexpr std::string_view kClose = "</think>";

std::string_view trim_whitespace(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// Text of a message `content`: a string, null, or an array of {"type":"text","text":...} parts.
std::string content_text(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (content.is_array()) {
    for (const auto& part : content) {
      if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        text += part["text"].get<std::string>();
      }
    }
  }
  return text;
}

PromptThink think_state_of(std::string_view text) {
  const auto last_open = text.rfind(kOpen);
  const auto last_close = text.rfind(kClose);
  if (last_open == std::string_view::npos && last_close == std::string_view::npos) {
    return PromptThink::unknown;
  }
  if (last_close == std::string_view::npos ||
      (last_open != std::string_view::npos && last_open > last_close)) {
    return PromptThink::opened;
  }
  return PromptThink::closed;
}

}  // namespace

ReasoningSplit split_think_tags(std::string_view text, PromptThink prompt) {
  return split_reasoning(text, {ThinkTags::every_block, prompt == PromptThink::opened});
}

ReasoningSplit extract_reasoning(const nlohmann::json& choice, PromptThink prompt) {
  std::string text;
  std::string field;
  if (const auto message = choice.find("message"); message != choice.end() && message->is_object()) {
    if (const auto content = message->find("content"); content != message->end()) {
      text = content_text(*content);
    }
    field = base::string_or_empty(*message, "reasoning_content");
    if (field.empty()) field = base::string_or_empty(*message, "reasoning");
  } else {
    text = base::string_or_empty(choice, "text");
  }
  const std::string finish_reason = base::string_or_empty(choice, "finish_reason");

  if (field.empty()) return split_think_tags(text, prompt);

  ReasoningSplit split;
  if (trim_whitespace(text).empty()) {
    if (prompt == PromptThink::closed) {
      split.answer = field;  // the parser mistook the continuation for reasoning
      return split;
    }
    split.reasoning = std::string(trim_whitespace(field));
    split.cut_off = finish_reason == "length";
    return split;
  }
  ReasoningSplit from_content = split_think_tags(text, PromptThink::closed);
  split.reasoning = std::string(trim_whitespace(field));
  split.answer = std::move(from_content.answer);
  return split;
}

PromptThink prompt_think_state(const nlohmann::json& body) {
  if (!body.is_object()) return PromptThink::unknown;
  if (const auto prompt = body.find("prompt"); prompt != body.end() && prompt->is_string()) {
    return think_state_of(prompt->get_ref<const std::string&>());
  }
  const auto continues = body.find("continue_final_message");
  const auto messages = body.find("messages");
  if (continues == body.end() || !continues->is_boolean() || !continues->get<bool>() ||
      messages == body.end() || !messages->is_array() || messages->empty()) {
    return PromptThink::unknown;
  }
  const auto& last = messages->back();
  if (!last.is_object() || base::string_or_empty(last, "role") != "assistant") return PromptThink::unknown;
  return think_state_of(content_text(last.value("content", nlohmann::json())));
}

}  // namespace codebias::generation
