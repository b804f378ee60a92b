// Turns a benchmark suite into chat prompts (OpenAI message lists) with stable ids and the
// metadata the generation, scoring and reporting stages key on. Rendering rules, id format and
// metadata keys are documented in docs/suites.md ("Prompts").
//
// Deterministic: the same suite, options and seed give byte-identical prompts on every platform
// (shuffles use prompts/shuffle.h, seeded per prompt from the run seed and the prompt id).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suites/suite.h"

namespace codebias::prompts {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct Prompt {
  // function: <suite>/<scenario>/<attribute>/<entity_id>/<entity list>/<sample>
  // testcase: <suite>/testcase/<topic>/<variant>/<group | attribute=given_group>/<sample>
  // ml-pipeline: tasks/pipelines/pipeline_prompts.h
  // resume, cat: tasks/screening/screening_prompts.h
  std::string id;
  std::vector<ChatMessage> messages;
  nlohmann::json metadata;
};

struct PromptOptions {
  std::vector<std::string> scenarios;        // function: scenarios, ml-pipeline: datasets; empty: all of the suite's
  std::vector<std::string> attributes;       // sensitive attribute keys (ml-pipeline: columns); empty: all
  std::vector<std::string> requests;         // testcase: "group", "counterfactual", "both"; empty: both
  int samples = 1;                           // differently shuffled prompts per item, >= 1
  std::uint64_t seed = 0;
  std::string position = "shuffled";         // "shuffled" | "front" | "back" (sensitive attributes)
  std::string style = "vanilla";             // a style the suite declares (faircoder: vanilla, cot, fair-system-prompt)
  std::string convention = "faircoder";      // "faircoder" (demo turns) | "probedebias" (demos in system)
  std::optional<std::size_t> limit;          // keep only the first N prompts
  // ml-pipeline only (docs/ml-pipelines.md, "Prompts"); the other tasks reject them.
  std::vector<std::string> paths;            // "conditional", "pipeline"; empty: both
  std::vector<std::string> levels;           // pipeline levels the suite declares; empty: all
  std::vector<std::string> attribute_sets;   // sets the suite declares; empty: "all"
  std::vector<std::string> mitigations;      // "none" or the suite's; empty: "none"
  std::optional<int> variants;               // paraphrase variants per prompt (cat: option orders); unset: up to 10
  // resume only (docs/screening.md, "Names"); the other tasks reject them.
  std::string names;                         // "selected" | "paper"; empty: the suite's
  std::optional<int> names_per_group;        // selected names per gender × ethnicity; unset: the suite's
  std::vector<std::string> designs;          // hiring-audit only: "rate", "advance", "pick"; empty: all

  bool has_pipeline_options() const {
    return !paths.empty() || !levels.empty() || !attribute_sets.empty() || !mitigations.empty() || variants.has_value();
  }
  bool has_name_options() const { return !names.empty() || names_per_group.has_value(); }
};

// The prompts of the function-implementation task (its registry row's build_prompts; the other
// tasks' builders are in their folders, tasks/<task>/). Throws std::invalid_argument on bad options
// (unknown scenario/attribute/position/style/convention, samples < 1, a suite without scenarios).
std::vector<Prompt> build_function_prompts(const suites::Suite& suite, const PromptOptions& options);

// One JSONL line without the newline: {"id":..., "messages":[{"role","content"}...], "metadata":{...}}.
std::string prompt_json_line(const Prompt& prompt);

}  // namespace codebias::prompts
