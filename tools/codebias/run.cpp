// `codebias run`: a suite against a model, end to end, into one run directory.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/strings.h"
#include "commands.h"
#include "endpoint_flag.h"
#include "run/default_run_dir.h"
#include "run/run.h"
#include "run/run_option_table.h"
#include "suites/suite.h"

namespace codebias::cli {
namespace {

struct RunArgs {
  std::string config_file;
  std::string resume;
  bool retry_errors = false;
  bool full = false;
  bool no_html = false;
  run::RunOptions from_flags;  // each option of the table writes its field here
  // The flag of each row of run::run_option_table() (nullptr: the row has none).
  std::vector<const CLI::Option*> flags;
};

bool given(const CLI::Option* flag) { return flag != nullptr && flag->count() > 0; }

// A resumed run sends what it planned: it takes --retry-errors and the options that leave the
// plan alone (--endpoint); the flags that apply on resume, for the refusal message.
std::string flags_applying_on_resume() {
  std::string names;
  for (const auto& row : run::run_option_table()) {
    if (row.applies_on_resume) names += std::string(row.flag) + " and ";
  }
  return names + "--retry-errors";
}

bool applies_on_resume(const RunArgs& args, const CLI::Option& option) {
  const std::string name = option.get_name();
  if (name == "--resume" || name == "--retry-errors" || name == "--no-html") return true;
  const auto rows = run::run_option_table();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (args.flags[i] == &option) return rows[i].applies_on_resume;
  }
  return false;
}

// Failed samples are listed by error kind, each with one of its messages, so the cause reaches
// the terminal. A run in which no sample was answered and every one failed (a wrong URL, a closed
// port, a refused key) is an error, not a result: exit 1.
int failed_run_status(const run::RunOutcome& outcome) {
  const auto& c = outcome.counts;
  if (outcome.cancelled || c.planned == 0 || c.errors == 0) return 0;
  const bool all_failed = c.done == 0 && c.errors >= c.planned;
  std::cerr << "codebias run: " << (all_failed ? "every request failed (" : "some requests failed (") << c.errors
            << " of " << c.planned << " samples):\n";
  for (const auto& [kind, errors] : outcome.errors_by_kind) {
    std::cerr << "  " << base::printable(kind, false) << ": " << errors.count << " samples, e.g. \""
              << base::printable(errors.example, false) << "\"\n";
  }
  std::cerr << (all_failed ? "fix the endpoint or key, then: " : "to send them again: ") << "codebias run --resume "
            << base::printable(outcome.dir.string(), false) << " --retry-errors\n";
  return all_failed ? 1 : 0;
}

run::RunOutcome start_from_flags(const RunArgs& args, const run::RunIo& io) {
  // Defaults of the default slice, replaced by the run file and then by flags.
  run::RunOptions options = run::default_run_options();
  if (!args.config_file.empty()) run::load_run_file(args.config_file, options);
  const auto rows = run::run_option_table();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (given(args.flags[i])) run::copy_field(rows[i], args.from_flags, options);
  }
  if (args.full) options.entities_per_group.reset();
  if (options.out_dir.empty()) options.out_dir = run::default_run_dir();
  return run::start_run(options, io);
}

int run_command(CLI::App& app, RunArgs& args) {
  const run::RunIo io{&std::cerr, isatty(STDERR_FILENO) == 1, !args.no_html};
  run::RunOutcome outcome;
  if (!args.resume.empty()) {
    for (const auto* option : app.get_options()) {
      if (option->count() > 0 && !applies_on_resume(args, *option)) {
        std::cerr << "codebias run: " << option->get_name() << " cannot change a run being resumed (only "
                  << flags_applying_on_resume() << " apply with --resume)\n";
        return 2;
      }
    }
  } else if (args.retry_errors) {
    std::cerr << "codebias run: --retry-errors goes with --resume DIR\n";
    return 2;
  }
  try {
    if (!args.resume.empty()) {
      run::ResumeOptions resume;
      resume.retry_errors = args.retry_errors;
      resume.endpoints = args.from_flags.endpoints;
      resume.budget = {args.from_flags.max_cost, args.from_flags.max_tokens_total};
      outcome = run::resume_run(args.resume, resume, io);
    } else {
      outcome = start_from_flags(args, io);
    }
  } catch (const std::invalid_argument& error) {
    // Bad input (options, endpoint URLs, an unset key variable): refused before anything is sent.
    std::cerr << "codebias run: error: " << base::printable(error.what(), false) << '\n';
    return 2;
  }
  if (outcome.cancelled) {
    std::cerr << "codebias run: interrupted; continue with: codebias run --resume "
              << base::printable(outcome.dir.string(), false) << '\n';
    return 130;
  }
  if (outcome.stopped_at_budget) {
    std::cerr << "codebias run: stopped at the budget with " << outcome.counts.pending
              << " samples pending; continue with a higher budget: codebias run --resume "
              << base::printable(outcome.dir.string(), false) << " --max-cost USD (or --max-tokens-total N)\n";
  }
  return failed_run_status(outcome);
}

// Whether a field holds unsigned numbers: CLI11 would wrap "-1" into a huge count or seed.
template <typename T>
struct HoldsUnsigned : std::is_unsigned<T> {};
template <typename T>
struct HoldsUnsigned<std::optional<T>> : std::is_unsigned<T> {};
template <typename T>
struct HoldsUnsigned<std::vector<T>> : std::is_unsigned<T> {};

// The flag of one table row, writing into `from_flags`; nullptr for a row only run files set.
const CLI::Option* add_table_flag(CLI::App& app, const run::RunOptionRow& row, run::RunOptions& from_flags) {
  if (row.flag.empty()) return nullptr;
  return std::visit(
      [&](auto member) -> const CLI::Option* {
        auto& field = from_flags.*member;
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>, nlohmann::json>) {
          return nullptr;  // a mapping: run files only
        } else if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>) {
          return app.add_flag(std::string(row.flag), field, std::string(row.help));
        } else {
          auto* option = app.add_option(std::string(row.flag), field, std::string(row.help));
          option->type_name(std::string(row.value_hint));
          if (row.comma_separated) option->delimiter(',');
          if (row.show_default) option->capture_default_str();
          if (row.value_hint == "URL") option->check(endpoint_url_check());
          if constexpr (HoldsUnsigned<std::decay_t<decltype(field)>>::value) {
            const std::string flag(row.flag);
            option->check(CLI::Validator(
                [flag](const std::string& text) {
                  return text.starts_with('-') ? "must be a non-negative integer, not " + text : std::string();
                },
                "", "non-negative"));
          }
          return option;
        }
      },
      row.field);
}

}  // namespace

Command add_run_command(CLI::App& parent) {
  auto* app = parent.add_subcommand(
      "run", "Run a suite against a model (or the built-in simulated one): plan, generate, analyse, report.");
  auto args = std::make_shared<RunArgs>();
  app->add_option("--config", args->config_file, "YAML run file; its keys are these flags' names")
      ->check(CLI::ExistingFile);
  app->add_option("--resume", args->resume, "Continue the run in DIR (only what is still pending)")
      ->check(CLI::ExistingDirectory);
  app->add_flag("--retry-errors", args->retry_errors, "With --resume: send failed samples again");
  app->add_flag("--full", args->full, "Every entity of the suite (the whole benchmark)");
  app->add_flag("--no-html", args->no_html, "Do not write report.html (the other report files are always written)");
  for (const auto& row : run::run_option_table()) args->flags.push_back(add_table_flag(*app, row, args->from_flags));
  // The suite list comes from the suites themselves, as `codebias suites` and the README's table do.
  std::string suite_names;
  for (const auto& name : suites::builtin_suite_names()) suite_names += (suite_names.empty() ? "" : " | ") + name;
  app->get_option("--suite")->description("Built-in suite: " + suite_names + " (codebias suites: what each measures)");
  app->footer(
      "Without --endpoint the built-in simulated model answers (reports say so). The run directory "
      "holds run.sqlite, summary.json, responses.jsonl, metrics.csv, samples.csv, report.md and report.html; "
      "a killed run continues with --resume DIR.");
  return {app, [app, args] { return run_command(*app, *args); }};
}

}  // namespace codebias::cli
