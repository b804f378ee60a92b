// `codebias batch export|import`: a run's pending requests out as an OpenAI Batch file, and the
// batch engine's results (OpenAI Batch API or `vllm run-batch`) back into the run (docs/store.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "number_flags.h"
#include "run/batch_file.h"

namespace codebias::cli {

namespace {

struct BatchArgs {
  std::string run_dir;
  std::string output = "-";
  bool retry_errors = false;
  std::size_t limit = 0;
  std::vector<std::string> result_files;
};

int fail(const char* name, const std::string& message, int code) {
  std::cerr << name << ": " << message << '\n';
  return code;
}

int run_export(const BatchArgs& args) {
  constexpr const char* kName = "codebias batch export";
  std::ofstream file;
  if (args.output != "-") {
    file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!file) return fail(kName, "cannot write " + args.output, 1);
  }
  std::ostream& out = args.output == "-" ? std::cout : file;
  std::size_t written = 0;
  try {
    written = run::export_batch_file(args.run_dir, out, args.retry_errors, args.limit);
  } catch (const store::StoreError& error) {
    if (file.is_open()) {
      // No run: leave no empty batch file behind.
      file.close();
      std::filesystem::remove(args.output);
    }
    return fail(kName, error.what(), 2);
  }
  out.flush();
  if (!out) return fail(kName, "writing " + args.output + " failed", 1);
  std::cerr << kName << ": " << written << " requests written to " << (args.output == "-" ? "stdout" : args.output)
            << '\n';
  if (written > run::kOpenAiBatchMaxRequests) {
    std::cerr << kName << ": note: OpenAI's Batch API takes at most " << run::kOpenAiBatchMaxRequests
              << " requests per file; use --limit and import before the next export (vLLM has no limit)\n";
  }
  return 0;
}

int run_import(const BatchArgs& args) {
  constexpr const char* kName = "codebias batch import";
  bool any_problem = false;
  const auto report = [&](const std::string& path, const run::ImportStats& stats) {
    for (const auto& problem : stats.problems) std::cerr << kName << ": " << problem << '\n';
    any_problem = any_problem || !stats.problems.empty();
    std::cerr << kName << ": " << path << ": " << stats.lines << " lines: " << stats.done << " done, " << stats.errors
              << " failed, " << stats.already_done << " already done (skipped), " << stats.problems.size()
              << " not imported\n";
  };
  try {
    const auto counts = run::import_batch_files(args.run_dir, args.result_files, report);
    std::cerr << kName << ": run " << args.run_dir << ": " << counts.done << " of " << counts.planned << " done, "
              << counts.errors << " failed, " << counts.pending << " pending\n";
  } catch (const store::StoreError& error) {
    return fail(kName, error.what(), 2);
  } catch (const std::invalid_argument& error) {
    return fail(kName, error.what(), 2);
  }
  return any_problem ? 2 : 0;
}

}  // namespace

Command add_batch_command(CLI::App& parent) {
  auto args = std::make_shared<BatchArgs>();
  CLI::App* app =
      parent.add_subcommand("batch", "Move a run's requests through a batch engine (OpenAI Batch API, vllm run-batch)");
  app->require_subcommand(1);
  app->footer(
      "Exit status: 0 ok, 2 bad usage, no run, or result lines not imported (FILE:LINE: field ...), "
      "1 internal or output error.");

  CLI::App* export_app = app->add_subcommand(
      "export", "Write the run's pending requests as OpenAI Batch JSONL ({custom_id, method, url, body} per line)");
  export_app->add_option("RUN_DIR", args->run_dir, "Run directory (holding run.sqlite)")->required();
  export_app->add_option("--out,--output", args->output, "Batch input file; - for stdout")->capture_default_str();
  export_app->add_flag("--retry-errors", args->retry_errors, "Also export the samples that failed");
  export_app->add_option("--limit", args->limit, "Export at most this many requests (0: all)")->check(at_least(0))->capture_default_str();

  CLI::App* import_app = app->add_subcommand(
      "import", "Read batch output files (OpenAI output/error files, vllm run-batch output) into the run");
  import_app->add_option("RUN_DIR", args->run_dir, "Run directory (holding run.sqlite)")->required();
  import_app->add_option("FILE", args->result_files, "Batch output JSONL files")->required();

  return Command{app, [args, export_app] { return export_app->parsed() ? run_export(*args) : run_import(*args); }};
}

}  // namespace codebias::cli
