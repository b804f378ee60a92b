#include "run/until_decided.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "attributes/attributes.h"
#include "analysis/prompt_attributes.h"
#include "metrics/until_decided.h"
#include "prompts/prompt_metadata.h"
#include "run/load_run.h"
#include "store/run_store.h"

namespace codebias::run {
namespace {

constexpr double kConfidence = 0.95;  // the gate's default confidence

using PromptKey = std::pair<std::string, std::string>;  // configuration label, prompt id

// Every cell's prompts in plan order, by cell label.
std::map<std::string, std::vector<PromptKey>> planned_cells(const store::RunStore& store) {
  const auto& table = analysis::AttributeTable::builtin();
  std::map<std::string, std::vector<PromptKey>> cells;
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult&,
                            const nlohmann::json*) {
    const auto metadata = prompts::PromptMetadata::from_json(planned.metadata);
    const std::string& scenario = metadata.scenario;
    for (const auto& attribute : analysis::cell_attributes(metadata, table)) {
      auto& prompts = cells[metrics::cell_label(planned.config, scenario, attribute)];
      const PromptKey key{planned.config, planned.prompt_id};
      if (std::find(prompts.begin(), prompts.end(), key) == prompts.end()) prompts.push_back(key);
    }
  });
  return cells;
}

// The stored state, or a fresh one with every cell still to sample.
nlohmann::json initial_state(const nlohmann::json& provenance, const RunOptions& options,
                             const std::map<std::string, std::vector<PromptKey>>& cells) {
  if (const auto stored = provenance.find("until_decided"); stored != provenance.end()) return *stored;
  nlohmann::json state = {{"max_bias_rate", options.max_bias_rate},
                          {"confidence", kConfidence},
                          {"look_every", options.look_every},
                          {"cells", nlohmann::json::object()}};
  for (const auto& [label, prompts] : cells) {
    state["cells"][label] = {{"looks", 0},
                             {"max_prompts", prompts.size()},
                             {"max_samples", static_cast<std::int64_t>(prompts.size()) * options.samples},
                             {"stopped", nullptr}};
  }
  return state;
}

// How many of the cell's prompts the current round reaches: one more round than it has looked at.
std::size_t round_reach(const nlohmann::json& cell_state, std::size_t prompts, int look_every) {
  const auto looks = cell_state.value("looks", 0);
  return std::min(prompts, static_cast<std::size_t>(looks + 1) * static_cast<std::size_t>(look_every));
}

}  // namespace

bool send_until_decided(store::RunStore& store, const std::filesystem::path& dir, const RunOptions& options,
                        const RunBudget& budget, const SendSamples& send, std::ostream* log) {
  const auto cells = planned_cells(store);
  nlohmann::json provenance = store.provenance();
  nlohmann::json state = initial_state(provenance, options, cells);
  const int look_every = state.at("look_every").get<int>();
  const double threshold = state.at("max_bias_rate").get<double>();
  for (;;) {
    std::set<PromptKey> wanted;
    for (const auto& [label, prompts] : cells) {
      const auto& cell_state = state["cells"][label];
      if (metrics::cell_stopped(cell_state)) continue;
      const auto reach = round_reach(cell_state, prompts.size(), look_every);
      wanted.insert(prompts.begin(), prompts.begin() + static_cast<std::ptrdiff_t>(reach));
    }
    if (wanted.empty()) return true;
    const bool sent = send([&](const generation::PlannedSample& sample) {
      return wanted.count({sample.config, sample.prompt_id}) > 0;
    });
    if (!sent) return false;
    // Look at every open cell; a look after a budget stop counts, but cannot end the cell's rounds.
    const bool budget_left = budget.allows_more();
    const auto run = load_run(store, dir);
    std::map<std::string, const metrics::CellSamples*> looked;
    for (const auto& cell : run.cells) looked[metrics::cell_label(cell.config, cell.scenario, cell.attribute)] = &cell;
    for (const auto& [label, prompts] : cells) {
      auto& cell_state = state["cells"][label];
      if (metrics::cell_stopped(cell_state)) continue;
      const auto found = looked.find(label);
      const auto tallies = found == looked.end() ? std::vector<metrics::PromptTally>{} : metrics::tally_prompts(*found->second);
      const bool last_round = budget_left && round_reach(cell_state, prompts.size(), look_every) == prompts.size();
      metrics::record_look(cell_state, tallies, threshold, kConfidence, last_round);
      if (log && metrics::cell_stopped(cell_state))
        *log << "codebias: cell " << label << ": " << cell_state["stopped"].get<std::string>() << " after "
             << cell_state["samples"] << " samples (" << cell_state["looks"] << " looks)\n";
    }
    // Stored before anything more is sent: a resumed run starts from this look.
    provenance["until_decided"] = state;
    store.update_provenance(provenance);
    if (!budget_left) return true;
  }
}

}  // namespace codebias::run
