// Reading a chat request before a task answers it: its metadata, its answerer, and plain string
// scanning rather than std::regex for the tasks' readers (prompts carry long demos, and
// libstdc++'s regex recurses per character).
#include "generation/simulated/simulated_model_request.h"

#include <algorithm>
#include <cctype>

namespace codebias::serve::sim {
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string identifier_of(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (is_word_char(c))
      out.push_back(c);
    else if (!out.empty() && out.back() != '_')
      out.push_back('_');
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out.front()))) out.insert(out.begin(), '_');
  return out;
}

std::string lower_text(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trim_text(std::string_view text) {
  const char* space = " \t\r\n\"'`*";
  const size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos) return "";
  return std::string(text.substr(begin, text.find_last_not_of(space) - begin + 1));
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    out.emplace_back(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::optional<prompts::PromptMetadata> prompt_metadata(const nlohmann::json& body, const std::vector<ChatMessage>& messages,
                                                       const TaskAnswerers& answerers) {
  const auto it = body.find("metadata");
  if (it == body.end() || !it->is_object()) return std::nullopt;
  auto metadata = prompts::PromptMetadata::from_json(*it);
  const bool names_prompt =
      answerers.by_task.find(metadata.task) != answerers.by_task.end() || !metadata.function.empty() ||
      std::any_of(answerers.claims.begin(), answerers.claims.end(),
                  [&](const TaskAnswerers::Claim& claim) { return claim.claims(messages, &metadata); });
  if (!names_prompt) return std::nullopt;
  return metadata;
}

TaskAnswerer answerer_for(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata,
                          const TaskAnswerers& answerers) {
  if (metadata != nullptr)
    if (const auto it = answerers.by_task.find(metadata->task); it != answerers.by_task.end()) return it->second;
  for (const TaskAnswerers::Claim& claim : answerers.claims)
    if (claim.claims(messages, metadata)) return claim.answer;
  return answerers.unclaimed;
}

std::string request_text(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata) {
  std::string request;
  const auto is_user = [](const ChatMessage& m) { return m.role == "user"; };
  if (metadata != nullptr && metadata->step == "repair")
    if (const auto first = std::find_if(messages.begin(), messages.end(), is_user); first != messages.end())
      request = first->content;
  for (auto it = messages.rbegin(); request.empty() && it != messages.rend(); ++it)
    if (is_user(*it)) {
      request = it->content;
      break;
    }
  if (request.empty() && !messages.empty()) request = messages.back().content;
  return request;
}

bool asks_reasoning(const std::vector<ChatMessage>& messages, const BiasProfile& profile) {
  return std::any_of(messages.begin(), messages.end(), [&](const ChatMessage& m) {
    const std::string text = lower_text(m.content);
    return std::any_of(profile.reasoning_cues.begin(), profile.reasoning_cues.end(),
                       [&](const std::string& cue) { return text.find(cue) != std::string::npos; });
  });
}

}  // namespace codebias::serve::sim
