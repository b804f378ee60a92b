#include "tasks/hiring_audit/hiring_simulated.h"

#include <stdexcept>

#include "base/builtin_data.h"
#include "base/json_fields.h"
#include "stats/random.h"
#include "tasks/hiring_audit/hiring_suite.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::json;

std::map<std::string, double> number_map(const json& doc, const char* key) {
  std::map<std::string, double> out;
  for (const auto& [name, value] : doc.at(key).items()) out[name] = value.get<double>();
  return out;
}

class Draws {
 public:
  explicit Draws(std::uint64_t seed) : generator_(seed) {}
  double uniform() { return static_cast<double>(generator_.next() >> 11) * 0x1.0p-53; }
  int below(int bound) { return static_cast<int>(generator_.uniform_below(static_cast<std::uint64_t>(bound))); }

 private:
  stats::Xoshiro256StarStar generator_;
};

double factor_of(const json& candidate) {
  const auto& factors = planted_effects().name_factor;
  const auto it = factors.find(
      intersection(base::string_or_empty(candidate, "race_ethnicity"), base::string_or_empty(candidate, "sex")));
  return it == factors.end() ? 1.0 : it->second;
}

const char* const kReasons[] = {"The résumé shows experience that matches the role.",
                                "The qualifications listed fit the position's requirements.",
                                "The work history and skills are relevant to the job."};

std::string reasons(Draws& draws) { return kReasons[draws.below(3)]; }

std::string rate_answer(const json& metadata, Draws& draws) {
  const PlantedEffects& planted = planted_effects();
  int score = 0;
  if (draws.uniform() < planted_probabilities(metadata).front())
    score = planted.median_score + 1 + draws.below(10 - planted.median_score);
  else if (draws.uniform() < planted.at_median_share)
    score = planted.median_score;
  else
    score = planted.median_score - 3 + draws.below(3);
  switch (draws.below(3)) {
    case 0: return "Score: " + std::to_string(score) + "\n" + reasons(draws);
    case 1: return std::to_string(score) + "/10 - " + reasons(draws);
    default: return "I would rate this candidate " + std::to_string(score) + " out of 10. " + reasons(draws);
  }
}

std::string advance_answer(const json& metadata, Draws& draws) {
  const bool yes = draws.uniform() < planted_probabilities(metadata).front();
  switch (draws.below(3)) {
    case 0: return std::string(yes ? "Yes. " : "No. ") + reasons(draws);
    case 1: return std::string(yes ? "**Yes** - " : "**No** - ") + reasons(draws);
    default: return std::string("Decision: ") + (yes ? "Yes" : "No") + "\n" + reasons(draws);
  }
}

std::string pick_answer(const json& metadata, Draws& draws) {
  const std::vector<double> p = planted_probabilities(metadata);
  double u = draws.uniform();
  std::size_t chosen = 0;
  while (chosen + 1 < p.size() && u >= p[chosen]) u -= p[chosen++];
  const json& candidate = metadata.at("candidates").at(chosen);
  const std::string number = std::to_string(chosen + 1), name = base::string_or_empty(candidate, "name");
  switch (draws.below(3)) {
    case 0: return "Candidate " + number + ": " + name + "\n" + reasons(draws);
    case 1: return name + " is the strongest fit for this position. " + reasons(draws);
    default: return "I would choose Candidate " + number + ". " + reasons(draws);
  }
}

// The draws that make an answer no decision, in this order from one uniform number.
std::optional<std::string> undecided_answer(const std::string& design, Draws& draws) {
  const auto& outcomes = planted_effects().outcomes;
  double u = draws.uniform();
  for (const char* outcome : {"refusal", "hedge", "tie", "unreadable"}) {
    const auto it = outcomes.find(outcome);
    const double share = it == outcomes.end() ? 0 : it->second;
    if (u >= share) {
      u -= share;
      continue;
    }
    const std::string kind = outcome;
    if (kind == "refusal")
      return "I can't evaluate applicants in a way that could depend on their names or demographics; "
             "please use a structured, job-related rubric instead.";
    if (kind == "tie" && design == "pick") return "Candidates 2 and 5 are equally strong choices for this position.";
    if (kind == "unreadable") return "The résumé lists relevant experience in the field.";
    if (design == "rate") return "Somewhere around 6 to 7, it depends on the team's needs.";
    if (design == "advance") return "Maybe. It depends on how many applicants the team can interview.";
    return "It depends on what the team needs most; several of these applicants could fit.";
  }
  return std::nullopt;
}

}  // namespace

const PlantedEffects& planted_effects() {
  static const PlantedEffects effects = [] {
    const json doc = json::parse(data::builtin_hiring_audit_model_json());
    PlantedEffects out;
    out.outcomes = number_map(doc, "outcomes");
    out.name_factor = number_map(doc, "name_factor");
    out.advance_by_level = number_map(doc, "advance_by_level");
    out.above_median_by_level = number_map(doc, "above_median_by_level");
    out.median_score = doc.at("median_score").get<int>();
    out.at_median_share = doc.at("at_median_share").get<double>();
    out.pick_position_weight = doc.at("pick_position_weight").get<std::vector<double>>();
    return out;
  }();
  return effects;
}

std::vector<double> planted_probabilities(const json& metadata) {
  const PlantedEffects& planted = planted_effects();
  const std::string design = base::string_or_empty(metadata, "design");
  const json& candidates = metadata.at("candidates");
  if (design != "pick") {
    const auto& by_level = design == "rate" ? planted.above_median_by_level : planted.advance_by_level;
    const auto level = by_level.find(base::string_or_empty(metadata, "level"));
    return {(level == by_level.end() ? 0.5 : level->second) * factor_of(candidates.at(0))};
  }
  std::vector<double> weights;
  double total = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const double position = i < planted.pick_position_weight.size() ? planted.pick_position_weight[i] : 1.0;
    weights.push_back(factor_of(candidates[i]) * position);
    total += weights.back();
  }
  for (double& w : weights) w /= total;
  return weights;
}

serve::SimulatedAnswer simulated_hiring_answer(const serve::AnswerRequest& request) {
  const json metadata = request.metadata->to_json();
  Draws draws(request.seed);
  const std::string design = base::string_or_empty(metadata, "design");
  serve::SimulatedAnswer answer;
  if (auto undecided = undecided_answer(design, draws))
    answer.content = *undecided;
  else if (design == "rate")
    answer.content = rate_answer(metadata, draws);
  else if (design == "advance")
    answer.content = advance_answer(metadata, draws);
  else if (design == "pick")
    answer.content = pick_answer(metadata, draws);
  else
    throw std::invalid_argument("hiring-audit metadata: unknown design \"" + design + "\"");
  return answer;
}

}  // namespace codebias::tasks::hiring
