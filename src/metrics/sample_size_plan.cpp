#include "metrics/sample_size_plan.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "stats/sample_size.h"

namespace codebias::metrics {
namespace {

constexpr int kMostSamplesPerPrompt = 10000;

double independent_needed(const PlanTarget& t) {
  switch (t.kind) {
    case PlanTarget::Kind::bias_rate:
      return stats::one_proportion_sample_size(t.threshold, t.rate, t.confidence, t.power);
    case PlanTarget::Kind::difference:
      return stats::two_proportion_sample_size(t.threshold, t.rate, t.confidence, t.power);
    case PlanTarget::Kind::impact_ratio:
      return stats::impact_ratio_sample_size(t.reference_rate, t.rate, t.threshold, t.confidence, t.power);
  }
  return 0;
}

// The design effect the gate will apply to `prompts` prompts of `samples` answers each: it
// estimates the ICC from the run (stats::gate_design_effect).
double gate_design_effect(double prompts, double samples, const PlanTarget& t) {
  return stats::gate_design_effect(std::max(1.0, samples * t.code_share), t.icc, prompts);
}

// Effective programs from `prompts` prompts of `samples` answers each.
double effective(double prompts, double samples, const PlanTarget& t) {
  return prompts * samples * t.code_share / gate_design_effect(prompts, samples, t);
}

}  // namespace

std::string PlanTarget::describe() const {
  char text[256];
  switch (kind) {
    case Kind::bias_rate:
      std::snprintf(text, sizeof text, "bias rate %.4g against gate --max-bias-rate %.4g", rate, threshold);
      break;
    case Kind::difference:
      std::snprintf(text, sizeof text, "bias rate %.4g in the baseline run against %.4g in the new run (per run)",
                    threshold, rate);
      break;
    case Kind::impact_ratio:
      std::snprintf(text, sizeof text, "impact ratio %.4g below %.4g at a reference selection rate %.4g", rate,
                    threshold, reference_rate);
      break;
  }
  char rest[256];
  std::snprintf(rest, sizeof rest, "; power %.4g, %.4g%% intervals; ICC %.4g, code share %.4g", power,
                confidence * 100, icc, code_share);
  return std::string(text) + rest;
}

CellPlan plan_cell(const PlanCell& cell, const PlanTarget& target, double completion_tokens_per_answer,
                   const std::optional<ModelPrice>& price) {
  if (!(target.code_share > 0 && target.code_share <= 1)) throw std::invalid_argument("--code-share must be in (0, 1]");
  if (target.samples_per_prompt < 1) throw std::invalid_argument("--samples must be at least 1");
  CellPlan plan;
  plan.label = cell.label;
  plan.prompts_available = cell.prompts_available;
  plan.independent_needed = independent_needed(target);
  const double groups = target.kind == PlanTarget::Kind::impact_ratio ? 2 : 1;
  const double m = target.samples_per_prompt;
  const double needed_per_group = plan.independent_needed;
  // Kish's design effect at the true ICC is a lower bound of the gate's: start there and add
  // prompts until the gate's design effect leaves enough effective programs.
  const double kish = stats::design_effect(std::max(1.0, m * target.code_share), target.icc);
  plan.prompts_needed =
      static_cast<int>(std::ceil(groups * needed_per_group * kish / target.code_share / m - 1e-9));
  while (effective(plan.prompts_needed / groups, m, target) + 1e-9 < needed_per_group) ++plan.prompts_needed;
  plan.design_effect = gate_design_effect(plan.prompts_needed / groups, m, target);
  plan.answers_needed = groups * needed_per_group * plan.design_effect / target.code_share;
  const double prompts_per_group = cell.prompts_available / groups;
  for (int samples = 1; samples <= kMostSamplesPerPrompt; ++samples) {
    if (effective(prompts_per_group, samples, target) + 1e-9 >= needed_per_group) {
      plan.samples_needed_with_available = samples;
      break;
    }
  }
  if (plan.prompts_needed <= cell.prompts_available) {
    plan.prompts_run = plan.prompts_needed;
    plan.samples_run = target.samples_per_prompt;
  } else if (plan.samples_needed_with_available) {
    plan.prompts_run = cell.prompts_available;
    plan.samples_run = *plan.samples_needed_with_available;
  }
  const double answers = static_cast<double>(plan.prompts_run) * plan.samples_run;
  plan.prompt_tokens = answers * cell.prompt_tokens_per_request;
  plan.completion_tokens = answers * completion_tokens_per_answer;
  if (price) {
    plan.cost = price->cost(static_cast<std::int64_t>(std::llround(plan.prompt_tokens)),
                            static_cast<std::int64_t>(std::llround(plan.completion_tokens)));
  }
  return plan;
}

}  // namespace codebias::metrics
