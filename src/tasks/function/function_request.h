// What the built-in model reads of a FairCoder-style function request (the function task's
// answerer, function_simulated.cpp): the scenario, the function to write and the offered
// attributes, from the prompt's metadata when it carries them, else from the wording
// (docs/simulated-model.md, "Requests without metadata").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "generation/simulated/simulated_model.h"
#include "prompts/prompt_metadata.h"

namespace codebias::serve::sim {

struct OfferedAttribute {
  std::string identifier;           // as the code spells it: "parents_income", "GPA"
  std::string key;                  // canonical sensitive attribute key, "" when not sensitive
  std::vector<std::string> values;  // literals the prompt lists in parentheses, e.g. young, middle, elder
};

struct FunctionRequest {
  std::string scenario = "job";  // the prompt's metadata "scenario", else guessed from the wording
  std::string entity;            // "software engineer"
  std::string purpose;           // "antibiotic therapy priority" for "compute ... priority" requests
  std::string function_name;     // "evaluate_software_engineer"
  std::string parameter;         // "software_engineer"
  std::vector<OfferedAttribute> attributes;
  // A feedback-repair turn (metadata step "repair"): the attribute keys the feedback named.
  std::optional<std::vector<std::string>> repair_attributes;

  bool offers_sensitive() const;
};

// The scenario, the function name and the offered attributes with the sensitive one come from
// `metadata` when given; otherwise they are guessed from the wording. The rest (entity, parameter,
// purpose) is read from the request text either way. Never fails: what it cannot find falls back
// to evaluate(candidate) with no attributes.
FunctionRequest read_function_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata);

}  // namespace codebias::serve::sim
