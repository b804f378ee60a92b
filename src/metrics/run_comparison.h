// `codebias compare RUN_A RUN_B`: is run B more (or less) biased than run A, cell by cell? The
// computation; reports/compare.h prints it.
//
// The runs are paired on what they share: within a table cell (configuration × scenario ×
// attribute) a prompt is paired when both runs asked it (same prompt id, same configuration
// label), and a sample when both runs hold a response with code for the same prompt and sample
// index. Every figure is computed over the paired prompts only, so A and B are measured on the
// same questions. Differences are B − A. The procedure (docs/gate.md, "codebias compare"):
//   * per-prompt bias rate = biased / with code among the prompt's samples; prompts where both
//     runs have code give the paired rates → Wilcoxon signed-rank (two-sided) on B − A, and
//     Cliff's δ of B's rates against A's (independent groups, as ProbeDebias reports it);
//   * McNemar on the paired samples (b = biased in A only, c = biased in B only);
//   * Holm's correction over every Wilcoxon and McNemar p-value of the table together, so that
//     "significant" (either adjusted p < alpha) keeps the family-wise error rate at alpha;
//   * percentile cluster-bootstrap intervals over the paired prompts (seeded) for each run's
//     bias rate and FairScore and for their differences (A and B resampled together);
//   * chi-squared test of independence on the 2 × (|groups| + 1) table of block outcomes: rows
//     run A and run B; a column per group holding FairCoder's preference votes (one per prompt
//     block, a tie of k top groups gives each 1/k), and a last column for the blocks with code
//     that preferred no group;
//   * each run's signed effect (which group the programs favour) with its interval, and a change
//     of direction when both are settled on opposite sides.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics/cell_evidence.h"
#include "metrics/fairness.h"
#include "metrics/run_results.h"
#include "stats/bootstrap.h"
#include "stats/chi_squared.h"
#include "stats/cliffs_delta.h"
#include "stats/mcnemar.h"
#include "stats/wilcoxon.h"

namespace codebias::metrics {

struct CompareOptions {
  double alpha = 0.05;  // in (0, 1)
  stats::BootstrapOptions bootstrap{};
};

// A percentile bootstrap interval around the statistic on the paired data.
struct Interval {
  double estimate = 0;
  double lower = 0;
  double upper = 0;
};

struct CellComparison {
  std::string config;
  std::string scenario;
  std::string attribute;
  int prompts_a = 0;          // prompts of the cell in run A
  int prompts_b = 0;          // ... in run B
  int prompts_paired = 0;     // in both
  int prompts_ranked = 0;     // paired, with code in both runs: the Wilcoxon pairs
  int samples_paired = 0;     // McNemar pairs

  // Each run's metrics over the paired prompts.
  AttributeMetrics metrics_a;
  AttributeMetrics metrics_b;

  // Empty when undefined (no code in the paired prompts, or no block with a FairScore).
  std::optional<Interval> bias_rate_a, bias_rate_b, bias_rate_difference;
  std::optional<Interval> fairscore_a, fairscore_b, fairscore_difference;

  std::optional<stats::WilcoxonResult> wilcoxon;  // empty when no prompt has code in both runs
  std::optional<double> wilcoxon_p_holm;
  std::optional<stats::CliffsDeltaResult> cliffs_delta;  // B's per-prompt rates vs A's
  std::optional<stats::McNemarResult> mcnemar;         // empty when no sample pairs
  std::optional<double> mcnemar_p_holm;

  std::optional<stats::IndependenceResult> votes_chi_squared;
  std::string votes_chi_squared_note;  // why the test was not run, when it was not

  // Each run's signed effect over the paired prompts (metrics/cell_evidence.h), with intervals
  // at the bootstrap's confidence; empty without a scored program.
  std::optional<SignedEffect> effect_a, effect_b;
  // Both effects settled (interval clear of 0) and on opposite sides: the favoured group flipped.
  bool direction_changed() const;

  bool significant = false;  // a Holm-adjusted p-value below alpha
  // Significant with B's bias rate above A's (over the paired prompts).
  bool b_worse() const;
  std::string label() const;
};

struct RunComparison {
  std::string run_a;  // the directories, as given
  std::string run_b;
  CompareOptions options;
  std::size_t prompts_a = 0;       // distinct (configuration, prompt) with a done sample
  std::size_t prompts_b = 0;
  std::size_t prompts_shared = 0;  // in both
  std::vector<std::string> warnings;
  std::vector<CellComparison> cells;  // run A's cell order, then cells only B has
};

// Thrown when the runs share no prompt: nothing can be paired.
struct NoSharedPrompts : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Throws NoSharedPrompts, or std::invalid_argument for options out of range (alpha outside
// (0, 1), fewer than 1 bootstrap resample, a confidence outside (0, 1)).
RunComparison compare_runs(const LoadedRun& a, const LoadedRun& b, const CompareOptions& options = {});

}  // namespace codebias::metrics
