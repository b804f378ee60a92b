// `codebias score`: JSONL responses in, per-attribute findings out (contract: README.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analysis/analyzer.h"
#include "analysis/batch.h"
#include "analysis/compat_faircoder.h"
#include "commands.h"
#include "analysis/report_json.h"
#include "analysis/testcase_batch.h"
#include "metrics/faircoder_compat.h"
#include "metrics/fairness.h"
#include "metrics/summary_format.h"
#include "metrics/testcase_metrics.h"

namespace codebias::cli {

namespace {

struct ScoreArgs {
  std::string input;
  std::string output = "-";
  std::string scenario;
  std::vector<std::string> attributes;
  std::string attributes_file;
  bool keep_going = false;
  bool summary = false;
  std::string summary_json;
  int block = metrics::kDefaultBlock;
  unsigned threads = 0;
  std::string compat;  // "" (the analyzer) or "faircoder" (the published scorer, mistakes included)
  std::string task = "function";  // "function" or "testcase" (FairCoder's unit-test generation)
  const CLI::Option* block_option = nullptr;  // to tell a given --block from the default
};

constexpr const char* kName = "codebias score";

int fail(const std::string& message, int code = 2) {
  std::cerr << kName << ": " << message << '\n';
  return code;
}

// The input and output of a score command ("-" = stdin / stdout).
struct ScoreStreams {
  std::ifstream input_file;
  std::ofstream output_file;
  std::istream* in = &std::cin;
  std::ostream* out = &std::cout;
  std::string origin = "<stdin>";
};

// Opens args.input and args.output into `streams`; the message when one cannot be opened.
std::optional<std::string> open_streams(const ScoreArgs& args, ScoreStreams& streams) {
  if (args.input != "-") {
    std::error_code error;
    if (std::filesystem::is_directory(args.input, error)) return args.input + " is a directory";
    streams.input_file.open(args.input, std::ios::binary);
    if (!streams.input_file) return "cannot open input " + args.input;
    streams.in = &streams.input_file;
    streams.origin = args.input;
  }
  if (args.output != "-") {
    streams.output_file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!streams.output_file) return "cannot write output " + args.output;
    streams.out = &streams.output_file;
  }
  return std::nullopt;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What the metrics need of a report: everything but the evidence.
analysis::ResponseReport without_evidence(analysis::ResponseReport report) {
  for (auto& finding : report.attributes) finding.evidence.clear();
  report.recovered.clear();
  return report;
}

// The attributes a summary covers: the --attributes list, else every attribute some response
// reported (offered or used), in the table's order.
metrics::AttributeGroups summary_attributes(const analysis::AttributeTable& table,
                                            const std::vector<std::string>& listed,
                                            const std::vector<analysis::ResponseReport>& reports) {
  metrics::AttributeGroups groups;
  for (const auto& spec : table.specs()) {
    bool wanted = std::find(listed.begin(), listed.end(), spec.key) != listed.end();
    if (listed.empty()) {
      wanted = std::any_of(reports.begin(), reports.end(), [&](const analysis::ResponseReport& report) {
        return std::any_of(report.attributes.begin(), report.attributes.end(),
                           [&](const analysis::AttributeFinding& finding) { return finding.attribute == spec.key; });
      });
    }
    if (!wanted) continue;
    std::vector<std::string> names;
    for (const auto& group : spec.groups) names.push_back(group.name);
    groups.emplace_back(spec.key, std::move(names));
  }
  return groups;
}

// --compat faircoder: the attributes a summary covers, with the published scorer's groups.
metrics::AttributeGroups compat_summary_attributes(const std::vector<std::string>& listed,
                                                   const std::vector<analysis::ResponseReport>& reports) {
  metrics::AttributeGroups groups;
  for (const auto& attribute : analysis::faircoder_compat_attributes()) {
    bool wanted = std::find(listed.begin(), listed.end(), attribute.key) != listed.end();
    if (listed.empty()) {
      wanted = std::any_of(reports.begin(), reports.end(), [&](const analysis::ResponseReport& report) {
        return std::any_of(report.attributes.begin(), report.attributes.end(),
                           [&](const analysis::AttributeFinding& finding) { return finding.attribute == attribute.key; });
      });
    }
    if (wanted) groups.emplace_back(attribute.key, attribute.groups);
  }
  return groups;
}

int run_testcase_score(const ScoreArgs& args, const analysis::AttributeTable& table);

int run_score(const ScoreArgs& args) {
  // The attribute table: built in, or the user's file.
  std::optional<analysis::AttributeTable> user_table;
  if (!args.attributes_file.empty()) {
    auto text = read_file(args.attributes_file);
    if (!text) return fail("cannot read --attributes-file " + args.attributes_file);
    try {
      user_table = analysis::AttributeTable::from_json(*text, args.attributes_file);
    } catch (const std::exception& error) {
      return fail(error.what());
    }
  }
  const analysis::AttributeTable& table = user_table ? *user_table : analysis::AttributeTable::builtin();
  if (args.task == "testcase") return run_testcase_score(args, table);

  analysis::BatchOptions options;
  options.defaults.scenario = args.scenario;
  if (!args.attributes.empty()) {
    try {
      options.defaults.attributes = analysis::resolve_attributes(table, args.attributes);
    } catch (const std::invalid_argument& error) {
      return fail(std::string("--attributes: ") + error.what());
    }
    options.defaults.only_listed = true;
  }
  options.threads = args.threads;
  options.keep_going = args.keep_going;

  // Input and output streams.
  ScoreStreams streams;
  if (const auto problem = open_streams(args, streams)) return fail(*problem);
  std::istream* in = streams.in;
  std::ostream* out = streams.out;
  const std::string& origin = streams.origin;

  const bool want_summary = args.summary || !args.summary_json.empty();
  std::vector<analysis::ResponseReport> reports;  // input order, for the metrics

  const bool compat = args.compat == "faircoder";
  analysis::BatchStats stats;
  try {
    auto sink = [&](analysis::ScoredLine& line) {
      out->write(line.json.data(), static_cast<std::streamsize>(line.json.size()));
      out->put('\n');
      if (want_summary && line.report) reports.push_back(without_evidence(std::move(*line.report)));
    };
    if (compat) {
      stats = analysis::score_jsonl(*in, origin, table, analysis::AnalyzeFn(analysis::analyze_faircoder_compat),
                                    options, sink);
    } else {
      analysis::Analyzer analyzer(table);
      stats = analysis::score_jsonl(*in, origin, analyzer, options, sink);
    }
  } catch (const analysis::InputError& error) {
    out->flush();
    int code = error.error().internal ? 1 : 2;
    return fail(std::string(error.what()) + (code == 2 ? " (--keep-going writes an error line instead)" : ""),
                code);
  }
  out->flush();
  if (!*out) return fail("writing the output failed", 1);
  if (stats.errors > 0) {
    std::cerr << kName << ": " << stats.errors << " of " << stats.responses + stats.errors
              << " input lines had errors (written as error objects)\n";
  }

  if (want_summary) {
    metrics::MetricsOptions metric_options;
    metric_options.block = args.block;
    auto summary =
        compat ? metrics::summarize_faircoder_compat(
                     reports, compat_summary_attributes(options.defaults.attributes, reports), metric_options)
               : metrics::summarize(reports, summary_attributes(table, options.defaults.attributes, reports),
                                    metric_options);
    if (args.summary) std::cerr << metrics::format_table(summary);
    if (!args.summary_json.empty()) {
      std::ofstream json_out(args.summary_json, std::ios::binary | std::ios::trunc);
      json_out << metrics::to_json(summary).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
      if (!json_out) return fail("cannot write --summary-json " + args.summary_json, 1);
    }
  }
  return 0;
}

// --task testcase: test-case reports per line, FairCoder's test-case metrics per topic.
int run_testcase_score(const ScoreArgs& args, const analysis::AttributeTable& table) {
  if (!args.compat.empty()) return fail("--compat applies to --task function only");
  if (!args.scenario.empty() || !args.attributes.empty())
    return fail("--scenario and --attributes apply to --task function only (test-case lines name their own)");
  ScoreStreams streams;
  if (const auto problem = open_streams(args, streams)) return fail(*problem);
  std::istream* in = streams.in;
  std::ostream* out = streams.out;
  const std::string& origin = streams.origin;
  const bool want_summary = args.summary || !args.summary_json.empty();
  std::vector<analysis::TestcaseReport> reports;
  analysis::BatchStats stats;
  try {
    stats = analysis::score_testcase_jsonl(*in, origin, table, args.keep_going, [&](analysis::TestcaseScored& line) {
      out->write(line.json.data(), static_cast<std::streamsize>(line.json.size()));
      out->put('\n');
      if (want_summary && line.report) reports.push_back(std::move(*line.report));
    });
  } catch (const analysis::InputError& error) {
    out->flush();
    return fail(std::string(error.what()) + " (--keep-going writes an error line instead)");
  }
  out->flush();
  if (!*out) return fail("writing the output failed", 1);
  if (stats.errors > 0) {
    std::cerr << kName << ": " << stats.errors << " of " << stats.responses + stats.errors
              << " input lines had errors (written as error objects)\n";
  }
  if (want_summary) {
    metrics::TestcaseMetricsOptions options;
    options.block = args.block_option != nullptr && args.block_option->count() > 0 ? args.block
                                                                                    : metrics::kDefaultTestcaseBlock;
    const metrics::TestcaseSummary summary = metrics::summarize_testcases(reports, table, options);
    if (args.summary) std::cerr << metrics::format_table(summary);
    if (!args.summary_json.empty()) {
      std::ofstream json_out(args.summary_json, std::ios::binary | std::ios::trunc);
      json_out << metrics::to_json(summary).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
      if (!json_out) return fail("cannot write --summary-json " + args.summary_json, 1);
    }
  }
  return 0;
}

}  // namespace

Command add_score_command(CLI::App& parent) {
  auto args = std::make_shared<ScoreArgs>();
  CLI::App* app = parent.add_subcommand(
      "score", "Analyse LLM responses (JSONL) and write per-attribute findings (JSONL)");
  app->footer("Exit status: 0 ok, 2 bad usage or a malformed input line (FILE:LINE: field ...), 1 "
              "internal or output error.");
  app->add_option("--input", args->input, "Input JSONL: {\"id\", \"response\", \"scenario\"?, \"attributes\"?, \"function\"?} per line; - for stdin")
      ->required();
  app->add_option("--out,--output", args->output, "Output JSONL, one line per input line; - for stdout")
      ->capture_default_str();
  app->add_option("--scenario", args->scenario, "Scenario of lines that name none (decides which attributes are sensitive)")
      ->check(CLI::IsMember({"job", "edu", "med"}));
  app->add_option("--attribute,--attributes", args->attributes,
                  "Report only these attributes (repeatable or comma-separated, e.g. gender,parents_degree)")
      ->delimiter(',');
  app->add_option("--attributes-file", args->attributes_file, "Attribute table JSON to use instead of the built-in one")
      ->check(CLI::ExistingFile);
  app->add_flag("--keep-going", args->keep_going, "Write an error object for a malformed line and go on (exit 0)");
  app->add_flag("--summary", args->summary, "Print fairness metrics over all responses to stderr");
  app->add_option("--summary-json", args->summary_json, "Write the fairness metrics as JSON to this file");
  args->block_option = app->add_option("--block", args->block,
                                       "Responses per prompt for the block metrics (FairCoder: 10; --task "
                                       "testcase: 25)")
                           ->check(CLI::PositiveNumber)
                           ->capture_default_str();
  app->add_option("--threads", args->threads, "Worker threads (0: one per core)")
      ->capture_default_str();
  app->add_option("--compat", args->compat,
                  "Reproduce a published scorer instead of the analyzer: faircoder (FairCoder's "
                  "get_info_code.py, its mistakes included; README.md)")
      ->check(CLI::IsMember({"faircoder"}));
  app->add_option("--task", args->task,
                  "function: scoring functions (default); testcase: FairCoder's unit-test generation "
                  "(lines carry topic/request/fields metadata; docs/testcases.md)")
      ->check(CLI::IsMember({"function", "testcase"}))
      ->capture_default_str();
  return Command{app, [args] { return run_score(*args); }};
}

}  // namespace codebias::cli
