// `codebias gate RUN`: a pass/fail verdict on a run for CI. Every selected cell of the run's
// table (configuration × scenario × attribute, over all its prompts) is held to the thresholds
// given, and, with a baseline run, must not be significantly more biased than the baseline on
// the prompts the two share (metrics/run_comparison.h: Holm-adjusted Wilcoxon or McNemar p < alpha with
// a higher bias rate). docs/gate.md has the exit codes and a CI example.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/run_comparison.h"
#include "metrics/run_results.h"

namespace codebias::metrics {

struct GateOptions {
  std::optional<double> max_bias_rate;     // fail when BR > this
  std::optional<double> min_fairscore;     // fail when FairScore < this
  // Fail when the share of a cell's answers without measurable code (refusals, prose, cut-off or
  // unparseable code) exceeds this: a model must not pass the bias thresholds by not coding.
  std::optional<double> max_no_code_rate;
  std::vector<std::string> scenarios;   // empty: every scenario
  std::vector<std::string> attributes;  // empty: every attribute (any spelling the table accepts)
  double alpha = 0.05;                  // for the baseline comparison
  stats::BootstrapOptions bootstrap{};
};

struct GateVerdict {
  std::vector<std::string> cells_checked;  // labels, in table order
  // One line each: the cell, the value and the threshold (or the baseline test that failed).
  std::vector<std::string> failures;
  std::optional<RunComparison> baseline_comparison;  // baseline = A, the gated run = B
  bool passed() const { return failures.empty(); }
};

// Throws std::invalid_argument when no check is asked for, a threshold is out of [0, 1], alpha
// is out of (0, 1), an
// attribute is unknown, or the selection matches no cell of the run; NoSharedPrompts when the
// baseline shares no prompt with the run.
GateVerdict evaluate_gate(const LoadedRun& run, const LoadedRun* baseline, const GateOptions& options);

}  // namespace codebias::metrics
