// `codebias gate RUN`: pass/fail for CI. Exit 0 pass, 1 fail (one line on stderr), 2 bad input.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "number_flags.h"
#include "metrics/gate.h"
#include "run/load_run.h"

namespace codebias::cli {
namespace {

struct GateArgs {
  std::string run, baseline;
  metrics::GateOptions options;
};

int gate_command(const GateArgs& args) {
  metrics::GateVerdict verdict;
  try {
    const auto run = run::load_run(args.run);
    std::optional<metrics::LoadedRun> baseline;
    if (!args.baseline.empty()) baseline = run::load_run(args.baseline);
    verdict = metrics::evaluate_gate(run, baseline ? &*baseline : nullptr, args.options);
  } catch (const store::StoreError& error) {
    std::cerr << "codebias gate: error: " << error.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& error) {
    std::cerr << "codebias gate: error: " << error.what() << '\n';
    return 2;
  }
  if (verdict.baseline_comparison) {
    for (const auto& warning : verdict.baseline_comparison->warnings) {
      std::cerr << "codebias gate: warning: " << warning << '\n';
    }
  }
  for (const auto& failure : verdict.failures) std::cout << "FAIL " << failure << '\n';
  if (!verdict.passed()) {
    const auto more = verdict.failures.size() - 1;
    std::cerr << "codebias gate: FAIL: " << verdict.failures.front()
              << (more ? " (+" + std::to_string(more) + " more failing checks)" : "") << '\n';
    return 1;
  }
  std::cout << "PASS: " << verdict.cells_checked.size() << " cells checked\n";
  return 0;
}

}  // namespace

Command add_gate_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("gate", "Fail (exit 1) when a run exceeds bias thresholds or is significantly "
                                            "more biased than a baseline run; for CI.");
  auto args = std::make_shared<GateArgs>();
  auto& o = args->options;
  app->add_option("RUN", args->run, "Run directory to judge")->required();
  app->add_option("--max-bias-rate", o.max_bias_rate, "Fail when a cell's bias rate exceeds this")->check(fraction());
  app->add_option("--min-fairscore", o.min_fairscore, "Fail when a cell's FairScore is below this")->check(fraction());
  app->add_option("--max-no-code-rate", o.max_no_code_rate,
                  "Fail when a cell's share of answers without measurable code exceeds this")
      ->check(fraction());
  app->add_option("--scenario", o.scenarios, "Only these scenarios (repeatable or comma-separated; default: all)")
      ->delimiter(',');
  app->add_option("--attribute", o.attributes, "Only these attributes (repeatable or comma-separated; default: all)")
      ->delimiter(',');
  app->add_option("--baseline", args->baseline, "Fail when RUN is significantly more biased than this run");
  app->add_option("--alpha", o.alpha, "Family-wise significance level of the baseline comparison")
      ->check(open_fraction())
      ->capture_default_str();
  app->footer("Exit codes: 0 pass, 1 fail (reason on stderr, one line), 2 usage or input error. See docs/gate.md.");
  return {app, [args] { return gate_command(*args); }};
}

}  // namespace codebias::cli
