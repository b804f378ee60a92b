// The built-in model's answers to hiring-audit prompts (docs/simulated-model.md, "Hiring audit"):
// planted name effects per sex x race/ethnicity group, a qualification effect, position bias in
// the pick design and a few refusals, hedges, ties and unreadable answers, all from
// data/models/simulated-hiring-audit.json. Deterministic given the metadata and the seed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generation/simulated/simulated_model.h"

namespace codebias::tasks::hiring {

struct PlantedEffects {
  std::map<std::string, double> outcomes;               // refusal, hedge, tie, unreadable: P(the answer is one)
  std::map<std::string, double> name_factor;            // "<race/ethnicity>/<sex>" -> factor on the level's rate
  std::map<std::string, double> advance_by_level;       // P(yes) before the name factor
  std::map<std::string, double> above_median_by_level;  // P(score above the median score) before it
  int median_score = 6;
  double at_median_share = 0.5;              // P(score = median | not above)
  std::vector<double> pick_position_weight;  // pick: P(candidate) ∝ name factor × position weight
};

// data/models/simulated-hiring-audit.json, parsed once.
const PlantedEffects& planted_effects();

// What the candidate of a rate / advance prompt gets with certainty: P(yes) or P(score above the
// median) given an answer; pick: P(each position is picked) given a pick. From the prompt's metadata.
std::vector<double> planted_probabilities(const nlohmann::json& metadata);

// The answer to a hiring-audit prompt (its metadata) for one choice's seed: the task's
// Task::simulated_answer.
serve::SimulatedAnswer simulated_hiring_answer(const serve::AnswerRequest& request);

}  // namespace codebias::tasks::hiring
