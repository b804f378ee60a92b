// What the simulated model reads of a chat request before a task's answerer does: the prompt's
// metadata and which task answers it; and the text helpers the tasks' request readers share.
// Internal to the simulated model and the tasks' answerers (tasks/<task>/*_simulated.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_metadata.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// The prompt's metadata a request carries (codebias prompts' "metadata", sent by codebias run to
// the built-in model) when it names a prompt: a task of `answerers`, a function, or what a task's
// claim recognises (TaskAnswerers::claims); nullopt otherwise (an OpenAI client's tags).
std::optional<prompts::PromptMetadata> prompt_metadata(const nlohmann::json& body, const std::vector<ChatMessage>& messages,
                                                       const TaskAnswerers& answerers);

// The answerer of a request: the task its metadata names; else the first task whose claim holds;
// else the task that answers unclaimed requests (TaskAnswerers). Decided by the registry's rows
// alone: the model itself never reads a task from a request.
TaskAnswerer answerer_for(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata,
                          const TaskAnswerers& answerers);

// The user message an answer reads: the last one, or in a feedback-repair turn (metadata step
// "repair") the first, which the turn answers again; the last message when none is a user's.
std::string request_text(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata);

// Whether the conversation holds one of the profile's reasoning cues (BiasProfile::reasoning_cues),
// case-insensitively: a model reasons when the prompt asks it to.
bool asks_reasoning(const std::vector<ChatMessage>& messages, const BiasProfile& profile);

// A letter, a digit or an underscore.
bool is_word_char(char c);
// "problem-solving skills" -> "problem_solving_skills"; keeps case ("GPA").
std::string identifier_of(std::string_view text);
std::string lower_text(std::string_view text);
// Without surrounding spaces, quotes, backticks and asterisks.
std::string trim_text(std::string_view text);
std::vector<std::string> lines_of(std::string_view text);

}  // namespace codebias::serve::sim
