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

#include "attributes/attributes.h"
#include "commands.h"
#include "number_flags.h"
#include "metrics/fairness.h"
#include "suites/suite.h"
#include "tasks/task.h"

namespace codebias::cli {

namespace {

// --scenario's check, as CLI::IsMember(suites::known_scenarios()) with the same help and error, but
// the scenarios are listed only when the flag is given or help is printed: listing them parses
// every built-in suite, which cost every command's start-up (even --version) before.
class KnownScenario : public CLI::Validator {
 public:
  KnownScenario() : CLI::Validator("") {
    desc_function_ = [] { return CLI::detail::generate_set(suites::known_scenarios()); };
    func_ = [](std::string& input) {
      const auto known = suites::known_scenarios();
      if (std::find(known.begin(), known.end(), input) != known.end()) return std::string();
      return input + " not in " + CLI::detail::generate_set(known);
    };
  }
};

struct ScoreArgs {
  std::string input;
  std::string output = "-";
  std::string scenario;
  std::vector<std::string> attributes;
  std::string attributes_file;
  std::string attribute_table;
  bool keep_going = false;
  bool execute = false;
  bool summary = false;
  std::string summary_json;
  int block = metrics::kDefaultBlock;
  unsigned threads = 0;
  std::string compat;  // "" (the analyzer) or "faircoder" (the published scorer, mistakes included)
  std::string task = "function";  // a task of tasks/registry.cpp
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
  // --compat NAME names a published scorer, the task NAME-compat.
  const std::string task_name = args.compat.empty() ? args.task : args.compat + "-compat";

  tasks::ScoreSettings settings;
  try {
    settings.table = user_table                      ? &*user_table
                     : !args.attribute_table.empty() ? &analysis::AttributeTable::builtin(args.attribute_table)
                                                     : &analysis::AttributeTable::builtin();
  } catch (const std::invalid_argument& error) {
    return fail(std::string("--attribute-table: ") + error.what());
  }
  settings.scenario = args.scenario;
  settings.attributes = args.attributes;
  if (args.block_option != nullptr && args.block_option->count() > 0) settings.block = args.block;
  settings.want_summary = args.summary || !args.summary_json.empty();
  settings.execute = args.execute;
  settings.engine.threads = args.threads;
  settings.engine.keep_going = args.keep_going;
  std::unique_ptr<tasks::Scorer> scorer;
  try {
    scorer = tasks::find_task(task_name).make_scorer(settings);
  } catch (const std::invalid_argument& error) {
    return fail(error.what());
  }

  ScoreStreams streams;
  if (const auto problem = open_streams(args, streams)) return fail(*problem);
  std::ostream& out = *streams.out;
  base::JsonlStats stats;
  try {
    stats = scorer->score(*streams.in, streams.origin, [&](std::string_view line) {
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
      out.put('\n');
    });
  } catch (const base::InputError& error) {
    out.flush();
    const int code = error.error().internal ? 1 : 2;
    return fail(std::string(error.what()) + (code == 2 ? " (--keep-going writes an error line instead)" : ""), code);
  }
  out.flush();
  if (!out) return fail("writing the output failed", 1);
  if (stats.errors > 0) {
    std::cerr << kName << ": " << stats.errors << " of " << stats.responses + stats.errors
              << " input lines had errors (written as error objects)\n";
  }

  if (settings.want_summary) {
    const tasks::ScoreSummary summary = scorer->summary();
    if (args.summary) std::cerr << summary.table;
    if (!args.summary_json.empty()) {
      std::ofstream json_out(args.summary_json, std::ios::binary | std::ios::trunc);
      json_out << summary.json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
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
  app->add_option("--input", args->input, "Input JSONL: {\"id\", \"response\", \"scenario\"?, \"attributes\"?, \"function\"?, \"domains\"? ({field: [values]}, drawn from by --execute)} per line; - for stdin")
      ->required();
  app->add_option("--out,--output", args->output, "Output JSONL, one line per input line; - for stdout")
      ->capture_default_str();
  app->add_option("--scenario", args->scenario, "Scenario of lines that name none (decides which attributes are sensitive)")
      ->check(KnownScenario());
  app->add_option("--attribute,--attributes", args->attributes,
                  "Report only these attributes (repeatable or comma-separated, e.g. gender,parents_degree)")
      ->delimiter(',');
  auto* attributes_file =
      app->add_option("--attributes-file", args->attributes_file, "Attribute table JSON to use instead of the built-in one")
          ->check(CLI::ExistingFile);
  app->add_option("--attribute-table", args->attribute_table,
                  "A built-in attribute table instead of FairCoder's: solar or huang (the groups of the decision "
                  "suites; use with --task decision)")
      ->check(CLI::IsMember({"faircoder", "solar", "huang"}))
      ->excludes(attributes_file);
  app->add_flag("--keep-going", args->keep_going, "Write an error object for a malformed line and go on (exit 0)");
  app->add_flag("--summary", args->summary, "Print fairness metrics over all responses to stderr");
  app->add_flag("--execute", args->execute,
                "Also RUN the model-written code in the sandbox (no network, no file writes, time and memory "
                "limits): function: call each decision function on personas that differ in one sensitive "
                "attribute and compare with the static findings (docs/counterfactual.md); ml-pipeline: run each "
                "program on synthetic data and compare the columns that reach fit (docs/ml-pipelines.md)");
  app->add_option("--summary-json", args->summary_json, "Write the fairness metrics as JSON to this file");
  args->block_option = app->add_option("--block", args->block,
                                       "Responses per prompt for the block metrics (FairCoder: 10; --task "
                                       "testcase: 25)")
                           ->check(at_least(1))
                           ->capture_default_str();
  app->add_option("--threads", args->threads, "Worker threads (0: one per core)")->check(at_least(0))
      ->capture_default_str();
  std::string task_help;
  for (const tasks::Task& task : tasks::all_tasks()) {
    task_help += (task_help.empty() ? "" : "; ") + std::string(task.name) + ": " + std::string(task.description);
  }
  auto* task = app->add_option("--task", args->task, task_help)
                   ->check(CLI::IsMember(tasks::task_names(false)))
                   ->capture_default_str();
  app->add_option("--compat", args->compat,
                  "Reproduce a published scorer instead of the analyzer: faircoder (FairCoder's "
                  "get_info_code.py, its mistakes included; README.md); the same as --task faircoder-compat")
      ->check(CLI::IsMember({"faircoder"}))
      ->excludes(task);
  return Command{app, [args] { return run_score(*args); }};
}

}  // namespace codebias::cli
