#include "metrics/run_comparison.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "stats/holm.h"

namespace codebias::metrics {
namespace {

using CellKey = std::tuple<std::string, std::string, std::string>;
constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

CellKey key_of(const CellSamples& cell) { return {cell.config, cell.scenario, cell.attribute}; }

// One sample as the bias rate sees it: measured (code_status ok) and, if so, biased.
struct SampleOutcome {
  bool with_code = false;
  bool biased = false;
};

SampleOutcome outcome_of(const analysis::ResponseReport& report, const std::string& attribute) {
  SampleOutcome outcome;
  outcome.with_code = report.code_status == analysis::CodeStatus::ok;
  if (!outcome.with_code) return outcome;
  for (const auto& finding : report.attributes) {
    if (finding.attribute == attribute) outcome.biased = analysis::groups_treated_differently(finding);
  }
  return outcome;
}

// One run's side of one paired prompt.
struct PromptSide {
  const PromptSamples* samples = nullptr;
  int with_code = 0;
  int biased = 0;
  std::optional<double> fairscore;  // FairCoder's per-block FairScore_b
  std::map<int, SampleOutcome> by_index;
};

PromptSide side_of(const PromptSamples& samples, const CellSamples& cell) {
  PromptSide side;
  side.samples = &samples;
  for (std::size_t i = 0; i < samples.reports.size(); ++i) {
    const auto outcome = outcome_of(samples.reports[i], cell.attribute);
    side.with_code += outcome.with_code;
    side.biased += outcome.biased;
    side.by_index[samples.sample_indices[i]] = outcome;
  }
  MetricsOptions options;
  options.block_sizes = {samples.reports.size()};
  side.fairscore = compute_attribute_metrics(samples.reports, cell.attribute, cell.groups, options).fairscore;
  return side;
}

// Bias rate of the chosen prompts: biased programs over programs with code, pooled as BR is.
double pooled_bias_rate(const std::vector<PromptSide>& sides, std::span<const std::size_t> indices) {
  int with_code = 0, biased = 0;
  for (const std::size_t i : indices) {
    with_code += sides[i].with_code;
    biased += sides[i].biased;
  }
  return with_code == 0 ? kUndefined : static_cast<double>(biased) / with_code;
}

// FairScore of the chosen prompts: the mean of FairScore_b over blocks that have one, as
// AttributeMetrics::fairscore averages them.
double mean_fairscore(const std::vector<PromptSide>& sides, std::span<const std::size_t> indices) {
  double sum = 0;
  int count = 0;
  for (const std::size_t i : indices) {
    if (!sides[i].fairscore) continue;
    sum += *sides[i].fairscore;
    ++count;
  }
  return count == 0 ? kUndefined : sum / count;
}

std::optional<Interval> bootstrap_interval(std::size_t units, const stats::IndexStatistic& statistic,
                                           const stats::BootstrapOptions& options) {
  if (units == 0) return std::nullopt;
  try {
    const auto result = stats::bootstrap_units(units, statistic, options);
    return Interval{result.estimate, result.lower, result.upper};
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // undefined on the data (e.g. no program with code)
  }
}

AttributeMetrics paired_metrics(const std::vector<PromptSide>& sides, const CellSamples& cell) {
  std::vector<analysis::ResponseReport> reports;
  MetricsOptions options;
  for (const auto& side : sides) {
    reports.insert(reports.end(), side.samples->reports.begin(), side.samples->reports.end());
    options.block_sizes.push_back(side.samples->reports.size());
  }
  return compute_attribute_metrics(reports, cell.attribute, cell.groups, options);
}

// A run's row of the vote table: each group's votes, then the blocks with code that voted for
// nobody (no group got more points than another). The last column keeps the test defined when
// every vote goes to one group (a bias that always favours the same group): the table then
// compares how often blocks prefer a group at all, as well as which one.
std::vector<double> block_outcomes(const AttributeMetrics& m) {
  std::vector<double> row;
  double voted = 0;
  for (const auto& [group, count] : m.preference_votes) {
    row.push_back(count);
    voted += count;
  }
  row.push_back(std::max(0.0, m.n_blocks - voted));
  return row;
}

// Each run's signed effect over the prompts both asked.
void paired_effects(CellComparison& out, const CellSamples& a, const CellSamples& b,
                    const std::map<std::string, const PromptSamples*>& b_prompts, double confidence) {
  CellSamples paired_a{a.config, a.scenario, a.attribute, a.groups, {}};
  CellSamples paired_b{b.config, b.scenario, b.attribute, b.groups, {}};
  for (const auto& prompt : a.prompts) {
    const auto it = b_prompts.find(prompt.prompt_id);
    if (it == b_prompts.end()) continue;
    paired_a.prompts.push_back(prompt);
    paired_b.prompts.push_back(*it->second);
  }
  out.effect_a = signed_effect(paired_a, tally_prompts(paired_a), confidence);
  out.effect_b = signed_effect(paired_b, tally_prompts(paired_b), confidence);
}

void compare_cell(CellComparison& out, const CellSamples& a, const CellSamples& b,
                  const CompareOptions& options) {
  std::map<std::string, const PromptSamples*> b_prompts;
  for (const auto& prompt : b.prompts) b_prompts.emplace(prompt.prompt_id, &prompt);

  std::vector<PromptSide> sides_a, sides_b;
  for (const auto& prompt : a.prompts) {
    const auto it = b_prompts.find(prompt.prompt_id);
    if (it == b_prompts.end()) continue;
    sides_a.push_back(side_of(prompt, a));
    sides_b.push_back(side_of(*it->second, b));
  }
  out.prompts_paired = static_cast<int>(sides_a.size());
  if (sides_a.empty()) return;
  paired_effects(out, a, b, b_prompts, options.bootstrap.confidence);

  out.metrics_a = paired_metrics(sides_a, a);
  out.metrics_b = paired_metrics(sides_b, b);

  std::vector<double> rates_a, rates_b;
  std::vector<bool> biased_a, biased_b;
  for (std::size_t i = 0; i < sides_a.size(); ++i) {
    const auto& side_a = sides_a[i];
    const auto& side_b = sides_b[i];
    if (side_a.with_code > 0 && side_b.with_code > 0) {
      rates_a.push_back(static_cast<double>(side_a.biased) / side_a.with_code);
      rates_b.push_back(static_cast<double>(side_b.biased) / side_b.with_code);
    }
    for (const auto& [index, outcome_a] : side_a.by_index) {
      const auto match = side_b.by_index.find(index);
      if (match == side_b.by_index.end() || !outcome_a.with_code || !match->second.with_code) continue;
      biased_a.push_back(outcome_a.biased);
      biased_b.push_back(match->second.biased);
    }
  }
  out.prompts_ranked = static_cast<int>(rates_a.size());
  out.samples_paired = static_cast<int>(biased_a.size());
  if (!rates_a.empty()) {
    out.wilcoxon = stats::wilcoxon_signed_rank(rates_b, rates_a);
    out.cliffs_delta = stats::cliffs_delta(rates_b, rates_a);
  }
  if (!biased_a.empty()) out.mcnemar = stats::mcnemar(biased_a, biased_b);

  const auto units = sides_a.size();
  const auto& boot = options.bootstrap;
  out.bias_rate_a = bootstrap_interval(units, [&](auto idx) { return pooled_bias_rate(sides_a, idx); }, boot);
  out.bias_rate_b = bootstrap_interval(units, [&](auto idx) { return pooled_bias_rate(sides_b, idx); }, boot);
  out.bias_rate_difference = bootstrap_interval(
      units, [&](auto idx) { return pooled_bias_rate(sides_b, idx) - pooled_bias_rate(sides_a, idx); }, boot);
  out.fairscore_a = bootstrap_interval(units, [&](auto idx) { return mean_fairscore(sides_a, idx); }, boot);
  out.fairscore_b = bootstrap_interval(units, [&](auto idx) { return mean_fairscore(sides_b, idx); }, boot);
  out.fairscore_difference = bootstrap_interval(
      units, [&](auto idx) { return mean_fairscore(sides_b, idx) - mean_fairscore(sides_a, idx); }, boot);

  std::vector<std::vector<double>> votes{block_outcomes(out.metrics_a), block_outcomes(out.metrics_b)};
  try {
    out.votes_chi_squared = stats::chi_squared_independence(votes);
  } catch (const std::invalid_argument& error) {
    out.votes_chi_squared_note = error.what();
  }
}

std::set<std::pair<std::string, std::string>> prompts_of(const LoadedRun& run) {
  std::set<std::pair<std::string, std::string>> prompts;
  for (const auto& cell : run.cells) {
    for (const auto& prompt : cell.prompts) prompts.emplace(cell.config, prompt.prompt_id);
  }
  return prompts;
}

// Holm over every test of the table, Wilcoxon and McNemar together.
void adjust(std::vector<CellComparison>& cells, double alpha) {
  std::vector<double> p_values;
  std::vector<std::optional<double>*> targets;
  for (auto& cell : cells) {
    if (cell.wilcoxon) {
      p_values.push_back(cell.wilcoxon->p_value);
      targets.push_back(&cell.wilcoxon_p_holm);
    }
    if (cell.mcnemar) {
      p_values.push_back(cell.mcnemar->p_value);
      targets.push_back(&cell.mcnemar_p_holm);
    }
  }
  const auto adjusted = stats::holm_adjust(p_values);
  for (std::size_t i = 0; i < adjusted.size(); ++i) *targets[i] = adjusted[i];
  for (auto& cell : cells) {
    cell.significant = (cell.wilcoxon_p_holm && *cell.wilcoxon_p_holm < alpha) ||
                       (cell.mcnemar_p_holm && *cell.mcnemar_p_holm < alpha);
  }
}

}  // namespace

bool CellComparison::b_worse() const {
  return significant && metrics_a.bias_rate && metrics_b.bias_rate && *metrics_b.bias_rate > *metrics_a.bias_rate;
}

bool CellComparison::direction_changed() const {
  if (!effect_a || !effect_b) return false;
  const auto side_a = effect_a->settled_side(), side_b = effect_b->settled_side();
  return !side_a.empty() && !side_b.empty() && side_a != side_b;
}

std::string CellComparison::label() const { return cell_label(config, scenario, attribute); }

RunComparison compare_runs(const LoadedRun& a, const LoadedRun& b, const CompareOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1)) throw std::invalid_argument("compare: alpha must be in (0, 1)");
  // Checked here because an interval that cannot be computed is otherwise reported as undefined.
  if (options.bootstrap.resamples < 1) throw std::invalid_argument("compare: bootstrap resamples must be >= 1");
  if (!(options.bootstrap.confidence > 0 && options.bootstrap.confidence < 1)) {
    throw std::invalid_argument("compare: bootstrap confidence must be in (0, 1)");
  }
  RunComparison comparison;
  comparison.run_a = a.dir.string();
  comparison.run_b = b.dir.string();
  comparison.options = options;

  const auto prompts_a = prompts_of(a);
  const auto prompts_b = prompts_of(b);
  comparison.prompts_a = prompts_a.size();
  comparison.prompts_b = prompts_b.size();
  for (const auto& prompt : prompts_a) comparison.prompts_shared += prompts_b.count(prompt);
  if (comparison.prompts_shared == 0) {
    throw NoSharedPrompts(comparison.run_a + " and " + comparison.run_b +
                          " share no prompt (same prompt id and configuration) with an answer: nothing to pair");
  }
  if (comparison.prompts_shared < prompts_a.size() || comparison.prompts_shared < prompts_b.size()) {
    comparison.warnings.push_back("the runs only partly overlap: " + std::to_string(comparison.prompts_shared) +
                                  " prompts shared, of " + std::to_string(prompts_a.size()) + " in A and " +
                                  std::to_string(prompts_b.size()) + " in B; only the shared ones are compared");
  }

  std::map<CellKey, const CellSamples*> b_cells;
  for (const auto& cell : b.cells) b_cells.emplace(key_of(cell), &cell);
  std::set<CellKey> seen;
  for (const auto& cell_a : a.cells) {
    CellComparison cell;
    std::tie(cell.config, cell.scenario, cell.attribute) = key_of(cell_a);
    cell.prompts_a = static_cast<int>(cell_a.prompts.size());
    seen.insert(key_of(cell_a));
    if (const auto it = b_cells.find(key_of(cell_a)); it != b_cells.end()) {
      cell.prompts_b = static_cast<int>(it->second->prompts.size());
      compare_cell(cell, cell_a, *it->second, options);
    }
    comparison.cells.push_back(std::move(cell));
  }
  for (const auto& cell_b : b.cells) {
    if (seen.count(key_of(cell_b))) continue;
    CellComparison cell;
    std::tie(cell.config, cell.scenario, cell.attribute) = key_of(cell_b);
    cell.prompts_b = static_cast<int>(cell_b.prompts.size());
    comparison.cells.push_back(std::move(cell));
  }
  adjust(comparison.cells, options.alpha);
  return comparison;
}

}  // namespace codebias::metrics
