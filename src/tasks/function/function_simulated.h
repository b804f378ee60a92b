// The built-in model's answers to FairCoder function requests: the function task's
// Task::simulated_answer, which also answers every request no task claims (Task::answers_unclaimed;
// docs/simulated-model.md).
#pragma once

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// A scoring function over the offered attributes, with the profile's planted bias (and a trace
// that follows a prefilled one's biased steps).
SimulatedAnswer function_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
