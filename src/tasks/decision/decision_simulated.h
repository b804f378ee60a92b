// The built-in model's answers to decision-function prompts (Solar, Huang et al.;
// docs/simulated-model.md, "Decision functions"): the decision task's Task::simulated_answer.
#pragma once

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// A Python function over the tested attributes of the prompt's metadata: per attribute, biased
// with the profile's probability (some groups rejected, written in one of the profile's styles),
// or (crash_rate) a function that raises on every call. From the profile's `decisions`.
SimulatedAnswer decision_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
