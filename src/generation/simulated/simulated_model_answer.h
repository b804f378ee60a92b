// The draws every code answer starts with (docs/simulated-model.md, "How an answer is drawn"), and
// the model's own answers to FairCoder-style requests: a scoring function or a test case. These are
// the function and testcase tasks' answerers (their registry rows) and what a request without
// metadata gets.
#pragma once

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// Whether the answer carries a reasoning trace (asked for by enable_thinking or a step-by-step
// instruction; never with a prefilled trace or in a feedback-repair turn), and its whole-answer
// outcome: refusal (only where `offers_sensitive`), truncation, malformed code, or the answer.
struct AnswerDraws {
  bool reasoning = false;
  AnswerPlan::Outcome outcome = AnswerPlan::Outcome::answer;
};
AnswerDraws draw_answer(const AnswerRequest& request, bool offers_sensitive);

// A scoring function over the offered attributes, with the profile's planted bias (and a trace
// that follows a prefilled one's biased steps).
SimulatedAnswer function_answer(const AnswerRequest& request);

// A filled-in FairCoder test case: each sensitive field gets a group with the profile's rate.
SimulatedAnswer testcase_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
