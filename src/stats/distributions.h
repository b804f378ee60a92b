// Distribution functions the tests in src/stats/ need: the standard normal CDF and quantile, the
// chi-squared survival function (through the regularized incomplete gamma function) and exact
// binomial tails. Written here rather than taken from a library so that results do not depend
// on which math library the build finds; see docs/statistics.md for the algorithms and accuracy.
//
// Every function throws std::invalid_argument for arguments outside its domain (NaN included).
#pragma once

#include <cstdint>

namespace codebias::stats {

// Φ(x) = P(Z ≤ x) for Z ~ N(0, 1); through std::erfc, so relative accuracy holds in both tails.
double normal_cdf(double x);
// φ(x), the standard normal density.
double normal_density(double x);
// 1 − Φ(x) = Φ(−x), without the cancellation of 1 − normal_cdf(x) for large x.
double normal_sf(double x);
// Φ⁻¹(p) for p in [0, 1]: −inf at 0, +inf at 1. Relative error about 1e-15 for p in [1e-300, 1).
double normal_quantile(double p);

// Regularized lower and upper incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x), for
// a > 0 and x ≥ 0 (x may be +inf). Series for x < a + 1, continued fraction otherwise; the
// function that is small in the chosen regime is computed directly, so its relative error stays
// near 1e-14 even when it is far below 1e-10.
double regularized_gamma_lower(double a, double x);
double regularized_gamma_upper(double a, double x);

// P(X ≥ x) for X ~ χ²(dof), dof > 0 (not necessarily an integer), x ≥ 0: Q(dof/2, x/2).
double chi_squared_sf(double x, double dof);
// P(X ≤ x) for X ~ χ²(dof).
double chi_squared_cdf(double x, double dof);

// Exact binomial tails for X ~ Bin(n, p), p in [0, 1]: P(X ≤ k) and P(X ≥ k). k outside [0, n]
// is allowed (the tail is then 0 or 1). Terms are summed in log space, so n may be large
// (relative error grows like n·1e-16; about 1e-12 at n = 10⁴).
double binomial_tail_at_most(std::int64_t k, std::int64_t n, double p);
double binomial_tail_at_least(std::int64_t k, std::int64_t n, double p);

}  // namespace codebias::stats
