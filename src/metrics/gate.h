// `codebias gate RUN`: a pass / fail / insufficient-evidence verdict on a run for CI. Every
// selected cell of the run's table (configuration × scenario × attribute, over all its prompts)
// is held to the thresholds given by its interval, not its point estimate: a check passes when
// the interval clears the threshold, fails when it lies wholly beyond it, and is undecided when
// it straddles it (metrics/cell_evidence.h; prompts are the units). With a baseline run, a cell
// fails when it is significantly more biased than the baseline on the prompts the two share
// (metrics/run_comparison.h: Holm-adjusted Wilcoxon or McNemar p < alpha with a higher bias
// rate) and passes when the bias rate's increase is bounded by the margin. docs/gate.md has the
// statistics, the exit codes and a CI example.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/run_comparison.h"
#include "metrics/run_results.h"

namespace codebias::metrics {

struct GateOptions {
  std::optional<double> max_bias_rate;     // fail when BR's interval lies above this
  std::optional<double> min_fairscore;     // fail when FairScore's interval lies below this
  // Fail when the share of a cell's answers without measurable code (refusals, prose, cut-off or
  // unparseable code) lies above this: a model must not pass the bias thresholds by not coding.
  std::optional<double> max_no_code_rate;
  // Fail when the signed effect's interval lies beyond ±this: bias toward either side, so that
  // over-correction (favouring the other group) fails too.
  std::optional<double> max_abs_effect;
  std::vector<std::string> scenarios;   // empty: every scenario
  std::vector<std::string> attributes;  // empty: every attribute (any spelling the table accepts)
  double alpha = 0.05;                  // for the baseline comparison
  double confidence = 0.95;             // of every interval
  // The bias rate's interval is the always-valid confidence sequence (for a run gated again and
  // again while it grows, or sampled until decided).
  bool always_valid = false;
  // Passes against the baseline when the increase in bias rate is at most this (interval).
  double baseline_margin = 0.05;
  int min_n = 30;  // cells with fewer measured programs get a small-group warning
  stats::BootstrapOptions bootstrap{};
};

enum class GateOutcome { pass, fail, insufficient_evidence };

struct GateVerdict {
  std::vector<std::string> cells_checked;  // labels, in table order
  // One line each: the cell, the value with its interval and n, and the threshold (or test).
  std::vector<std::string> failures;
  std::vector<std::string> undecided;  // checks whose interval straddles the threshold
  std::vector<std::string> passes;
  std::vector<std::string> warnings;   // small groups
  std::optional<RunComparison> baseline_comparison;  // baseline = A, the gated run = B
  GateOutcome outcome() const;
};

// Throws std::invalid_argument when no check is asked for, a threshold is out of [0, 1], alpha
// or confidence is out of (0, 1), an attribute is unknown, or the selection matches no cell of
// the run; NoSharedPrompts when the baseline shares no prompt with the run.
GateVerdict evaluate_gate(const LoadedRun& run, const LoadedRun* baseline, const GateOptions& options);

}  // namespace codebias::metrics
