// The built-in model's answers to ML-pipeline prompts (the ml-pipeline task's
// Task::simulated_answer; docs/simulated-model.md, "ML pipelines").
#pragma once

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// A decision function or a pipeline whose features are drawn per offered column from the profile's
// `pipelines` rates, after the whole-answer draws every code answer makes (refusal, truncation,
// malformed code, a reasoning trace).
SimulatedAnswer pipeline_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
