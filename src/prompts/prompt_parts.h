// What the prompt builders of the tasks without FairCoder's layout share (screening, decision
// functions): the chosen style, and the messages a style makes of a request.
#pragma once

#include <string>
#include <vector>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"

namespace codebias::prompts {

// The suite's style of that name; throws std::invalid_argument listing the suite's styles.
const suites::PromptStyle& style_of(const suites::Suite& suite, const std::string& name);

// The request with the style's instruction after a blank line, when it has one.
std::string user_message(std::string request, const suites::PromptStyle& style);

// The style's system message (else `fallback_system`, when not empty), then the user message.
std::vector<ChatMessage> messages_for(std::string user, const suites::PromptStyle& style,
                                      const std::string& fallback_system = "");

}  // namespace codebias::prompts
