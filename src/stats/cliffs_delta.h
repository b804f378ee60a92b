// Cliff's δ (Cliff 1993), the effect size ProbeDebias (seeds/001, Table 3) reports beside its
// Wilcoxon p-values: δ = P(X > Y) − P(X < Y) over all pairs of one value from each sample,
// in [−1, 1]; positive when x tends to be larger. The samples are treated as independent groups
// (as ProbeDebias does), so the sizes may differ.
//
// Magnitude thresholds: Romano, Kromrey, Coraggio & Skowronek (2006), "Appropriate statistics for
// ordinal level data", |δ| < 0.147 negligible, < 0.33 small, < 0.474 medium, otherwise large.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace codebias::stats {

enum class EffectMagnitude { negligible, small, medium, large };

constexpr std::string_view to_string(EffectMagnitude magnitude) {
  switch (magnitude) {
    case EffectMagnitude::negligible: return "negligible";
    case EffectMagnitude::small: return "small";
    case EffectMagnitude::medium: return "medium";
    case EffectMagnitude::large: return "large";
  }
  return "unknown";
}

struct CliffsDeltaResult {
  double delta = 0;
  EffectMagnitude magnitude = EffectMagnitude::negligible;
  std::size_t n_x = 0;
  std::size_t n_y = 0;
  std::size_t greater_pairs = 0;  // pairs with x > y
  std::size_t less_pairs = 0;     // pairs with x < y
};

// The Romano et al. class of |delta|.
EffectMagnitude cliffs_delta_magnitude(double delta);

// O((m + n) log n): y is sorted once and each x is located by binary search. Throws
// std::invalid_argument when a sample is empty or holds a non-finite value.
CliffsDeltaResult cliffs_delta(std::span<const double> x, std::span<const double> y);

}  // namespace codebias::stats
