// The simulated model's answers to ML-pipeline prompts (metadata task "ml-pipeline"). Internal to
// the simulated model.
#pragma once

#include <cstdint>

#include "generation/simulated/simulated_model_answer.h"

namespace codebias::serve::sim {

// `outcome` is the whole-answer draw of compose_answer (code, refusal, truncated, malformed).
Answer pipeline_answer(const BiasProfile& profile, const Task& task, AnswerPlan::Kind outcome, bool reasoning,
                       std::uint64_t seed);

}  // namespace codebias::serve::sim
