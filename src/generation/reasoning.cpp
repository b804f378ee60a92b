#include "generation/reasoning.h"

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

std::string_view trim_leading_whitespace(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first == std::string_view::npos ? std::string_view{} : text.substr(first);
}

void append_trace(std::string& reasoning, std::string_view part) {
  part = trim_whitespace(part);
  if (part.empty()) return;
  if (!reasoning.empty()) reasoning += "\n";
  reasoning += part;
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

std::string string_field(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string{};
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
  ReasoningSplit split;
  std::size_t position = 0;
  bool saw_tag = false;

  const auto first_open = text.find(kOpen);
  const auto first_close = text.find(kClose);
  if (first_close != std::string_view::npos &&
      (first_open == std::string_view::npos || first_close < first_open)) {
    append_trace(split.reasoning, text.substr(0, first_close));
    position = first_close + kClose.size();
    saw_tag = true;
  } else if (first_open == std::string_view::npos && prompt == PromptThink::opened) {
    append_trace(split.reasoning, text);
    split.cut_off = true;
    return split;
  }

  while (position <= text.size()) {
    const auto open = text.find(kOpen, position);
    if (open == std::string_view::npos) {
      split.answer += text.substr(position);
      break;
    }
    saw_tag = true;
    split.answer += text.substr(position, open - position);
    const auto close = text.find(kClose, open + kOpen.size());
    if (close == std::string_view::npos) {
      append_trace(split.reasoning, text.substr(open + kOpen.size()));
      split.cut_off = true;
      break;
    }
    append_trace(split.reasoning, text.substr(open + kOpen.size(), close - open - kOpen.size()));
    position = close + kClose.size();
  }
  if (saw_tag) split.answer = std::string(trim_leading_whitespace(split.answer));
  return split;
}

ReasoningSplit extract_reasoning(const nlohmann::json& choice, PromptThink prompt) {
  std::string text;
  std::string field;
  if (const auto message = choice.find("message"); message != choice.end() && message->is_object()) {
    if (const auto content = message->find("content"); content != message->end()) {
      text = content_text(*content);
    }
    field = string_field(*message, "reasoning_content");
    if (field.empty()) field = string_field(*message, "reasoning");
  } else {
    text = string_field(choice, "text");
  }
  const std::string finish_reason = string_field(choice, "finish_reason");

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
  if (!last.is_object() || string_field(last, "role") != "assistant") return PromptThink::unknown;
  return think_state_of(content_text(last.value("content", nlohmann::json())));
}

}  // namespace codebias::generation
