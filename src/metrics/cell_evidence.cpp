#include "metrics/cell_evidence.h"

#include <cstdio>

#include "metrics/fairness.h"
#include "stats/confidence_sequence.h"

namespace codebias::metrics {
namespace {

std::optional<stats::ClusteredProportion> clustered(const std::vector<stats::ClusterCount>& counts,
                                                    double confidence) {
  double trials = 0;
  for (const auto& c : counts) trials += c.trials;
  if (trials <= 0) return std::nullopt;
  return stats::clustered_wilson_interval(counts, confidence);
}

}  // namespace

std::vector<PromptTally> tally_prompts(const CellSamples& cell) {
  std::vector<PromptTally> tallies;
  for (const auto& prompt : cell.prompts) {
    PromptTally tally;
    // One program at a time: the report's own counting (metrics/fairness.h) gives whether it was
    // measured and biased, and its points per group.
    for (const auto& report : prompt.reports) {
      ++tally.answers;
      const auto m = compute_attribute_metrics({report}, cell.attribute, cell.groups);
      if (m.n_with_code == 0) continue;
      ++tally.with_code;
      tally.biased += m.n_biased;
      if (m.n_entropy_programs == 0 || m.group_points.size() < 2) continue;
      ++tally.scored;
      double others = 0;
      for (std::size_t g = 1; g < m.group_points.size(); ++g) others += m.group_points[g].second;
      others /= static_cast<double>(m.group_points.size() - 1);
      const double reference = m.group_points.front().second;
      if (reference > others) ++tally.favour_reference;
      if (reference < others) ++tally.favour_others;
    }
    tallies.push_back(tally);
  }
  return tallies;
}

std::optional<stats::ClusteredProportion> bias_rate_evidence(const std::vector<PromptTally>& prompts,
                                                             double confidence) {
  std::vector<stats::ClusterCount> counts;
  for (const auto& p : prompts) counts.push_back({static_cast<double>(p.biased), static_cast<double>(p.with_code)});
  return clustered(counts, confidence);
}

std::optional<stats::ClusteredProportion> no_code_rate_evidence(const std::vector<PromptTally>& prompts,
                                                                double confidence) {
  std::vector<stats::ClusterCount> counts;
  for (const auto& p : prompts)
    counts.push_back({static_cast<double>(p.answers - p.with_code), static_cast<double>(p.answers)});
  return clustered(counts, confidence);
}

SequentialEvidence sequential_bias_rate(const std::vector<PromptTally>& prompts, double confidence,
                                        std::size_t tightest_at) {
  double sum = 0;
  std::size_t count = 0;
  for (const auto& p : prompts) {
    if (p.with_code == 0) continue;
    sum += static_cast<double>(p.biased) / p.with_code;
    ++count;
  }
  const auto interval = stats::mean_confidence_sequence(sum, count, confidence, tightest_at);
  return {interval.estimate, interval.lower, interval.upper, static_cast<int>(count)};
}

std::string SignedEffect::settled_side() const {
  if (lower > 0) return "+";
  if (upper < 0) return "-";
  return "";
}

std::string SignedEffect::describe() const {
  const auto side = settled_side();
  if (side == "+") return "favours " + reference_group;
  if (side == "-") return "favours the groups other than " + reference_group;
  return "no settled direction";
}

std::optional<SignedEffect> signed_effect(const CellSamples& cell, const std::vector<PromptTally>& prompts,
                                          double confidence) {
  if (cell.groups.size() < 2) return std::nullopt;
  std::vector<stats::ClusterCount> counts;
  SignedEffect effect;
  effect.reference_group = cell.groups.front();
  for (const auto& p : prompts) {
    // (s + 1)/2 per program: 1 favours the reference group, 0 the others, ½ neither.
    counts.push_back({p.favour_reference + 0.5 * (p.scored - p.favour_reference - p.favour_others),
                      static_cast<double>(p.scored)});
    effect.scored += p.scored;
  }
  const auto shifted = clustered(counts, confidence);
  if (!shifted) return std::nullopt;
  effect.prompts = shifted->prompts;
  effect.estimate = 2 * shifted->estimate - 1;
  effect.lower = 2 * shifted->lower - 1;
  effect.upper = 2 * shifted->upper - 1;
  return effect;
}

std::string rate_with_interval(const stats::ClusteredProportion& rate, const char* unit) {
  char text[160];
  std::snprintf(text, sizeof text, "%.4g [%.4g, %.4g] (n=%.0f %s, %d prompts)", rate.estimate, rate.lower,
                rate.upper, rate.trials, unit, rate.prompts);
  return text;
}

}  // namespace codebias::metrics
