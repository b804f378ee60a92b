// Drawing one answer (docs/simulated-model.md, "How an answer is drawn") and the wording the
// tasks' answers share.
#include "generation/simulated/simulated_model_answer.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "generation/simulated/simulated_model_request.h"
#include "suites/template_text.h"

namespace codebias::serve::sim {

using Outcome = AnswerPlan::Outcome;

std::string capitalised(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::string words(const std::string& identifier) {
  std::string out = lower_text(identifier);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

std::string with_article(const std::string& noun) {
  const bool vowel = !noun.empty() && std::string_view("aeiou").find(static_cast<char>(
                                          std::tolower(static_cast<unsigned char>(noun[0])))) != std::string_view::npos;
  return (vowel ? "an " : "a ") + noun;
}

std::string refusal_text(const BiasProfile& profile, const std::vector<std::string>& labels, const std::string& entity,
                         Stream& render) {
  const std::string& text = profile.refusals[render.below(profile.refusals.size())];
  return suites::fill_template(text, {{"attributes", joined(labels)}, {"entity", with_article(entity)}});
}

AnswerDraws draw_answer(const AnswerRequest& request, bool offers_sensitive) {
  AnswerDraws draws;
  const BiasProfile& profile = request.profile;
  Stream reasoning_stream(request.seed, "reasoning");
  const bool asked = request.enable_thinking.value_or(asks_reasoning(request.messages, profile));
  // A prefilled trace is the answer's reasoning: the model writes none of its own; nor does it
  // for a feedback-repair turn.
  const bool repair = request.metadata != nullptr && request.metadata->step == "repair";
  draws.reasoning = !request.prefilled_trace && !repair && request.enable_thinking != false &&
                    reasoning_stream.chance(asked ? profile.reasoning_when_asked : profile.reasoning_unasked);

  // One uniform number splits refusal / truncation / malformed / code (refusals only where a
  // sensitive attribute is offered; elsewhere that band writes code).
  double u = Stream(request.seed, "outcome").uniform();
  if (u < profile.refusal_rate) {
    if (offers_sensitive) draws.outcome = Outcome::refusal;
  } else if ((u -= profile.refusal_rate) < profile.truncation_rate) {
    draws.outcome = Outcome::truncated;
  } else if ((u -= profile.truncation_rate) < profile.malformed_rate) {
    draws.outcome = Outcome::malformed;
  }
  return draws;
}

}  // namespace codebias::serve::sim
