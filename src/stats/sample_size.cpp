#include "stats/sample_size.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats/distributions.h"
#include "stats/proportion.h"

namespace codebias::stats {
namespace {

void require_open_unit(double value, const char* what) {
  if (!(value > 0 && value < 1)) throw std::invalid_argument(std::string(what) + " must be in (0, 1), not " + std::to_string(value));
}

// z of the one-sided test at level (1 − confidence)/2, and z of the power.
std::pair<double, double> z_values(double confidence, double power) {
  require_open_unit(confidence, "confidence");
  require_open_unit(power, "power");
  return {normal_quantile((1 + confidence) / 2), normal_quantile(power)};
}

}  // namespace

double design_effect(double answers_per_prompt, double icc) {
  if (!(answers_per_prompt >= 1) || !(icc >= 0 && icc <= 1))
    throw std::invalid_argument("design_effect: need answers per prompt >= 1 and icc in [0, 1]");
  return 1 + (answers_per_prompt - 1) * icc;
}

double gate_design_effect(double answers_per_prompt, double icc, double prompts) {
  const double m = answers_per_prompt;
  if (!(prompts >= 2)) return design_effect(m, 1);
  if (m <= 1) return design_effect(m, icc);
  const double sd = (1 - icc) * (1 + (m - 1) * icc) * std::sqrt(2 / (m * (m - 1) * (prompts - 1)));
  const double positive_part = sd > 0 ? icc * normal_cdf(icc / sd) + sd * normal_density(icc / sd) : icc;
  return design_effect(m, std::clamp(positive_part, 0.0, 1.0));
}

double one_proportion_sample_size(double threshold, double rate, double confidence, double power) {
  require_open_unit(threshold, "threshold");
  require_open_unit(rate, "rate");
  if (rate == threshold) throw std::invalid_argument("one_proportion_sample_size: the rate equals the threshold");
  const auto [z_a, z_b] = z_values(confidence, power);
  const double root = z_a * std::sqrt(threshold * (1 - threshold)) + z_b * std::sqrt(rate * (1 - rate));
  return std::pow(root / (rate - threshold), 2);
}

double two_proportion_sample_size(double rate_a, double rate_b, double confidence, double power) {
  require_open_unit(rate_a, "rate_a");
  require_open_unit(rate_b, "rate_b");
  if (rate_a == rate_b) throw std::invalid_argument("two_proportion_sample_size: the rates are equal");
  const auto [z_a, z_b] = z_values(confidence, power);
  const double mean = (rate_a + rate_b) / 2;
  const double root = z_a * std::sqrt(2 * mean * (1 - mean)) +
                      z_b * std::sqrt(rate_a * (1 - rate_a) + rate_b * (1 - rate_b));
  return std::pow(root / (rate_b - rate_a), 2);
}

double impact_ratio_sample_size(double reference_rate, double ratio, double threshold_ratio, double confidence,
                                double power) {
  require_open_unit(reference_rate, "reference rate");
  const double rate = ratio * reference_rate;
  if (!(ratio > 0) || !(rate < 1) || !(threshold_ratio > 0) || ratio == threshold_ratio)
    throw std::invalid_argument("impact_ratio_sample_size: need 0 < ratio, ratio x reference rate < 1, "
                                "threshold ratio > 0 and ratio != threshold ratio");
  const auto [z_a, z_b] = z_values(confidence, power);
  const double variance = (1 - reference_rate) / reference_rate + (1 - rate) / rate;
  return std::pow(z_a + z_b, 2) * variance / std::pow(std::log(ratio) - std::log(threshold_ratio), 2);
}

double intraclass_correlation(std::span<const ClusterCount> prompts) {
  double total = 0, successes = 0, squares = 0;
  int k = 0;
  for (const auto& p : prompts) {
    if (p.trials <= 0) continue;
    ++k;
    total += p.trials;
    successes += p.successes;
    squares += p.trials * p.trials;
  }
  if (k < 2) return 1;
  const double pooled = successes / total;
  double between = 0, within = 0;
  for (const auto& p : prompts) {
    if (p.trials <= 0) continue;
    const double rate = p.successes / p.trials;
    between += p.trials * (rate - pooled) * (rate - pooled);
    within += p.trials * rate * (1 - rate);
  }
  if (total - k <= 0) return 1;  // one answer per prompt: no within-prompt information
  const double msb = between / (k - 1);
  const double msw = within / (total - k);
  const double m0 = (total - squares / total) / (k - 1);
  const double denominator = msb + (m0 - 1) * msw;
  if (denominator <= 0) return 0;
  return std::clamp((msb - msw) / denominator, 0.0, 1.0);
}

ClusteredProportion clustered_wilson_interval(std::span<const ClusterCount> prompts, double confidence) {
  ClusteredProportion out;
  double successes = 0;
  for (const auto& p : prompts) {
    if (p.trials <= 0) continue;
    ++out.prompts;
    out.trials += p.trials;
    successes += p.successes;
  }
  if (out.trials <= 0) throw std::invalid_argument("clustered_wilson_interval: no trial");
  out.estimate = successes / out.trials;
  out.icc = intraclass_correlation(prompts);
  out.design_effect = design_effect(out.trials / out.prompts, out.icc);
  out.effective_n = out.trials / out.design_effect;
  const auto interval = wilson_interval(out.estimate * out.effective_n, out.effective_n, confidence);
  out.lower = interval.lower;
  out.upper = interval.upper;
  return out;
}

}  // namespace codebias::stats
