// Mitigation strategies side by side (ProbeDebias §5.2, Table 6; `codebias run --mitigation`,
// docs/mitigation.md): each strategy's configuration is paired with the configuration that differs
// from it only in having no mitigation, sample by sample (same prompt, same sample index, both with
// code). Per pair of configurations and cell: the Bias Rates on the pairs and the relative
// reduction, McNemar's test on the discordant pairs (Holm-adjusted over every comparison of the
// run), and over prompts the Wilcoxon signed-rank test and Cliff's δ of the per-prompt Bias Rates.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace codebias::metrics {

// One configuration's programs with code in one cell.
struct StrategySamples {
  std::string config;    // the configuration's label
  std::string base;      // the label without its mitigation part: the configurations compared share it
  std::string strategy;  // its --mitigation ("none" for the baseline)
  std::string scenario;
  std::string attribute;
  std::map<std::pair<std::string, int>, bool> code_biased;  // (prompt id, sample index) -> biased
};

struct MitigationComparison {
  std::string base;
  std::string strategy;
  std::string scenario;
  std::string attribute;
  int pairs = 0;                  // samples with code under both
  int baseline_biased = 0;        // among the pairs
  int strategy_biased = 0;
  int only_baseline_biased = 0;   // McNemar's b
  int only_strategy_biased = 0;   // McNemar's c
  double baseline_bias_rate = 0;  // over the pairs
  double strategy_bias_rate = 0;
  std::optional<double> relative_reduction;  // (BR_none − BR_strategy) / BR_none; unset when BR_none = 0
  double mcnemar_p = 1;
  double mcnemar_p_holm = 1;
  std::string mcnemar_method;
  int prompts = 0;                // prompts with a pair
  double wilcoxon_p = 1;          // per-prompt BR, baseline − strategy
  std::optional<double> cliffs_delta;  // per-prompt BR of the strategy vs the baseline (< 0: lower)
};

// Every strategy cell against its baseline cell (same base, scenario, attribute); cells without a
// baseline are left out. In the order of `cells`.
std::vector<MitigationComparison> compare_mitigations(const std::vector<StrategySamples>& cells);

// What a configuration's requests cost: every request of its conversations (first answers,
// rewrites, regenerations).
struct StrategyCost {
  std::string config;
  std::string strategy;
  long conversations = 0;  // first answers planned
  long requests = 0;       // every step planned
  long rewrites = 0;       // rewrite steps (traces the detector flagged)
  long prompt_tokens = 0;
  long completion_tokens = 0;
  long reasoning_tokens = 0;
};

// Feedback repair (Solar; Huang et al.): after round r, each conversation's latest answer with at
// most r feedback turns, in one cell.
struct RepairRound {
  std::string config;
  std::string scenario;
  std::string attribute;
  int round = 0;        // 0: the first answers
  int with_code = 0;
  int biased = 0;
  double bias_rate() const { return with_code ? static_cast<double>(biased) / with_code : 0.0; }
};

}  // namespace codebias::metrics
