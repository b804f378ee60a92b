// One simulated answer: the draws of docs/simulated-model.md ("How an answer is drawn") and the
// text they render to. Internal to the simulated model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "generation/simulated/simulated_model.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve::sim {

struct Answer {
  std::string reasoning;   // the trace, "" when none
  std::string content;     // what the user sees, without the trace
  bool cut_short = false;  // a profile truncation: finish_reason "length"
  AnswerPlan plan;
};

// `enable_thinking`: the request's chat_template_kwargs.enable_thinking, when given.
// `prefilled_trace`: a trace the request put in the assistant's think block (continue_final_message);
// the code then follows its biased steps (generation/simulated/simulated_model_trace.h) and the answer carries no
// trace of its own.
Answer compose_answer(const BiasProfile& profile, const Task& task, std::optional<bool> enable_thinking,
                      std::uint64_t answer_seed, const std::optional<std::string>& prefilled_trace = std::nullopt);

}  // namespace codebias::serve::sim
