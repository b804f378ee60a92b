// Holm–Bonferroni step-down adjustment (Holm 1979, "A simple sequentially rejective multiple test
// procedure") for the family of tests in one table, e.g. one Wilcoxon per (attribute, metric)
// cell of `codebias compare`. Controls the family-wise error rate under any dependence.
#pragma once

#include <span>
#include <vector>

namespace codebias::stats {

// Adjusted p-values in the input order: with p sorted ascending p₍₁₎ ≤ ... ≤ p₍ₘ₎,
// p̃₍ᵢ₎ = min(1, max_{j ≤ i} (m − j + 1)·p₍ⱼ₎). Rejecting H₍ᵢ₎ when p̃₍ᵢ₎ ≤ α is Holm's procedure
// at level α. Equal p-values keep their input order (the result does not depend on it).
// Throws std::invalid_argument when a p-value is NaN or outside [0, 1]. Empty in, empty out.
std::vector<double> holm_adjust(std::span<const double> p_values);

}  // namespace codebias::stats
