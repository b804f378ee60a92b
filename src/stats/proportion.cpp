#include "stats/proportion.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stats/distributions.h"

namespace codebias::stats {

ProportionInterval wilson_interval(double successes, double trials, double confidence) {
  if (!(std::isfinite(successes) && std::isfinite(trials)) || trials <= 0 || successes < 0 || successes > trials)
    throw std::invalid_argument("wilson_interval: need 0 <= successes <= trials and trials > 0");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("wilson_interval: confidence must be in (0, 1)");
  const double z = normal_quantile((1 + confidence) / 2);
  const double z2 = z * z;
  const double centre = (successes + z2 / 2) / (trials + z2);
  const double half = z * std::sqrt(successes * (trials - successes) / trials + z2 / 4) / (trials + z2);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace codebias::stats
