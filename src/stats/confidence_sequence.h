// An always-valid (time-uniform) confidence sequence for the mean of values in [0, 1]: the
// intervals hold at every sample size at once with probability ≥ confidence, so a run may look
// after every prompt and stop as soon as the interval decides without inflating its error
// (a fixed-n interval looked at repeatedly would).
//
// Howard, Ramdas, McAuliffe & Sekhon (2021), "Time-uniform, nonparametric, nonasymptotic
// confidence sequences", Annals of Statistics 49(2), 1055–1080: the two-sided normal-mixture
// boundary (Robbins 1970). Values in [0, 1] are sub-Gaussian with variance proxy σ² = 1/4
// (Hoeffding's lemma), so S_t = Σ (x_i − μ) satisfies, for all t at once with probability
// ≥ 1 − α,
//   |S_t| < √((V_t + ρ)·ln((V_t + ρ) / (ρ·α²))),  V_t = t·σ²,
// (mixing exp(λS_t − λ²V_t/2) over λ ~ N(0, 1/ρ) and applying Ville's inequality). The interval at
// t is mean_t ± that radius / t. ρ sets where the boundary is tightest: we take the ρ that
// minimises the radius at `tightest_at` values (found numerically).
#pragma once

#include <cstddef>

namespace codebias::stats {

struct SequenceInterval {
  double estimate = 0;  // mean of the values so far
  double lower = 0;
  double upper = 0;
};

// The radius |S_t| / t may not reach, for t values, at level 1 − confidence; ρ as above.
double normal_mixture_radius(std::size_t t, double confidence, double rho);
// The ρ minimising the radius at t = tightest_at (≥ 1).
double normal_mixture_rho(std::size_t tightest_at, double confidence);

// The interval after `count` values summing to `sum` (each in [0, 1]), clipped to [0, 1].
// count 0: [0, 1]. Throws std::invalid_argument for confidence outside (0, 1) or sum outside
// [0, count].
SequenceInterval mean_confidence_sequence(double sum, std::size_t count, double confidence,
                                          std::size_t tightest_at);

}  // namespace codebias::stats
