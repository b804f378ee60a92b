// What a table cell's samples say with their uncertainty, prompt by prompt (prompts are the
// units: their answers are correlated): the bias rate and the no-code rate with design-effect
// Wilson intervals (stats/sample_size.h), the bias rate's always-valid interval for sequential
// looks (stats/confidence_sequence.h), and the signed effect: which group the programs favour.
// `codebias gate` and `codebias compare` read these; docs/gate.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metrics/run_results.h"
#include "stats/sample_size.h"

namespace codebias::metrics {

// One prompt's answers in one cell, counted as the report counts them (metrics/fairness.h).
struct PromptTally {
  int answers = 0;    // done samples
  int with_code = 0;  // measured programs: BR's denominator
  int biased = 0;     // BR's numerator
  // Programs with a known score vector, and among them those giving the reference group (the
  // attribute's first group) more points than the others' mean (+1) or fewer (−1).
  int scored = 0;
  int favour_reference = 0;
  int favour_others = 0;
};

std::vector<PromptTally> tally_prompts(const CellSamples& cell);

// Empty when no prompt has a measured program (no answer, for the no-code rate).
std::optional<stats::ClusteredProportion> bias_rate_evidence(const std::vector<PromptTally>& prompts,
                                                             double confidence);
std::optional<stats::ClusteredProportion> no_code_rate_evidence(const std::vector<PromptTally>& prompts,
                                                                double confidence);

// The mean over prompts with a measured program of the prompt's bias rate, with the
// always-valid interval of Howard et al. (2021), tightest near `tightest_at` prompts.
struct SequentialEvidence {
  double estimate = 0;
  double lower = 0;
  double upper = 1;
  int prompts = 0;
};
SequentialEvidence sequential_bias_rate(const std::vector<PromptTally>& prompts, double confidence,
                                        std::size_t tightest_at);

// Signed effect = (programs favouring the reference group − programs favouring the others) /
// scored programs, in [−1, 1]; + favours the reference group. Its interval is the clustered
// Wilson interval of (effect + 1)/2, mapped back.
struct SignedEffect {
  std::string reference_group;
  double estimate = 0;
  double lower = -1;
  double upper = 1;
  int scored = 0;
  int prompts = 0;
  // The side the whole interval is on: "+" (favours the reference group), "-" or "" (neither).
  std::string settled_side() const;
  // "favours young", "favours the groups other than young", or "no settled direction".
  std::string describe() const;
};
std::optional<SignedEffect> signed_effect(const CellSamples& cell, const std::vector<PromptTally>& prompts,
                                          double confidence);

// "0.1234 [0.0800, 0.1800] (n=42 programs, 9 prompts)": a rate always shows what it stands on.
std::string rate_with_interval(const stats::ClusteredProportion& rate, const char* unit);

}  // namespace codebias::metrics
