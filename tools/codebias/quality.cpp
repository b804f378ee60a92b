// `codebias quality`: FairCoder's pass@1 and ProbeDebias's pylint quality for JSONL responses
// (the `codebias score` input format; contract: docs/quality.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "analysis/batch.h"
#include "commands.h"
#include "number_flags.h"
#include "run/score_input.h"
#include "quality/quality_batch.h"

namespace codebias::cli {

namespace {

struct QualityArgs {
  std::string input;
  std::string output = "-";
  bool pass_at_1 = false;
  bool pylint = false;
  double timeout_s = 10;  // --timeout (or --timeout-ms, its older spelling)
  long memory_mb = 512;
  int cases = 10;
  unsigned jobs = 0;
  bool summary = false;
  std::string summary_json;
  bool keep_going = false;
  bool keep_inputs = false;
  std::string python = "/usr/bin/python3";
  std::string pylint_path = "/usr/bin/pylint";
  std::size_t pylint_batch = 50;
};

constexpr const char* kName = "codebias quality";

int fail(const std::string& message, int code = 2) {
  std::cerr << kName << ": " << message << '\n';
  return code;
}

std::string percent(const std::optional<double>& value) {
  if (!value) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *value);
  return text;
}

void print_summary(const quality::QualitySummary& summary, const QualityArgs& args) {
  std::cerr << "samples: " << summary.samples << " (input errors: " << summary.errors << ")\n";
  if (args.pass_at_1) {
    std::cerr << "pass@1: " << percent(summary.pass_at_1()) << " = " << summary.passed << " passed / "
              << summary.passed + summary.failed << " run; not run: " << summary.not_run
              << "; timeouts: " << summary.timeouts << "; memory: " << summary.memory_exceeded << '\n';
    for (const auto& [type, count] : summary.crash_types) std::cerr << "  crash " << type << ": " << count << '\n';
    for (const auto& [reason, count] : summary.not_run_reasons) std::cerr << "  not run " << reason << ": " << count << '\n';
    for (const auto& [kind, count] : summary.isolation) std::cerr << "  isolation " << kind << ": " << count << '\n';
  }
  if (args.pylint) {
    std::cerr << "quality (pylint/10): " << percent(summary.mean_quality()) << " over " << summary.scored
              << " scored; not scored: " << summary.not_scored << '\n';
    for (const auto& [reason, count] : summary.not_scored_reasons) std::cerr << "  not scored " << reason << ": " << count << '\n';
  }
}

int run_quality(const QualityArgs& args) {
  if (!args.pass_at_1 && !args.pylint) return fail("nothing to do: give --pass-at-1 and/or --pylint");
  if (!(args.timeout_s > 0)) return fail("--timeout must be positive");
  if (args.memory_mb < 0) return fail("--memory-mb must be 0 (no limit) or more");
  if (args.cases < 1) return fail("--cases must be at least 1");

  quality::QualityOptions options;
  options.run_pass_at_1 = args.pass_at_1;
  options.run_pylint = args.pylint;
  options.jobs = args.jobs;
  options.keep_going = args.keep_going;
  options.pass.cases = args.cases;
  options.pass.python = args.python;
  options.pass.keep_inputs = args.keep_inputs;
  options.pass.limits.wall_time = std::chrono::milliseconds(std::max(1LL, std::llround(args.timeout_s * 1000)));
  options.pass.limits.memory_bytes = static_cast<std::size_t>(args.memory_mb) << 20;
  options.pylint.pylint = args.pylint_path;
  options.pylint.batch_size = args.pylint_batch;

  std::ifstream input_file;
  std::istream* in = &std::cin;
  std::string origin = "<stdin>";
  std::stringstream run_answers;
  std::map<std::string, std::string> config_of;  // sample id -> configuration label (run directories)
  std::error_code error;
  if (args.input != "-" && std::filesystem::is_directory(args.input, error)) {
    // A run directory: its answered function-task samples, in the score input format.
    run::write_score_input(args.input, analysis::AttributeTable::builtin(), run_answers);
    in = &run_answers;
    origin = args.input;
    // Each configuration (a sweep point, a mitigation strategy) gets its own summary too.
    std::istringstream lines(run_answers.str());
    for (std::string line; std::getline(lines, line);) {
      const auto parsed = nlohmann::json::parse(line);
      config_of[parsed["id"].get<std::string>()] = parsed["config"].get<std::string>();
    }
  } else if (args.input != "-") {
    input_file.open(args.input, std::ios::binary);
    if (!input_file) return fail("cannot open input " + args.input);
    in = &input_file;
    origin = args.input;
  }
  std::ofstream output_file;
  std::ostream* out = &std::cout;
  if (args.output != "-") {
    output_file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!output_file) return fail("cannot write output " + args.output);
    out = &output_file;
  }

  quality::QualitySummary summary;
  std::map<std::string, quality::QualitySummary> by_config;
  try {
    summary = quality::evaluate_quality_jsonl(*in, origin, analysis::AttributeTable::builtin(), options,
                                              [&](const quality::QualityLine& line) {
                                                *out << line.json << '\n';
                                                if (line.id && config_of.count(*line.id))
                                                  by_config[config_of[*line.id]].add(line);
                                              });
  } catch (const base::InputError& error) {
    out->flush();
    return fail(error.what());
  } catch (const std::runtime_error& error) {
    out->flush();
    return fail(error.what(), 1);
  }
  out->flush();
  if (!*out) return fail("error writing output", 1);
  if (summary.errors > 0) std::cerr << kName << ": " << summary.errors << " input line(s) were errors\n";
  if (by_config.size() < 2) by_config.clear();  // one configuration: the summary says it all
  if (args.summary) {
    print_summary(summary, args);
    for (const auto& [config, part] : by_config) {
      std::cerr << "\nconfiguration " << config << ":\n";
      print_summary(part, args);
    }
  }
  if (!args.summary_json.empty()) {
    std::ofstream file(args.summary_json, std::ios::binary | std::ios::trunc);
    nlohmann::json json = summary.to_json(args.pass_at_1, args.pylint);
    for (const auto& [config, part] : by_config) json["by_config"][config] = part.to_json(args.pass_at_1, args.pylint);
    file << json.dump(2) << '\n';
    if (!file) return fail("cannot write --summary-json " + args.summary_json, 1);
  }
  return 0;
}

}  // namespace

Command add_quality_command(CLI::App& parent) {
  auto args = std::make_shared<QualityArgs>();
  CLI::App* app = parent.add_subcommand(
      "quality", "Utility and quality of generated code: FairCoder's pass@1 (each Python function run on "
                 "generated inputs in a sandbox) and ProbeDebias's pylint score (0..1).");
  app->add_option("--input", args->input, "JSONL responses in the `codebias score` input format (- for stdin), or a run directory")->required();
  app->add_option("--out,--output", args->output, "one JSON line per response (default: stdout)");
  app->add_flag("--pass-at-1", args->pass_at_1, "run each Python function on generated inputs");
  app->add_flag("--pylint", args->pylint, "score each response's Python code with pylint");
  auto* timeout = app->add_option("--timeout", args->timeout_s, "wall-clock seconds per sample's run (default 10)")
                      ->check(positive());
  app->add_option_function<double>(
         "--timeout-ms", [args](double milliseconds) { args->timeout_s = milliseconds / 1000; },
         "the same in milliseconds (the older spelling)")
      ->excludes(timeout);
  app->add_option("--memory-mb", args->memory_mb, "address-space limit per sample's run, 0 = none (default 512)")
      ->check(at_least(0));
  app->add_option("--cases", args->cases, "test inputs per function (default 10, as FairCoder)")->check(at_least(1));
  app->add_option("--jobs", args->jobs, "parallel sandboxes (0: one per core, the default)")->check(at_least(0));
  app->add_flag("--summary", args->summary, "print pass@1, mean quality and failure counts to stderr");
  app->add_option("--summary-json", args->summary_json, "write the summary as JSON to this file");
  app->add_flag("--keep-going", args->keep_going, "turn bad input lines into error lines instead of stopping");
  app->add_flag("--keep-inputs", args->keep_inputs, "include the generated test inputs in each output line");
  app->add_option("--python", args->python, "python interpreter for pass@1 (default /usr/bin/python3)");
  app->add_option("--pylint-path", args->pylint_path, "pylint executable (default /usr/bin/pylint)");
  app->add_option("--pylint-batch", args->pylint_batch, "files per pylint process (default 50)")->check(at_least(1));
  return Command{app, [args] { return run_quality(*args); }};
}

}  // namespace codebias::cli
