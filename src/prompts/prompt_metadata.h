// The metadata every prompt carries (prompt JSONL "metadata", a run's stored samples, the body the
// built-in model reads): the keys every stage shares, typed, and the task's own keys as JSON.
// Keys and values are documented in docs/suites.md ("Prompts").
//
// One reader and one writer: from_json(x).to_json() == x for any object x, so the stored metadata
// stays byte-identical (a shared key of an unexpected type or an empty string stays in `extra`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::prompts {

// One attribute a prompt offers, as it shows it and, for the attribute the prompt was built for,
// its canonical key.
struct OfferedAttribute {
  std::string label;  // as the prompt shows it: "income level (high, medium, low)"
  std::string key;    // canonical key of the prompt's sensitive attribute; "" for the others
  // The label without the groups it spells out: "income level".
  std::string name() const;
};

struct PromptMetadata {
  std::string suite;
  std::string task;      // the task's registry name (tasks/registry.cpp)
  std::string scenario;  // function prompts: the suite's scenario key
  std::string function;  // the function name the prompt asks for
  std::string attribute;       // canonical key of the sensitive attribute the prompt was built for
  std::string attribute_name;  // its label ("attribute_name")
  std::vector<OfferedAttribute> offered;  // "attributes", in the order the prompt shows them
  std::string step;                       // a conversation's later step: "repair", "rewrite"; "" first
  std::optional<int> turn;                // "turn"; absent on a conversation's first turn
  std::string mitigation;                 // the mitigation a prompt or a rewrite step applies
  nlohmann::json configuration;           // the run's configuration of the sample; null when absent
  nlohmann::json extra = nlohmann::json::object();  // the task's own keys

  // The conversation turn: "turn", 1 when absent.
  int turn_number() const { return turn.value_or(1); }

  // Never throws: a non-object reads as empty metadata.
  static PromptMetadata from_json(const nlohmann::json& metadata);
  nlohmann::json to_json() const;
};

}  // namespace codebias::prompts
