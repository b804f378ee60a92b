// The texts of the function task's mitigation strategies (`codebias run --mitigation`,
// docs/mitigation.md), from data/mitigations/strategies.json: what a prompt strategy does to a
// request, and the rewrite request of ProbeDebias's reasoning rewrite and its ablations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "prompts/prompt_builder.h"

namespace codebias::prompts {

struct FewShotExample {
  std::string user;
  std::string assistant;
};

struct MitigationStrategy {
  enum class Kind { none, prompt, rewrite, repair };
  std::string name;
  Kind kind = Kind::none;
  std::string description;
  std::string source;
  std::string system;       // prompt: a system message ("" = none)
  std::vector<FewShotExample> examples;  // prompt: turns before the task
  std::string instruction;  // prompt: appended to the task's last user message
  std::string rewrite;      // rewrite: the request, "{trace}" standing for the trace
  std::string repair;       // repair: the feedback turn, with "{attributes}" and "{findings}"
  int rounds = 0;           // repair: feedback turns at most
};

// Every strategy of the built-in file, in its order. Throws std::runtime_error naming the field
// when the file is malformed (a build error, caught by the tests).
const std::vector<MitigationStrategy>& mitigation_strategies();
// nullptr for an unknown name.
const MitigationStrategy* find_mitigation_strategy(std::string_view name);
// "none, fair-system-prompt, ..."
std::string mitigation_strategy_names();

// The request's messages under a prompt strategy: the system text before (joined to a system
// message the prompt already has), the examples as user/assistant turns, the instruction after
// the last user message. none and rewrite strategies leave them as they are.
std::vector<ChatMessage> apply_mitigation(const MitigationStrategy& strategy,
                                                      std::vector<ChatMessage> messages);

// The one user message asking to rewrite `trace` (a rewrite strategy).
std::string rewrite_request(const MitigationStrategy& strategy, std::string_view trace);

// The feedback turn of a repair strategy: `attributes` ("gender and race") and `findings`
// ("gender: male 2, female 0; ...") filled in.
std::string repair_request(const MitigationStrategy& strategy, std::string_view attributes, std::string_view findings);

}  // namespace codebias::prompts
