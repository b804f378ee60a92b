// `codebias run`: a suite against a model, end to end, into one run directory.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/utc_time.h"
#include "commands.h"
#include "run/run.h"

namespace codebias::cli {
namespace {

// The default slice: the first 3 entities of each group's list, 5 samples each. Small enough
// to finish in seconds against the built-in model; `--full` runs every entity.
constexpr int kDefaultEntitiesPerGroup = 3;
constexpr int kDefaultSamples = 5;

struct RunArgs {
  std::string config_file;
  std::string resume;
  bool retry_errors = false;
  bool full = false;
  run::RunOptions options;
  std::vector<std::string> scenarios, attributes, requests, endpoints, modes, positions, stop;
  std::vector<double> temperatures;
  std::vector<int> budgets;
  std::optional<int> entities_per_group;
  std::optional<std::size_t> limit;
  std::optional<double> top_p;
  std::optional<int> max_tokens;
  std::string out, suite_file, model_profile;
};

// Flags given on the command line win over the run file.
void apply_flags(CLI::App& app, RunArgs& args) {
  auto& o = args.options;
  const auto given = [&](const char* flag) { return app.count(flag) > 0; };
  if (given("--scenario")) o.scenarios = args.scenarios;
  if (given("--attribute")) o.attributes = args.attributes;
  if (given("--request")) o.requests = args.requests;
  if (given("--endpoint")) o.endpoints = args.endpoints;
  if (given("--mode")) o.modes = args.modes;
  if (given("--position")) o.positions = args.positions;
  if (given("--stop")) o.stop = args.stop;
  if (given("--temperature")) o.temperatures = args.temperatures;
  if (given("--reasoning-budget")) o.reasoning_budgets = args.budgets;
  if (given("--entities-per-group")) o.entities_per_group = args.entities_per_group;
  if (given("--limit")) o.limit = args.limit;
  if (given("--top-p")) o.top_p = args.top_p;
  if (given("--max-tokens")) o.max_tokens = args.max_tokens;
  if (given("--out")) o.out_dir = args.out;
  if (given("--suite-file")) o.suite_file = args.suite_file;
  if (given("--model-profile")) o.model_profile = args.model_profile;
}

int run_command(CLI::App& app, RunArgs& args) {
  const run::RunIo io{&std::cerr, isatty(STDERR_FILENO) == 1};
  run::RunOutcome outcome;
  if (!args.resume.empty()) {
    // A resumed run sends what it planned; options that would change the plan are refused.
    for (const auto* option : app.get_options()) {
      const std::string name = option->get_name();
      if (option->count() > 0 && name != "--resume" && name != "--retry-errors" && name != "--endpoint") {
        std::cerr << "codebias run: " << name << " cannot change a run being resumed (only --endpoint and "
                  << "--retry-errors apply with --resume)\n";
        return 2;
      }
    }
    run::ResumeOptions resume;
    resume.retry_errors = args.retry_errors;
    resume.endpoints = args.endpoints;
    outcome = run::resume_run(args.resume, resume, io);
  } else {
    if (args.retry_errors) {
      std::cerr << "codebias run: --retry-errors goes with --resume DIR\n";
      return 2;
    }
    // Defaults of the default slice, replaced by the run file and then by flags.
    args.options.entities_per_group = kDefaultEntitiesPerGroup;
    if (!app.count("--samples")) args.options.samples = kDefaultSamples;
    run::RunOptions from_flags = args.options;
    if (!args.config_file.empty()) {
      run::load_run_file(args.config_file, args.options);
      // Scalars CLI11 wrote straight into options must still win over the file.
      if (app.count("--samples")) args.options.samples = from_flags.samples;
      if (app.count("--seed")) args.options.seed = from_flags.seed;
      if (app.count("--model")) args.options.model = from_flags.model;
      if (app.count("--suite")) args.options.suite = from_flags.suite;
      if (app.count("--task")) args.options.task = from_flags.task;
      if (app.count("--style")) args.options.style = from_flags.style;
      if (app.count("--convention")) args.options.convention = from_flags.convention;
      if (app.count("--api-key-env")) args.options.api_key_env = from_flags.api_key_env;
      if (app.count("--concurrency")) args.options.concurrency = from_flags.concurrency;
      if (app.count("--timeout")) args.options.timeout_s = from_flags.timeout_s;
      if (app.count("--max-attempts")) args.options.max_attempts = from_flags.max_attempts;
    }
    apply_flags(app, args);
    if (args.full) args.options.entities_per_group.reset();
    if (args.options.out_dir.empty()) args.options.out_dir = utc_now("runs/run-%Y%m%d-%H%M%S");
    outcome = run::start_run(args.options, io);
  }
  if (outcome.cancelled) {
    std::cerr << "codebias run: interrupted; continue with: codebias run --resume " << outcome.dir.string() << '\n';
    return 130;
  }
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "run", "Run a suite against a model (or the built-in simulated one): plan, generate, analyse, report.");
  auto args = std::make_shared<RunArgs>();
  auto& o = args->options;
  app->add_option("--config", args->config_file, "YAML run file; its keys are these flags' names")
      ->check(CLI::ExistingFile);
  app->add_option("--resume", args->resume, "Continue the run in DIR (only what is still pending)")
      ->check(CLI::ExistingDirectory);
  app->add_flag("--retry-errors", args->retry_errors, "With --resume: send failed samples again");
  app->add_option("--suite", o.suite, "Built-in suite")->capture_default_str();
  app->add_option("--suite-file", args->suite_file, "A suite data file instead of a built-in suite");
  app->add_option("--task", o.task, "function | testcase")->capture_default_str();
  app->add_option("--scenario", args->scenarios, "job | edu | med (repeatable; default: all)");
  app->add_option("--attribute", args->attributes, "Sensitive attribute (repeatable; default: all)");
  app->add_option("--request", args->requests, "testcase: group | counterfactual (repeatable)");
  app->add_option("--style", o.style, "vanilla | cot | fair-system-prompt")->capture_default_str();
  app->add_option("--convention", o.convention, "faircoder | probedebias (default: the suite's)");
  app->add_option("--entities-per-group", args->entities_per_group,
                  "First K entities of each group's list (default 3)");
  app->add_flag("--full", args->full, "Every entity of the suite (the whole benchmark)");
  app->add_option("--limit", args->limit, "At most N prompts");
  app->add_option("--samples", o.samples, "Samples per prompt and configuration (default 5)");
  app->add_option("--seed", o.seed, "Base seed: sample k is sent with seed + k")->capture_default_str();
  app->add_option("--model", o.model, "Model name sent to the endpoint");
  app->add_option("--endpoint", args->endpoints,
                  "OpenAI-compatible base URL (repeatable: load is shared); none: the built-in model");
  app->add_option("--api-key-env", o.api_key_env, "Environment variable holding the API key");
  app->add_option("--model-profile", args->model_profile, "Bias profile of the built-in model (JSON)");
  app->add_option("--temperature", args->temperatures, "Sampling temperature (repeatable: a sweep axis)");
  app->add_option("--mode", args->modes, "vanilla | cot | native (repeatable: a sweep axis)");
  app->add_option("--position", args->positions, "shuffled | front | back (repeatable: a sweep axis)");
  app->add_option("--reasoning-budget", args->budgets, "Reasoning tokens (repeatable: a sweep axis)");
  app->add_option("--top-p", args->top_p, "Nucleus sampling");
  app->add_option("--max-tokens", args->max_tokens, "Completion token limit");
  app->add_option("--stop", args->stop, "Stop sequence (repeatable)");
  app->add_option("--concurrency", o.concurrency, "Requests in flight")->capture_default_str();
  app->add_option("--timeout", o.timeout_s, "Seconds per request attempt")->capture_default_str();
  app->add_option("--max-attempts", o.max_attempts, "Attempts per sample")->capture_default_str();
  app->add_option("--out", args->out, "Run directory (default runs/run-<UTC time>)");
  app->footer(
      "Without --endpoint the built-in simulated model answers (reports say so). The run directory "
      "holds run.sqlite, summary.json, responses.jsonl, metrics.csv, samples.csv and report.md; "
      "a killed run continues with --resume DIR.");
  return {app, [app, args] { return run_command(*app, *args); }};
}

}  // namespace codebias::cli
