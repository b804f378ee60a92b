// `codebias report RUN_DIR`: one report file rebuilt from a run directory's store.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "number_flags.h"
#include "run/rebuild_report.h"

namespace codebias::cli {
namespace {

struct ReportArgs {
  std::string run_dir;
  std::string format = "html";
  std::string out;
  std::size_t max_drilldown = reports::HtmlReportOptions{}.max_drilldown_samples;
};

int report_command(const ReportArgs& args) {
  const auto format = run::parse_report_format(args.format);
  if (!format) {
    std::cerr << "codebias report: --format must be html, md, json or csv (got '" << args.format << "')\n";
    return 2;
  }
  reports::HtmlReportOptions html;
  html.max_drilldown_samples = args.max_drilldown;
  std::string text;
  try {
    text = run::rebuild_report(args.run_dir, *format, html);
  } catch (const store::StoreError& error) {
    std::cerr << "codebias report: " << error.what() << '\n';
    return 2;
  }
  if (args.out == "-") {
    std::cout << text;
    return std::cout.flush() ? 0 : 1;
  }
  const std::filesystem::path out = args.out.empty()
                                        ? std::filesystem::path(args.run_dir) / run::report_file_name(*format)
                                        : std::filesystem::path(args.out);
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  if (!file || !(file << text) || !file.flush()) {
    std::cerr << "codebias report: cannot write " << out.string() << '\n';
    return 1;
  }
  std::cerr << "codebias report: wrote " << out.string() << '\n';
  return 0;
}

}  // namespace

Command add_report_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("report", "Rebuild a run's report from its store (run.sqlite).");
  auto args = std::make_shared<ReportArgs>();
  app->add_option("RUN_DIR", args->run_dir, "Run directory written by `codebias run`")
      ->required()
      ->check(CLI::ExistingDirectory);
  app->add_option("--format", args->format, "html | md | json | csv")->capture_default_str();
  app->add_option("--out", args->out,
                  "Output file; - for stdout (default: RUN_DIR/report.html, report.md, summary.json or metrics.csv)");
  app->add_option("--max-drilldown", args->max_drilldown, "html: biased samples shown in the drill-down")
      ->check(at_least(0))
      ->capture_default_str();
  app->footer(
      "html is one self-contained file (charts included; no network needed to view it); md, json and csv are "
      "the run's report.md, summary.json and metrics.csv, rebuilt.");
  return {app, [args] { return report_command(*args); }};
}

}  // namespace codebias::cli
