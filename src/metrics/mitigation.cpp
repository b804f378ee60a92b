#include "metrics/mitigation.h"

#include <cmath>

#include "stats/cliffs_delta.h"
#include "stats/holm.h"
#include "stats/mcnemar.h"
#include "stats/wilcoxon.h"

namespace codebias::metrics {
namespace {

MitigationComparison compare(const StrategySamples& baseline, const StrategySamples& strategy) {
  MitigationComparison c;
  c.base = strategy.base;
  c.strategy = strategy.strategy;
  c.scenario = strategy.scenario;
  c.attribute = strategy.attribute;
  // Per prompt: biased counts and pairs, for the per-prompt Bias Rates.
  std::map<std::string, std::pair<std::pair<int, int>, int>> per_prompt;  // prompt -> ((base, strategy) biased, pairs)
  for (const auto& [key, strategy_biased] : strategy.code_biased) {
    const auto it = baseline.code_biased.find(key);
    if (it == baseline.code_biased.end()) continue;
    const bool baseline_biased = it->second;
    ++c.pairs;
    c.baseline_biased += baseline_biased;
    c.strategy_biased += strategy_biased;
    c.only_baseline_biased += baseline_biased && !strategy_biased;
    c.only_strategy_biased += strategy_biased && !baseline_biased;
    auto& prompt = per_prompt[key.first];
    prompt.first.first += baseline_biased;
    prompt.first.second += strategy_biased;
    ++prompt.second;
  }
  if (c.pairs == 0) return c;
  c.baseline_bias_rate = static_cast<double>(c.baseline_biased) / c.pairs;
  c.strategy_bias_rate = static_cast<double>(c.strategy_biased) / c.pairs;
  if (c.baseline_bias_rate > 0) c.relative_reduction = (c.baseline_bias_rate - c.strategy_bias_rate) / c.baseline_bias_rate;
  const stats::McNemarResult mcnemar = stats::mcnemar(c.only_baseline_biased, c.only_strategy_biased);
  c.mcnemar_p = mcnemar.p_value;
  c.mcnemar_method = std::string(stats::to_string(mcnemar.method));
  std::vector<double> base_rates, strategy_rates;
  for (const auto& [prompt, counts] : per_prompt) {
    base_rates.push_back(static_cast<double>(counts.first.first) / counts.second);
    strategy_rates.push_back(static_cast<double>(counts.first.second) / counts.second);
  }
  c.prompts = static_cast<int>(per_prompt.size());
  c.wilcoxon_p = stats::wilcoxon_signed_rank(base_rates, strategy_rates).p_value;
  c.cliffs_delta = stats::cliffs_delta(strategy_rates, base_rates).delta;
  return c;
}

}  // namespace

std::vector<MitigationComparison> compare_mitigations(const std::vector<StrategySamples>& cells) {
  std::vector<MitigationComparison> out;
  for (const StrategySamples& cell : cells) {
    if (cell.strategy == "none") continue;
    for (const StrategySamples& baseline : cells) {
      if (baseline.strategy == "none" && baseline.base == cell.base && baseline.scenario == cell.scenario &&
          baseline.attribute == cell.attribute) {
        out.push_back(compare(baseline, cell));
        break;
      }
    }
  }
  std::vector<double> p_values;
  for (const auto& c : out) p_values.push_back(c.mcnemar_p);
  const std::vector<double> adjusted = stats::holm_adjust(p_values);
  for (std::size_t i = 0; i < out.size(); ++i) out[i].mcnemar_p_holm = adjusted[i];
  return out;
}

}  // namespace codebias::metrics
