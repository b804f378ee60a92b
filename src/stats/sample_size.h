// Sample sizes and intervals for proportions measured on clustered samples: a prompt is asked
// several times and its answers are correlated, so prompts, not answers, are the independent
// units (the cluster design the reports' cluster bootstrap also uses).
//
// The cluster design in one number, Kish's design effect (Kish 1965, Survey Sampling, §5.4):
//   deff = 1 + (m − 1)·ρ, m answers per prompt, ρ the intraclass correlation of the outcome,
// so n clustered answers carry the information of n / deff independent ones (the effective n).
//
// Sample sizes are those of the normal-approximation score tests (Fleiss, Levin & Paik 2003,
// Statistical Methods for Rates and Proportions, 3rd ed., §2.5 and §4.2; Chow, Shao & Wang
// 2008, Sample Size Calculations in Clinical Research, §4), at one-sided level (1 − confidence)/2:
// a gate decides "beyond the threshold" when the two-sided interval at `confidence` lies wholly
// on one side of it, which is that one-sided test.
#pragma once

#include <span>

namespace codebias::stats {

// 1 + (m − 1)·ρ; m ≥ 1, ρ in [0, 1]. Throws std::invalid_argument otherwise.
double design_effect(double answers_per_prompt, double icc);

// The design effect the gate applies, on average, to a run of `prompts` prompts of m answers when
// the true intraclass correlation is ρ: the gate estimates ρ from the run itself
// (intraclass_correlation, clipped at 0), so it applies 1 + (m − 1)·E[max(ρ̂, 0)], which exceeds
// Kish's 1 + (m − 1)·ρ most where ρ is near 0 (ρ̂ is then positive about half the time). ρ̂ is
// taken as normal around ρ with the large-sample variance of the ANOVA estimator (Fisher 1925;
// Donner 1986, eq. 3.4): v = 2(1 − ρ)²(1 + (m − 1)ρ)² / (m(m − 1)(k − 1)), so
//   E[max(ρ̂, 0)] = ρ·Φ(ρ/√v) + √v·φ(ρ/√v).
// `codebias plan` sizes runs with it, so that plan and gate apply the same design effect. With
// fewer than two prompts the gate takes ρ̂ = 1 (design effect m); with m = 1 it is 1.
double gate_design_effect(double answers_per_prompt, double icc, double prompts);

// Independent answers needed for the interval of a rate whose true value is `rate` to lie wholly
// beyond `threshold` with probability `power`:
//   n = ((z_a·√(p0·q0) + z_b·√(p1·q1)) / (p1 − p0))², z_a = Φ⁻¹((1 + confidence)/2), z_b = Φ⁻¹(power).
// Rates in (0, 1), rate ≠ threshold; confidence and power in (0, 1).
double one_proportion_sample_size(double threshold, double rate, double confidence, double power);

// Independent answers per run needed to see a difference between two runs' rates (Fleiss et al.
// §4.2, without continuity correction): n = ((z_a·√(2·p̄·q̄) + z_b·√(pa·qa + pb·qb)) / (pb − pa))².
double two_proportion_sample_size(double rate_a, double rate_b, double confidence, double power);

// Independent decisions per group needed to see that an impact ratio (selection rate of the
// disadvantaged group / that of the reference group) of `ratio` lies below `threshold_ratio`
// (e.g. the four-fifths rule's 0.8), on the log scale (delta method):
//   n = (z_a + z_b)²·((1 − p_ref)/p_ref + (1 − p)/p) / (ln ratio − ln threshold)², p = ratio·p_ref.
double impact_ratio_sample_size(double reference_rate, double ratio, double threshold_ratio, double confidence,
                                double power);

// One prompt's outcomes: `successes` of `trials` answers (weighted counts allowed).
struct ClusterCount {
  double successes = 0;
  double trials = 0;
};

// The one-way ANOVA estimator of ρ for a binary outcome with unequal cluster sizes (Donner 1986,
// Int. Stat. Rev. 54, 67–82), clipped to [0, 1]. Fewer than two prompts with answers: 1 (nothing
// is known about how prompts differ, so each prompt counts once); no variation at all: 0.
double intraclass_correlation(std::span<const ClusterCount> prompts);

struct ClusteredProportion {
  double estimate = 0;     // pooled: Σ successes / Σ trials
  double lower = 0;
  double upper = 0;
  double icc = 0;
  double design_effect = 1;
  double effective_n = 0;  // Σ trials / design effect
  int prompts = 0;         // prompts with at least one trial
  double trials = 0;
};

// The Wilson score interval (stats/proportion.h) on the effective sample: the pooled rate with
// Σ trials / deff trials, deff from the estimated ρ and the mean answers per prompt. Throws
// std::invalid_argument when there is no trial or confidence is outside (0, 1).
ClusteredProportion clustered_wilson_interval(std::span<const ClusterCount> prompts, double confidence);

}  // namespace codebias::stats
