#include "stats/wilcoxon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "stats/distributions.h"

namespace codebias::stats {
namespace {

constexpr int kExactLimit = 60;  // 2^60 sign patterns still fit the uint64 counts

struct SignedRanks {
  double w_plus = 0;
  double w_minus = 0;
  bool ties = false;
  double tie_term = 0;  // Σ (t³ − t) over groups of t tied |differences|
};

// Mid-ranks of |d| (all d non-zero), summed by sign.
SignedRanks rank_differences(const std::vector<double>& nonzero) {
  std::vector<std::size_t> order(nonzero.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(nonzero[a]) < std::abs(nonzero[b]);
  });
  SignedRanks ranks;
  std::size_t start = 0;
  while (start < order.size()) {
    std::size_t end = start + 1;
    while (end < order.size() && std::abs(nonzero[order[end]]) == std::abs(nonzero[order[start]])) {
      ++end;
    }
    // Positions start..end−1 hold ranks start+1..end; each gets their mean.
    const double mid_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
    const double tied = static_cast<double>(end - start);
    if (end - start > 1) {
      ranks.ties = true;
      ranks.tie_term += tied * tied * tied - tied;
    }
    for (std::size_t i = start; i < end; ++i) {
      (nonzero[order[i]] > 0 ? ranks.w_plus : ranks.w_minus) += mid_rank;
    }
    start = end;
  }
  return ranks;
}

// counts[w] = number of the 2^n sign patterns of ranks 1..n whose positive ranks sum to w.
std::vector<std::uint64_t> null_distribution_counts(int n) {
  const int max_sum = n * (n + 1) / 2;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(max_sum) + 1, 0);
  counts[0] = 1;
  for (int rank = 1; rank <= n; ++rank) {
    // Descending so that each rank is used at most once (0/1 knapsack).
    for (int w = rank * (rank + 1) / 2; w >= rank; --w) counts[w] += counts[w - rank];
  }
  return counts;
}

double exact_p_value(int n, double w_plus, Alternative alternative) {
  const std::vector<std::uint64_t> counts = null_distribution_counts(n);
  const auto w = static_cast<std::size_t>(std::llround(w_plus));  // integer: no ties here
  std::uint64_t at_most = 0;
  std::uint64_t at_least = 0;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (s <= w) at_most += counts[s];
    if (s >= w) at_least += counts[s];
  }
  const double total = std::ldexp(1.0, n);
  const double lower = static_cast<double>(at_most) / total;
  const double upper = static_cast<double>(at_least) / total;
  switch (alternative) {
    case Alternative::greater: return upper;
    case Alternative::less: return lower;
    case Alternative::two_sided: break;
  }
  return std::min(1.0, 2.0 * std::min(lower, upper));
}

// z of W+ under the normal approximation; the continuity correction moves W+ half a unit
// toward the mean, in the direction the alternative looks at.
double normal_z(double w_plus, int n, double tie_term, const WilcoxonOptions& options) {
  const double nd = n;
  const double mean = nd * (nd + 1) / 4.0;
  // Positive for every n ≥ 1, even when all |differences| tie.
  const double variance = nd * (nd + 1) * (2 * nd + 1) / 24.0 - tie_term / 48.0;
  const double correction = options.continuity_correction ? 0.5 : 0.0;
  double deviation = w_plus - mean;
  switch (options.alternative) {
    case Alternative::greater: deviation -= correction; break;
    case Alternative::less: deviation += correction; break;
    case Alternative::two_sided:
      deviation = std::copysign(std::max(0.0, std::abs(deviation) - correction), deviation);
      break;
  }
  return deviation / std::sqrt(variance);
}

double normal_p_value(double z, Alternative alternative) {
  switch (alternative) {
    case Alternative::greater: return normal_sf(z);
    case Alternative::less: return normal_cdf(z);
    case Alternative::two_sided: break;
  }
  return std::min(1.0, 2.0 * normal_sf(std::abs(z)));
}

}  // namespace

WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    const WilcoxonOptions& options) {
  if (options.exact_max_n < 0 || options.exact_max_n > kExactLimit) {
    throw std::invalid_argument("wilcoxon_signed_rank: exact_max_n must be in [0, " +
                                std::to_string(kExactLimit) + "], got " +
                                std::to_string(options.exact_max_n));
  }
  WilcoxonResult result;
  result.alternative = options.alternative;
  std::vector<double> nonzero;
  for (std::size_t i = 0; i < differences.size(); ++i) {
    if (!std::isfinite(differences[i])) {
      throw std::invalid_argument("wilcoxon_signed_rank: difference " + std::to_string(i) +
                                  " is not a finite number");
    }
    if (differences[i] == 0) {
      ++result.n_zero;
    } else {
      nonzero.push_back(differences[i]);
    }
  }
  result.n_used = static_cast<int>(nonzero.size());
  if (nonzero.empty()) return result;  // method no_differences, p = 1

  const SignedRanks ranks = rank_differences(nonzero);
  result.w_plus = ranks.w_plus;
  result.w_minus = ranks.w_minus;
  result.ties = ranks.ties;
  result.statistic = options.alternative == Alternative::two_sided
                         ? std::min(ranks.w_plus, ranks.w_minus)
                         : ranks.w_plus;
  result.z = normal_z(ranks.w_plus, result.n_used, ranks.tie_term, options);
  if (!ranks.ties && result.n_used <= options.exact_max_n) {
    result.method = WilcoxonMethod::exact;
    result.p_value = exact_p_value(result.n_used, ranks.w_plus, options.alternative);
  } else {
    result.method = WilcoxonMethod::normal;
    result.p_value = normal_p_value(result.z, options.alternative);
  }
  return result;
}

WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                    const WilcoxonOptions& options) {
  if (x.size() != y.size()) {
    throw std::invalid_argument("wilcoxon_signed_rank: paired samples differ in size (" +
                                std::to_string(x.size()) + " vs " + std::to_string(y.size()) + ")");
  }
  std::vector<double> differences(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      throw std::invalid_argument("wilcoxon_signed_rank: pair " + std::to_string(i) +
                                  " holds a value that is not a finite number");
    }
    differences[i] = x[i] - y[i];
  }
  return wilcoxon_signed_rank(differences, options);
}

}  // namespace codebias::stats
