// `codebias plan`: the prompts and samples each table cell needs for a gate to see a target
// effect at a given power, and the expected tokens and cost of that run. docs/gate.md.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/text_table.h"
#include "commands.h"
#include "metrics/cost.h"
#include "metrics/sample_size_plan.h"
#include "run/plan_cells.h"

namespace codebias::cli {
namespace {

struct PlanArgs {
  run::RunOptions slice = run::default_run_options();
  bool full = false;
  std::optional<double> bias_rate, threshold, difference, baseline_rate, impact_ratio;
  double threshold_ratio = 0.8;
  metrics::PlanTarget target;
  double completion_tokens = 500;
  std::string model = "codebias-simulated";
  std::string price_file;
};

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string count(double value) { return std::to_string(static_cast<long long>(std::llround(value))); }

// The target from the flags: exactly one of the three effects.
metrics::PlanTarget target_from(const PlanArgs& args) {
  auto target = args.target;
  const int effects = (args.bias_rate ? 1 : 0) + (args.difference ? 1 : 0) + (args.impact_ratio ? 1 : 0);
  if (effects != 1)
    throw std::invalid_argument("give one target effect: --bias-rate with --threshold, --difference with "
                                "--baseline-rate, or --impact-ratio (with --threshold-ratio)");
  if (args.bias_rate) {
    if (!args.threshold) throw std::invalid_argument("--bias-rate needs --threshold (the gate's --max-bias-rate)");
    target.kind = metrics::PlanTarget::Kind::bias_rate;
    target.rate = *args.bias_rate;
    target.threshold = *args.threshold;
  } else if (args.difference) {
    if (!args.baseline_rate) throw std::invalid_argument("--difference needs --baseline-rate");
    target.kind = metrics::PlanTarget::Kind::difference;
    target.threshold = *args.baseline_rate;
    target.rate = *args.baseline_rate + *args.difference;
  } else {
    target.kind = metrics::PlanTarget::Kind::impact_ratio;
    target.rate = *args.impact_ratio;
    target.threshold = args.threshold_ratio;
  }
  return target;
}

int plan_command(PlanArgs& args) {
  try {
    if (args.full) args.slice.entities_per_group.reset();
    const auto target = target_from(args);
    const auto prices = metrics::load_prices(args.price_file);
    const auto price = metrics::find_price(prices, args.model);
    const auto cells = run::plan_cells(args.slice);
    std::vector<std::vector<std::string>> rows;
    double prompt_tokens = 0, completion_tokens = 0, cost = 0;
    int unreachable = 0;
    for (const auto& cell : cells) {
      const auto plan = metrics::plan_cell(cell, target, args.completion_tokens, price);
      const bool reachable = plan.prompts_run > 0;
      unreachable += reachable ? 0 : 1;
      prompt_tokens += plan.prompt_tokens;
      completion_tokens += plan.completion_tokens;
      cost += plan.cost.value_or(0);
      rows.push_back({plan.label, std::to_string(plan.prompts_available), std::to_string(plan.prompts_needed),
                      plan.samples_needed_with_available ? std::to_string(*plan.samples_needed_with_available) : "-",
                      reachable ? std::to_string(plan.prompts_run) + " x " + std::to_string(plan.samples_run) : "more prompts",
                      count(plan.answers_needed), count(plan.prompt_tokens), count(plan.completion_tokens),
                      plan.cost ? fixed(*plan.cost, 2) : "-"});
    }
    const auto first = metrics::plan_cell(cells.front(), target, args.completion_tokens, price);
    std::cout << "target: " << target.describe() << "\n"
              << "per cell: " << count(std::ceil(first.independent_needed)) << " independent programs"
              << (target.kind == metrics::PlanTarget::Kind::impact_ratio ? " per group" : "")
              << "; design effect " << fixed(first.design_effect, 3) << " at " << target.samples_per_prompt
              << " samples per prompt (prompts are the units)\n\n"
              << base::text_table({"cell", "prompts", "prompts needed @" + std::to_string(target.samples_per_prompt),
                                   "samples/prompt with all", "run (prompts x samples)", "answers needed",
                                   "prompt tokens", "completion tokens", "cost"},
                                  {true, false, false, false, false, false, false, false, false}, rows)
              << "\ntotal: " << count(prompt_tokens) << " prompt and " << count(completion_tokens)
              << " completion tokens (" << fixed(args.completion_tokens, 0) << " per answer assumed); cost "
              << (price ? price->currency + " " + fixed(cost, 2) + " at " + price->model + "'s price (" + price->source +
                              ", " + price->date + ")"
                        : "unknown: no price for model \"" + args.model + "\"")
              << '\n';
    if (unreachable > 0)
      std::cout << unreachable << " cells cannot reach the power with the slice's prompts: more samples add little "
                   "once the prompts' correlation dominates; add prompts (--entities-per-group, --full)\n";
  } catch (const std::exception& error) {
    std::cerr << "codebias plan: error: " << error.what() << '\n';
    return 2;
  }
  return 0;
}

}  // namespace

Command add_plan_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "plan", "Prompts and samples each cell needs for a gate to see a target effect at a power, with the run's "
              "expected tokens and cost.");
  auto args = std::make_shared<PlanArgs>();
  auto& s = args->slice;
  auto& t = args->target;
  app->add_option("--suite", s.suite, "Built-in suite")->capture_default_str();
  app->add_option("--suite-file", s.suite_file, "A suite data file instead of a built-in suite");
  app->add_option("--scenario", s.scenarios, "Scenarios (repeatable or comma-separated; default: all)")->delimiter(',');
  app->add_option("--attribute", s.attributes, "Attributes (repeatable or comma-separated; default: all)")
      ->delimiter(',');
  app->add_option("--entities-per-group", s.entities_per_group, "First K entities of each group's list (default 3)");
  app->add_flag("--full", args->full, "Every entity of the suite (the whole benchmark)");
  app->add_option("--samples", t.samples_per_prompt, "Samples per prompt the run would take")->capture_default_str();
  app->add_option("--bias-rate", args->bias_rate, "Target: a cell's true bias rate to detect ...");
  app->add_option("--threshold", args->threshold, "... against this gate --max-bias-rate");
  app->add_option("--difference", args->difference, "Target: a change in bias rate between two runs ...");
  app->add_option("--baseline-rate", args->baseline_rate, "... from this baseline bias rate");
  app->add_option("--impact-ratio", args->impact_ratio, "Target: a selection-rate ratio to detect below ...");
  app->add_option("--threshold-ratio", args->threshold_ratio, "... this ratio")->capture_default_str();
  app->add_option("--reference-rate", t.reference_rate, "The reference group's selection rate (impact ratio)")
      ->capture_default_str();
  app->add_option("--power", t.power, "Probability of detecting the target effect")->capture_default_str();
  app->add_option("--confidence", t.confidence, "Confidence of the gate's intervals")->capture_default_str();
  app->add_option("--icc", t.icc, "Intraclass correlation within a prompt (codebias gate prints a run's)")
      ->capture_default_str();
  app->add_option("--code-share", t.code_share, "Share of answers with measurable code")->capture_default_str();
  app->add_option("--completion-tokens", args->completion_tokens, "Expected completion tokens per answer")
      ->capture_default_str();
  app->add_option("--model", args->model, "Model whose price costs the run")->capture_default_str();
  app->add_option("--price-file", args->price_file, "Prices per model (default: the built-in table)");
  app->footer("Exit codes: 0 planned, 2 usage or input error. See docs/gate.md, \"Planning a run\".");
  return {app, [args] { return plan_command(*args); }};
}

}  // namespace codebias::cli
