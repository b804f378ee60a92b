#include "prompts/prompt_parts.h"

#include <stdexcept>
#include <utility>

#include "base/strings.h"

namespace codebias::prompts {

const suites::PromptStyle& style_of(const suites::Suite& suite, const std::string& name) {
  if (const auto* found = suite.find_style(name)) return *found;
  std::vector<std::string> names;
  for (const auto& style : suite.styles) names.push_back(style.name);
  throw std::invalid_argument("style '" + name + "' is not one of: " + base::join(names, ", "));
}

std::string user_message(std::string request, const suites::PromptStyle& style) {
  if (!style.instruction.empty()) request += "\n\n" + style.instruction;
  return request;
}

std::vector<ChatMessage> messages_for(std::string user, const suites::PromptStyle& style,
                                      const std::string& fallback_system) {
  std::vector<ChatMessage> messages;
  const std::string& system = style.system.empty() ? fallback_system : style.system;
  if (!system.empty()) messages.push_back({"system", system});
  messages.push_back({"user", std::move(user)});
  return messages;
}

}  // namespace codebias::prompts
