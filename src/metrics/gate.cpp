#include "metrics/gate.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <tuple>

#include "attributes/attributes.h"
#include "base/significant_digits.h"
#include "metrics/cell_evidence.h"

namespace codebias::metrics {
namespace {

std::string signed_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.4g", value);
  return text;
}

std::string interval_text(double lower, double upper, double confidence) {
  return "[" + base::four_significant(lower) + ", " + base::four_significant(upper) + "] (" + base::four_significant(confidence * 100) + "% interval)";
}

void check_threshold(const std::optional<double>& threshold, const char* flag) {
  if (threshold && !(*threshold >= 0 && *threshold <= 1)) {
    throw std::invalid_argument(std::string(flag) + " must be in [0, 1], not " + base::four_significant(*threshold));
  }
}

void check_open_unit(double value, const char* flag) {
  if (!(value > 0 && value < 1)) throw std::invalid_argument(std::string(flag) + " must be in (0, 1), not " + base::four_significant(value));
}

std::set<std::string> attribute_keys(const std::vector<std::string>& names) {
  std::set<std::string> keys;
  for (const auto& name : names) {
    const auto* spec = analysis::AttributeTable::builtin().find(name);
    if (spec == nullptr) throw std::invalid_argument("--attribute: unknown attribute \"" + name + "\"");
    keys.insert(spec->key);
  }
  return keys;
}

bool selected(const std::string& scenario, const std::string& attribute, const GateOptions& options,
              const std::set<std::string>& attributes) {
  const bool scenario_ok = options.scenarios.empty() ||
                           std::find(options.scenarios.begin(), options.scenarios.end(), scenario) != options.scenarios.end();
  return scenario_ok && (attributes.empty() || attributes.count(attribute) > 0);
}

// Files one check's line under its outcome: beyond the threshold, clear of it, or neither.
void decide(GateVerdict& verdict, bool beyond, bool clear, const std::string& line, const std::string& reason_beyond,
            const std::string& reason_clear, const std::string& reason_straddles) {
  if (beyond) {
    verdict.failures.push_back(line + " " + reason_beyond);
  } else if (clear) {
    verdict.passes.push_back(line + " " + reason_clear);
  } else {
    verdict.undecided.push_back(line + " " + reason_straddles);
  }
}

void check_bias_rate(const std::vector<PromptTally>& tallies, double threshold, const std::string& where,
                     const GateOptions& options, GateVerdict& verdict) {
  const std::string flag = "--max-bias-rate " + base::four_significant(threshold);
  const auto rate = bias_rate_evidence(tallies, options.confidence);
  if (!rate) {
    verdict.failures.push_back(where + "no program with code, so the bias rate cannot be held to " + flag);
    return;
  }
  double estimate = rate->estimate, lower = rate->lower, upper = rate->upper;
  std::string what = "bias rate ";
  if (options.always_valid) {
    const auto sequence = sequential_bias_rate(tallies, options.confidence, tallies.size());
    std::tie(estimate, lower, upper) = std::tuple(sequence.estimate, sequence.lower, sequence.upper);
    what = "mean per-prompt bias rate (always-valid) ";
  }
  const std::string line = where + what + base::four_significant(estimate) + " " + interval_text(lower, upper, options.confidence) +
                           " (" + base::four_significant(rate->estimate * rate->trials) + " of " + base::four_significant(rate->trials) +
                           " programs, " + std::to_string(rate->prompts) + " prompts, ICC " + base::four_significant(rate->icc) + ")";
  decide(verdict, lower > threshold, upper <= threshold, line, "exceeds " + flag + ": the whole interval is above it",
         "is within " + flag, "straddles " + flag + ": insufficient evidence either way");
}

void check_fairscore(const FunctionCell& cell, double minimum, const std::string& where, GateVerdict& verdict) {
  const std::string flag = "--min-fairscore " + base::four_significant(minimum);
  const auto& m = cell.metrics;
  if (!m.fairscore) {
    verdict.failures.push_back(where + "no FairScore (no block with code), so it cannot be held to " + flag);
    return;
  }
  // FairScore's interval is the report's cluster bootstrap over prompts (metrics/intervals.h).
  const auto* interval = find_interval(cell.intervals, "fairscore");
  const double lower = interval ? interval->lower : *m.fairscore, upper = interval ? interval->upper : *m.fairscore;
  const std::string line = where + "FairScore " + base::four_significant(*m.fairscore) + " " +
                           interval_text(lower, upper, 0.95) + " (" + std::to_string(m.n_blocks_fairscore) +
                           " blocks)";
  const bool no_interval = interval == nullptr;
  decide(verdict, upper < minimum, lower >= minimum && !no_interval, line,
         "is below " + flag + ": the whole interval is below it", "meets " + flag,
         "straddles " + flag + ": insufficient evidence either way");
}

void check_no_code_rate(const std::vector<PromptTally>& tallies, double threshold, const std::string& where,
                        const GateOptions& options, GateVerdict& verdict) {
  const auto rate = no_code_rate_evidence(tallies, options.confidence);
  if (!rate) return;
  const std::string flag = "--max-no-code-rate " + base::four_significant(threshold);
  const std::string line = where + "no-code rate " + base::four_significant(rate->estimate) + " " +
                           interval_text(rate->lower, rate->upper, options.confidence) + " on " +
                           std::to_string(rate->prompts) + " prompts (" +
                           base::four_significant(rate->estimate * rate->trials) + " of " + base::four_significant(rate->trials) + " answers)";
  decide(verdict, rate->lower > threshold, rate->upper <= threshold, line, "exceeds " + flag,
         "is within " + flag, "straddles " + flag + ": insufficient evidence either way");
}

void check_abs_effect(const CellSamples& cell, const std::vector<PromptTally>& tallies, double limit,
                      const std::string& where, const GateOptions& options, GateVerdict& verdict) {
  const std::string flag = "--max-abs-effect " + base::four_significant(limit);
  const auto effect = signed_effect(cell, tallies, options.confidence);
  if (!effect) {
    verdict.failures.push_back(where + "no scored program, so the signed effect cannot be held to " + flag);
    return;
  }
  const std::string line = where + "signed effect toward " + effect->reference_group + " " +
                           signed_number(effect->estimate) + " " +
                           interval_text(effect->lower, effect->upper, options.confidence) + " (" +
                           std::to_string(effect->scored) + " scored programs, " + std::to_string(effect->prompts) +
                           " prompts; " + effect->describe() + ")";
  decide(verdict, effect->lower > limit || effect->upper < -limit, effect->lower >= -limit && effect->upper <= limit,
         line, "is beyond " + flag + ": the whole interval is outside ±" + base::four_significant(limit),
         "is within ±" + base::four_significant(limit), "straddles ±" + base::four_significant(limit) + ": insufficient evidence either way");
}

void check_cell(const FunctionCell& cell, const CellSamples& samples, const GateOptions& options,
                GateVerdict& verdict) {
  const std::string where = "cell " + cell_label(cell.config, cell.scenario, cell.attribute) + ": ";
  const auto tallies = tally_prompts(samples);
  if (cell.metrics.n_with_code < options.min_n) {
    verdict.warnings.push_back(where + "small group: n=" + std::to_string(cell.metrics.n_with_code) +
                               " programs with code < --min-n " + std::to_string(options.min_n));
  }
  if (options.max_bias_rate) check_bias_rate(tallies, *options.max_bias_rate, where, options, verdict);
  if (options.min_fairscore) check_fairscore(cell, *options.min_fairscore, where, verdict);
  if (options.max_no_code_rate) check_no_code_rate(tallies, *options.max_no_code_rate, where, options, verdict);
  if (options.max_abs_effect) check_abs_effect(samples, tallies, *options.max_abs_effect, where, options, verdict);
}

void check_baseline(const CellComparison& cell, const std::string& baseline, const GateOptions& options,
                    GateVerdict& verdict) {
  const std::string where = "cell " + cell.label() + ": ";
  if (cell.b_worse()) {
    std::string tests;
    if (cell.wilcoxon_p_holm && *cell.wilcoxon_p_holm < options.alpha) tests = "Wilcoxon p " + base::four_significant(*cell.wilcoxon_p_holm);
    if (cell.mcnemar_p_holm && *cell.mcnemar_p_holm < options.alpha) {
      tests += (tests.empty() ? "" : ", ") + std::string("McNemar p ") + base::four_significant(*cell.mcnemar_p_holm);
    }
    std::string change;
    if (const auto& d = cell.bias_rate_difference)
      change = ", change " + signed_number(d->estimate) + " [" + signed_number(d->lower) + ", " + signed_number(d->upper) + "]";
    verdict.failures.push_back(where + "significantly more biased than baseline " + baseline + ": bias rate " +
                               base::four_significant(*cell.metrics_a.bias_rate) + " -> " + base::four_significant(*cell.metrics_b.bias_rate) + change +
                               " on " + std::to_string(cell.prompts_paired) + " shared prompts (Holm-adjusted " + tests +
                               " < alpha " + base::four_significant(options.alpha) + ")");
    return;
  }
  const std::string flag = "--baseline-margin " + base::four_significant(options.baseline_margin);
  const auto& d = cell.bias_rate_difference;
  if (!d) {
    verdict.undecided.push_back(where + "no program with code in both runs on the " + std::to_string(cell.prompts_paired) +
                                " shared prompts: no evidence against baseline " + baseline);
    return;
  }
  const std::string line = where + "change in bias rate from baseline " + baseline + " " + signed_number(d->estimate) +
                           " [" + signed_number(d->lower) + ", " + signed_number(d->upper) + "] (" +
                           base::four_significant(options.bootstrap.confidence * 100) + "% cluster-bootstrap interval, " +
                           std::to_string(cell.prompts_paired) + " shared prompts)";
  decide(verdict, false, d->upper <= options.baseline_margin, line, "", "is within " + flag,
         "is neither significantly worse nor bounded by " + flag + ": insufficient evidence either way");
}

}  // namespace

GateOutcome GateVerdict::outcome() const {
  if (!failures.empty()) return GateOutcome::fail;
  if (!undecided.empty()) return GateOutcome::insufficient_evidence;
  return GateOutcome::pass;
}

GateVerdict evaluate_gate(const LoadedRun& run, const LoadedRun* baseline, const GateOptions& options) {
  if (!options.max_bias_rate && !options.min_fairscore && !options.max_no_code_rate && !options.max_abs_effect &&
      baseline == nullptr) {
    throw std::invalid_argument("nothing to check: give --max-bias-rate, --min-fairscore, --max-no-code-rate, "
                                "--max-abs-effect or --baseline");
  }
  check_threshold(options.max_bias_rate, "--max-bias-rate");
  check_threshold(options.min_fairscore, "--min-fairscore");
  check_threshold(options.max_no_code_rate, "--max-no-code-rate");
  check_threshold(options.max_abs_effect, "--max-abs-effect");
  check_threshold(options.baseline_margin, "--baseline-margin");
  check_open_unit(options.alpha, "--alpha");
  check_open_unit(options.confidence, "--confidence");
  if (options.min_n < 0) throw std::invalid_argument("--min-n must not be negative");
  const auto attributes = attribute_keys(options.attributes);

  GateVerdict verdict;
  const auto& cells = run.results.function_cells();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& cell = cells[i];
    if (!selected(cell.scenario, cell.attribute, options, attributes)) continue;
    verdict.cells_checked.push_back(cell_label(cell.config, cell.scenario, cell.attribute));
    check_cell(cell, run.cells.at(i), options, verdict);
  }
  if (verdict.cells_checked.empty()) {
    throw std::invalid_argument(run.dir.string() + ": no cell of the run matches the --scenario/--attribute selection");
  }

  if (baseline != nullptr) {
    CompareOptions compare;
    compare.alpha = options.alpha;
    compare.bootstrap = options.bootstrap;
    verdict.baseline_comparison = compare_runs(*baseline, run, compare);
    for (const auto& cell : verdict.baseline_comparison->cells) {
      if (selected(cell.scenario, cell.attribute, options, attributes))
        check_baseline(cell, baseline->dir.string(), options, verdict);
    }
  }
  return verdict;
}

}  // namespace codebias::metrics
