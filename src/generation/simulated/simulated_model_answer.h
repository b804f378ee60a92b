// The draws every code answer starts with (docs/simulated-model.md, "How an answer is drawn") and
// the wording the tasks' answers share (refusals, lists of attributes).
#pragma once

#include <string>
#include <vector>

#include "generation/simulated/simulated_model.h"
#include "generation/simulated/simulated_model_random.h"

namespace codebias::serve::sim {

// Whether the answer carries a reasoning trace (asked for by enable_thinking or one of the
// profile's reasoning cues; never with a prefilled trace or in a feedback-repair turn), and its
// whole-answer outcome: refusal (only where `offers_sensitive`), truncation, malformed code, or the
// answer.
struct AnswerDraws {
  bool reasoning = false;
  AnswerPlan::Outcome outcome = AnswerPlan::Outcome::answer;
};
AnswerDraws draw_answer(const AnswerRequest& request, bool offers_sensitive);

// One of the profile's refusal texts, drawn from `render`: `labels` are the sensitive attributes
// it declines to use, `entity` who would have been scored ("nurse").
std::string refusal_text(const BiasProfile& profile, const std::vector<std::string>& labels, const std::string& entity,
                         Stream& render);

// "a, b and c"
std::string joined(const std::vector<std::string>& items);
// "a nurse", "an electrician"
std::string with_article(const std::string& noun);
// "problem_solving_skills" -> "problem solving skills"
std::string words(const std::string& identifier);
std::string capitalised(std::string text);

}  // namespace codebias::serve::sim
