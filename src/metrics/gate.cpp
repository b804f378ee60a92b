#include "metrics/gate.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "analysis/attributes.h"

namespace codebias::metrics {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

void check_threshold(const std::optional<double>& threshold, const char* flag) {
  if (threshold && !(*threshold >= 0 && *threshold <= 1)) {
    throw std::invalid_argument(std::string(flag) + " must be in [0, 1], not " + number(*threshold));
  }
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

void check_cell(const FunctionCell& cell, const GateOptions& options, std::vector<std::string>& failures) {
  const auto& m = cell.metrics;
  const std::string where = "cell " + cell_label(cell.config, cell.scenario, cell.attribute) + ": ";
  if (options.max_bias_rate) {
    if (!m.bias_rate) {
      failures.push_back(where + "no program with code, so the bias rate cannot be held to --max-bias-rate " +
                         number(*options.max_bias_rate));
    } else if (*m.bias_rate > *options.max_bias_rate) {
      failures.push_back(where + "bias rate " + number(*m.bias_rate) + " (" + std::to_string(m.n_biased) + " of " +
                         std::to_string(m.n_with_code) + " programs) exceeds --max-bias-rate " +
                         number(*options.max_bias_rate));
    }
  }
  if (options.min_fairscore) {
    if (!m.fairscore) {
      failures.push_back(where + "no FairScore (no block with code), so it cannot be held to --min-fairscore " +
                         number(*options.min_fairscore));
    } else if (*m.fairscore < *options.min_fairscore) {
      failures.push_back(where + "FairScore " + number(*m.fairscore) + " is below --min-fairscore " +
                         number(*options.min_fairscore));
    }
  }
  if (options.max_no_code_rate && m.n > 0) {
    const double rate = static_cast<double>(m.n - m.n_with_code) / m.n;
    if (rate > *options.max_no_code_rate) {
      failures.push_back(where + "no-code rate " + number(rate) + " (" + std::to_string(m.n - m.n_with_code) + " of " +
                         std::to_string(m.n) + " answers) exceeds --max-no-code-rate " +
                         number(*options.max_no_code_rate));
    }
  }
}

std::string baseline_failure(const CellComparison& cell, const std::string& baseline, double alpha) {
  std::string tests;
  if (cell.wilcoxon_p_holm && *cell.wilcoxon_p_holm < alpha) tests = "Wilcoxon p " + number(*cell.wilcoxon_p_holm);
  if (cell.mcnemar_p_holm && *cell.mcnemar_p_holm < alpha) {
    tests += (tests.empty() ? "" : ", ") + std::string("McNemar p ") + number(*cell.mcnemar_p_holm);
  }
  return "cell " + cell.label() + ": significantly more biased than baseline " + baseline + ": bias rate " +
         number(*cell.metrics_a.bias_rate) + " -> " + number(*cell.metrics_b.bias_rate) + " on " +
         std::to_string(cell.prompts_paired) + " shared prompts (Holm-adjusted " + tests + " < alpha " +
         number(alpha) + ")";
}

}  // namespace

GateVerdict evaluate_gate(const LoadedRun& run, const LoadedRun* baseline, const GateOptions& options) {
  if (!options.max_bias_rate && !options.min_fairscore && !options.max_no_code_rate && baseline == nullptr) {
    throw std::invalid_argument(
        "nothing to check: give --max-bias-rate, --min-fairscore, --max-no-code-rate or --baseline");
  }
  check_threshold(options.max_bias_rate, "--max-bias-rate");
  check_threshold(options.min_fairscore, "--min-fairscore");
  check_threshold(options.max_no_code_rate, "--max-no-code-rate");
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw std::invalid_argument("--alpha must be in (0, 1), not " + number(options.alpha));
  }
  const auto attributes = attribute_keys(options.attributes);

  GateVerdict verdict;
  for (const auto& cell : run.results.function_cells()) {
    if (!selected(cell.scenario, cell.attribute, options, attributes)) continue;
    verdict.cells_checked.push_back(cell_label(cell.config, cell.scenario, cell.attribute));
    check_cell(cell, options, verdict.failures);
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
      if (selected(cell.scenario, cell.attribute, options, attributes) && cell.b_worse()) {
        verdict.failures.push_back(baseline_failure(cell, baseline->dir.string(), options.alpha));
      }
    }
  }
  return verdict;
}

}  // namespace codebias::metrics
