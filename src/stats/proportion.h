// Confidence intervals for a binomial proportion.
//
// Wilson score interval (Wilson 1927; Agresti & Coull 1998, "Approximate is better than 'exact'"):
// the set of p whose score test does not reject at level 1 − confidence,
//   centre = (x + z²/2) / (n + z²),  half-width = z·√(x(n − x)/n + z²/4) / (n + z²),
// z the (1 + confidence)/2 normal quantile. Unlike the Wald interval it stays inside [0, 1] and
// keeps its coverage near 0 and 1, where CAT scores of small samples often are.
#pragma once

namespace codebias::stats {

struct ProportionInterval {
  double lower = 0;
  double upper = 0;
};

// successes x and trials n (weighted counts allowed), 0 ≤ x ≤ n, n > 0, confidence in (0, 1).
// Throws std::invalid_argument otherwise.
ProportionInterval wilson_interval(double successes, double trials, double confidence = 0.95);

}  // namespace codebias::stats
