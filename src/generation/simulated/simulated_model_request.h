// What the simulated model reads out of a FairCoder-style chat request (a function or a test case).
// Internal to the simulated model and the tasks' answerers (identifier_of).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_metadata.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

struct OfferedAttribute {
  std::string identifier;           // as the code spells it: "parents_income", "GPA"
  std::string key;                  // canonical sensitive attribute key, "" when not sensitive
  std::vector<std::string> values;  // literals the prompt lists in parentheses, e.g. young, middle, elder
};

// A FairCoder-style request: a scoring function, or a test case for one.
struct Request {
  std::string scenario = "job";  // the prompt's metadata "scenario", else guessed from the wording
  std::string entity;            // "software engineer"
  std::string purpose;           // "antibiotic therapy priority" for "compute ... priority" requests
  std::string function_name;     // "evaluate_software_engineer"
  std::string parameter;         // "software_engineer"
  std::vector<OfferedAttribute> attributes;
  // A feedback-repair turn (metadata step "repair"): the attribute keys the feedback named.
  std::optional<std::vector<std::string>> repair_attributes;

  // Test-case requests ("fill in this high ambition test case. Follow the format:").
  std::string topic;                                        // "ambition"
  std::vector<std::pair<std::string, std::string>> fields;  // field -> value given in the format

  // Whether it offers a sensitive attribute (a function's) or a sensitive field (a test case's).
  bool offers_sensitive() const;
};

// The prompt's metadata a request carries (codebias prompts' "metadata", sent by codebias run to
// the built-in model) when it names a prompt: a task of `answerers`, a function or a test-case
// topic; nullopt otherwise (an OpenAI client's request).
std::optional<prompts::PromptMetadata> prompt_metadata(const nlohmann::json& body, const TaskAnswerers& answerers);

// The answerer of a request: with metadata, its task's (from `answerers`; a task they do not name
// gets a test case when the metadata names a topic, else a function). Without metadata, the one
// place wording decides (docs/simulated-model.md, "Requests without metadata"): a test case when
// the request asks to fill in a test case following a format, else a function (function_answer and
// testcase_answer, simulated_model_answer.h).
TaskAnswerer answerer_for(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata,
                          const TaskAnswerers& answerers);

// Whether a message asks for reasoning ("step-by-step" / "step by step").
bool asks_reasoning(const std::vector<ChatMessage>& messages);

// "problem-solving skills" -> "problem_solving_skills"; keeps case ("GPA").
std::string identifier_of(std::string_view text);

// The request: the scenario, the function name and the offered attributes with the sensitive one
// come from `metadata` when given; otherwise they are guessed from the wording. The rest (entity,
// parameter, test-case topic and fields, a reasoning instruction) is read from the messages either
// way. Never fails: what it cannot find falls back to evaluate(candidate) with no attributes.
Request parse_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata,
                      bool test_case);

}  // namespace codebias::serve::sim
