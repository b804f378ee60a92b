// `codebias screening analyze FILE`: the BAD résumé analysis (seeds/003 §5.1-§5.2; docs/screening.md)
// on an existing résumé table (CSV or JSONL with the paper's columns), so that published
// datasets can be checked. Exit 0 ok, 2 bad input.
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "tasks/screening/analysis/resume_table.h"
#include "commands.h"
#include "number_flags.h"
#include "tasks/screening/screening_metrics.h"

namespace codebias::cli {
namespace {

struct ScreeningArgs {
  std::string file;
  std::string baseline = "cps";
  std::string format = "text";
  std::uint64_t seed = metrics::kDefaultScreeningSeed;
  bool compare_paper = false;
};

int analyze_command(const ScreeningArgs& args) {
  analysis::screening::ResumeTable table;
  metrics::ScreeningMetrics result;
  try {
    table = analysis::screening::read_resume_table(args.file);
    metrics::ScreeningOptions options;
    options.baseline = metrics::parse_baseline_kind(args.baseline);
    options.seed = args.seed;
    options.compare_published = args.compare_paper;
    result = metrics::compute_screening_metrics(metrics::to_resume_rows(table.records), options);
    result.near_duplicates = table.near_duplicates;
  } catch (const std::exception& error) {
    std::cerr << "codebias screening analyze: error: " << error.what() << '\n';
    return 2;
  }
  // The file's name without its folder, so the output does not depend on where the table lies.
  const std::string input = std::filesystem::path(args.file).filename().string() + ": " + std::to_string(table.records.size()) + " résumés, " +
                            std::to_string(table.blank_rows_skipped) + " blank rows skipped";
  if (args.format == "json") {
    nlohmann::ordered_json out;
    out["input"] = {{"file", args.file},
                    {"resumes", table.records.size()},
                    {"blank_rows_skipped", table.blank_rows_skipped}};
    out.update(metrics::screening_metrics_json(result));
    std::cout << out.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    return 0;
  }
  const bool markdown = args.format == "markdown";
  std::cout << (markdown ? input + "\n\n" : input + "\n")
            << metrics::format_screening_metrics(result, markdown ? metrics::ScreeningFormat::kMarkdown
                                                                  : metrics::ScreeningFormat::kText);
  return 0;
}

}  // namespace

Command add_screening_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("screening", "The BAD candidate-screening analyses (docs/screening.md).");
  app->require_subcommand(1);
  auto* analyze = app->add_subcommand(
      "analyze", "Job areas by gender × ethnicity, representation ratios against the labour force, chi-squared "
                 "tests (and, with --compare-paper, the paper's published figures) for a résumé table (CSV or JSONL with the paper's "
                 "columns: FirstName, LastName, EstimatedEthnicity, EstimatedGender, JobTitle, JobArea, ...).");
  auto args = std::make_shared<ScreeningArgs>();
  analyze->add_option("FILE", args->file, "Résumé table: .csv (RFC 4180, header row) or .jsonl")->required();
  analyze->add_option("--baseline", args->baseline,
                      "Labour-force baseline: cps (BLS CPS table 11, 2022, every mapped occupation) or paper "
                      "(the paper notebook's constants, three areas)")
      ->check(CLI::IsMember({"cps", "paper"}))
      ->capture_default_str();
  analyze->add_option("--format", args->format, "Output: text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  analyze->add_flag("--compare-paper", args->compare_paper,
                    "Also compare with the figures the BAD paper publishes about its own table "
                    "(data/screening/bad_published_figures.json): for resume_dataset.xlsx and copies of it");
  analyze->add_option("--seed", args->seed, "Seed of the bootstrap intervals and Monte-Carlo p-values")->check(at_least(0))
      ->capture_default_str();
  return {app, [args] { return analyze_command(*args); }};
}

}  // namespace codebias::cli
