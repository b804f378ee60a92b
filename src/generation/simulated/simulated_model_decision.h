// The simulated model's answers to decision-function prompts (Solar, Huang et al.;
// docs/simulated-model.md, "Decision functions"). Internal to the simulated model.
#pragma once

#include <cstdint>

#include "generation/simulated/simulated_model_answer.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve::sim {

// A Python function over the tested attributes of the prompt's metadata: per attribute, biased
// with the profile's probability (some groups rejected, written in one of the profile's styles),
// or (crash_rate) a function that raises on every call.
Answer decision_answer(const DecisionProfile& profile, const Task& task, std::uint64_t seed);

}  // namespace codebias::serve::sim
