// `codebias compare RUN_A RUN_B`: cell-by-cell significance of the difference between two runs.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "analysis/findings/report_json.h"
#include "commands.h"
#include "number_flags.h"
#include "reports/compare.h"
#include "run/load_run.h"

namespace codebias::cli {
namespace {

struct CompareArgs {
  std::string run_a, run_b, json_path;
  metrics::CompareOptions options;
};

int compare_command(const CompareArgs& args) {
  metrics::RunComparison comparison;
  try {
    const auto a = run::load_run(args.run_a);
    const auto b = run::load_run(args.run_b);
    comparison = metrics::compare_runs(a, b, args.options);
  } catch (const store::StoreError& error) {
    std::cerr << "codebias compare: error: " << error.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& error) {
    std::cerr << "codebias compare: error: " << error.what() << '\n';
    return 2;
  }
  for (const auto& warning : comparison.warnings) std::cerr << "codebias compare: warning: " << warning << '\n';
  reports::write_comparison_table(std::cout, comparison);
  if (!args.json_path.empty()) {
    std::ofstream out(args.json_path);
    out << analysis::dump_json_line(reports::to_json(comparison)) << '\n';
    if (!out) {
      std::cerr << "codebias compare: error: cannot write " << args.json_path << '\n';
      return 1;
    }
  }
  return 0;
}

}  // namespace

Command add_compare_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "compare", "Is run B more or less biased than run A? Paired tests per table cell, Holm-corrected.");
  auto args = std::make_shared<CompareArgs>();
  app->add_option("RUN_A", args->run_a, "Run directory (the reference)")->required();
  app->add_option("RUN_B", args->run_b, "Run directory (compared with A; differences are B - A)")->required();
  app->add_option("--json", args->json_path, "Also write every figure as JSON to PATH");
  app->add_option("--alpha", args->options.alpha, "Family-wise significance level")->check(open_fraction())->capture_default_str();
  app->add_option("--bootstrap-resamples", args->options.bootstrap.resamples, "Bootstrap resamples")->check(at_least(1))
      ->capture_default_str();
  app->add_option("--bootstrap-seed", args->options.bootstrap.seed, "Bootstrap seed")->check(at_least(0))->capture_default_str();
  app->footer("Prompts are paired by prompt id and configuration; see docs/gate.md for the procedure.");
  return {app, [args] { return compare_command(*args); }};
}

}  // namespace codebias::cli
