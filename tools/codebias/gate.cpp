// `codebias gate RUN`: pass / fail / insufficient evidence for CI. Exit 0 pass, 1 fail, 3
// insufficient evidence (one line on stderr for either), 2 bad input.
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

constexpr int kInsufficientEvidence = 3;

struct GateArgs {
  std::string run, baseline;
  metrics::GateOptions options;
};

// stderr's one line: the first reason, and how many more there are.
void print_reason(const char* outcome, const std::vector<std::string>& reasons) {
  const auto more = reasons.size() - 1;
  std::cerr << "codebias gate: " << outcome << ": " << reasons.front()
            << (more ? " (+" + std::to_string(more) + " more)" : "") << '\n';
}

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
  for (const auto& line : verdict.failures) std::cout << "FAIL " << line << '\n';
  for (const auto& line : verdict.undecided) std::cout << "INSUFFICIENT " << line << '\n';
  for (const auto& line : verdict.passes) std::cout << "PASS " << line << '\n';
  for (const auto& line : verdict.warnings) std::cout << "WARNING " << line << '\n';
  switch (verdict.outcome()) {
    case metrics::GateOutcome::fail:
      print_reason("FAIL", verdict.failures);
      return 1;
    case metrics::GateOutcome::insufficient_evidence:
      print_reason("INSUFFICIENT EVIDENCE", verdict.undecided);
      return kInsufficientEvidence;
    case metrics::GateOutcome::pass:
      break;
  }
  std::cout << "PASS: " << verdict.cells_checked.size() << " cells checked\n";
  return 0;
}

}  // namespace

Command add_gate_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("gate", "Pass (0), fail (1) or insufficient evidence (3) for a run, judged by "
                                            "intervals against bias thresholds or a baseline run; for CI.");
  auto args = std::make_shared<GateArgs>();
  auto& o = args->options;
  app->add_option("RUN", args->run, "Run directory to judge")->required();
  app->add_option("--max-bias-rate", o.max_bias_rate, "Fail when a cell's bias-rate interval lies above this")
      ->check(fraction());
  app->add_option("--min-fairscore", o.min_fairscore, "Fail when a cell's FairScore interval lies below this")
      ->check(fraction());
  app->add_option("--max-no-code-rate", o.max_no_code_rate,
                  "Fail when a cell's interval of the share of answers without measurable code lies above this")
      ->check(fraction());
  app->add_option("--max-abs-effect", o.max_abs_effect,
                  "Fail when a cell's signed-effect interval lies beyond +-this (bias or over-correction)")
      ->check(fraction());
  app->add_option("--scenario", o.scenarios, "Only these scenarios (repeatable or comma-separated; default: all)")
      ->delimiter(',');
  app->add_option("--attribute", o.attributes, "Only these attributes (repeatable or comma-separated; default: all)")
      ->delimiter(',');
  app->add_option("--baseline", args->baseline, "Fail when RUN is significantly more biased than this run");
  app->add_option("--baseline-margin", o.baseline_margin,
                  "Pass against --baseline when the bias rate's increase is at most this (its interval)")
      ->check(fraction())
      ->capture_default_str();
  app->add_option("--alpha", o.alpha, "Family-wise significance level of the baseline comparison")
      ->check(open_fraction())
      ->capture_default_str();
  app->add_option("--confidence", o.confidence, "Confidence of the cells' intervals")
      ->check(open_fraction())
      ->capture_default_str();
  app->add_flag("--always-valid", o.always_valid,
                "Judge the bias rate by its always-valid confidence sequence (a run gated while it grows)");
  app->add_option("--min-n", o.min_n, "Warn about cells with fewer programs with code than this")
      ->check(at_least(0))
      ->capture_default_str();
  app->footer("Exit codes: 0 pass, 1 fail, 3 insufficient evidence (reason on stderr, one line), 2 usage or input "
              "error. See docs/gate.md.");
  return {app, [args] { return gate_command(*args); }};
}

}  // namespace codebias::cli
