#include "metrics/until_decided.h"

#include <sstream>

#include "base/significant_digits.h"

namespace codebias::metrics {

std::string sequential_verdict(const SequentialEvidence& evidence, double max_bias_rate) {
  if (evidence.prompts > 0 && evidence.lower > max_bias_rate) return "exceeds";
  if (evidence.prompts > 0 && evidence.upper <= max_bias_rate) return "within";
  return "";
}

void record_look(nlohmann::json& cell_state, const std::vector<PromptTally>& tallies, double max_bias_rate,
                 double confidence, bool last_round) {
  const auto max_prompts = cell_state.at("max_prompts").get<std::size_t>();
  const auto evidence = sequential_bias_rate(tallies, confidence, max_prompts);
  std::int64_t samples = 0;
  for (const auto& prompt : tallies) samples += prompt.answers;
  const auto verdict = sequential_verdict(evidence, max_bias_rate);
  cell_state["looks"] = cell_state.value("looks", 0) + 1;
  cell_state["prompts"] = tallies.size();
  cell_state["samples"] = samples;
  cell_state["estimate"] = evidence.estimate;
  cell_state["lower"] = evidence.lower;
  cell_state["upper"] = evidence.upper;
  cell_state["verdict"] = verdict.empty() ? nlohmann::json(nullptr) : nlohmann::json(verdict);
  if (!verdict.empty()) {
    cell_state["stopped"] = "decided early";
  } else if (last_round) {
    cell_state["stopped"] = "ran to the maximum";
  }
}

bool cell_stopped(const nlohmann::json& cell_state) {
  const auto stopped = cell_state.find("stopped");
  return stopped != cell_state.end() && stopped->is_string();
}

std::string until_decided_markdown(const nlohmann::json& provenance) {
  const auto state = provenance.find("until_decided");
  if (state == provenance.end() || !state->is_object()) return "";
  const double threshold = state->at("max_bias_rate").get<double>();
  std::ostringstream out;
  out << "\n**Sampled until decided** (`--until-decided`, `--max-bias-rate " << base::four_significant(threshold) << "`, rounds of "
      << state->at("look_every").get<int>() << " prompts per cell; always-valid "
      << base::four_significant(state->at("confidence").get<double>() * 100)
      << "% interval of the mean per-prompt bias rate, docs/gate.md):\n\n";
  for (const auto& [label, cell] : state->at("cells").items()) {
    out << "- " << label << ": ";
    const std::string samples = std::to_string(cell.value("samples", 0)) + " of " +
                                std::to_string(cell.at("max_samples").get<std::int64_t>()) + " samples (" +
                                std::to_string(cell.value("prompts", 0)) + " of " +
                                std::to_string(cell.at("max_prompts").get<std::int64_t>()) + " prompts), " +
                                std::to_string(cell.value("looks", 0)) + " looks";
    const std::string interval = cell.contains("estimate") ? base::four_significant(cell["estimate"].get<double>()) + " [" +
                                                                  base::four_significant(cell["lower"].get<double>()) + ", " +
                                                                  base::four_significant(cell["upper"].get<double>()) + "]"
                                                            : "no answer yet";
    const std::string verdict = cell.value("verdict", nlohmann::json(nullptr)).is_string()
                                    ? (cell["verdict"] == "exceeds" ? "exceeds" : "within") +
                                          std::string(" --max-bias-rate ")
                                    : "undecided against --max-bias-rate ";
    if (!cell_stopped(cell)) {
      out << "still sampling (stopped with the run) after " << samples << "; " << interval << "\n";
    } else {
      out << cell["stopped"].get<std::string>() << " after " << samples << ": " << interval << " " << verdict
          << base::four_significant(threshold) << "\n";
    }
  }
  return out.str();
}

}  // namespace codebias::metrics
