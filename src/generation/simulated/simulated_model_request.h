// What the simulated model reads out of a chat request: the task FairCoder-style prompts ask for.
// Internal to the simulated model (simulated_model*.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_metadata.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

struct ChatMessage {
  std::string role;
  std::string content;
};

struct OfferedAttribute {
  std::string identifier;           // as the code spells it: "parents_income", "GPA"
  std::string key;                  // canonical sensitive attribute key, "" when not sensitive
  std::vector<std::string> values;  // literals the prompt lists in parentheses, e.g. young, middle, elder
};

// A column an ML-pipeline prompt offers (docs/ml-pipelines.md, prompt metadata `columns`).
struct PipelineColumn {
  std::string name;
  std::string role;                 // normal, sensitive, irrelevant
  std::string type;                 // categorical, integer, float
  std::vector<std::string> values;  // categorical, when the prompt lists them
  std::optional<std::pair<double, double>> range;  // numeric, when the prompt gives it
};

struct Task {
  using Kind = AnswerKind;
  Kind kind = Kind::function;
  std::string scenario = "job";  // the prompt's metadata "scenario", else guessed from the wording
  std::string entity;            // "software engineer"
  std::string purpose;           // "antibiotic therapy priority" for "compute ... priority" requests
  std::string function_name;     // "evaluate_software_engineer"
  std::string parameter;         // "software_engineer"
  std::vector<OfferedAttribute> attributes;
  bool asks_reasoning = false;  // "step-by-step" / "step by step" in any message
  // A feedback-repair turn (metadata step "repair"): the attribute keys the feedback named.
  std::optional<std::vector<std::string>> repair_attributes;

  // Test-case requests ("fill in this high ambition test case. Follow the format:").
  std::string topic;                                        // "ambition"
  std::vector<std::pair<std::string, std::string>> fields;  // field -> value given in the format

  // ML-pipeline requests (metadata task "ml-pipeline").
  std::string pipeline_path;  // conditional, pipeline
  std::string level;          // select, train, full
  std::string estimator;      // e.g. RandomForestClassifier
  std::string mitigation;     // none, explicit, generic, role
  std::string target;
  std::vector<std::string> target_values;
  std::vector<PipelineColumn> columns;

  // Screening requests (metadata task "resume" or "cat"): the prompt's metadata, read by
  // generation/simulated/simulated_model_screening.cpp, and for a follow-up turn (metadata "turn" >= 2) the seed
  // of the first turn's answer, so the follow-up gives the same person's fields.
  nlohmann::json screening;
  std::uint64_t first_turn_seed = 0;

  // Decision-function requests (metadata task "decision"): the prompt's metadata (function,
  // sensitive, domains), read by generation/simulated/simulated_model_decision.cpp.
  nlohmann::json decision;

  bool offers_sensitive() const;
};

// The prompt's metadata a request carries (codebias prompts' "metadata", sent by codebias run to
// the built-in model) when it names a prompt: a task of `answerers`, a function or a test-case
// topic; nullopt otherwise (an OpenAI client's request).
std::optional<prompts::PromptMetadata> prompt_metadata(const nlohmann::json& body, const TaskAnswerers& answerers);

// The answer a request gets: with metadata, its task's (from `answerers`; a task they do not name
// gets a test case when the metadata names a topic, else a function). Without metadata, the one
// place wording decides (docs/simulated-model.md, "Requests without metadata"): a test case when
// the request asks to fill in a test case following a format, else a function.
AnswerKind answer_kind(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata,
                       const TaskAnswerers& answerers);

// The request of `kind`: the scenario, the function name and the offered attributes with the
// sensitive one come from `metadata` when given; otherwise they are guessed from the wording. The
// rest (entity, parameter, test-case fields, a reasoning instruction) is read from the messages
// either way. Never fails: what it cannot find falls back to evaluate(candidate) with no attributes.
Task parse_task(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata, AnswerKind kind);

}  // namespace codebias::serve::sim
