// `codebias prompts`: a benchmark suite in, JSONL chat prompts out (docs/suites.md, "Prompts").
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/strings.h"
#include "commands.h"
#include "number_flags.h"
#include "prompts/prompt_builder.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"
#include "tasks/task.h"

namespace codebias::cli {

namespace {

struct PromptsArgs {
  std::string suite = "faircoder";
  std::string suite_file;
  std::string request = "both";
  std::optional<std::size_t> limit;
  std::string output = "-";
  std::string task;  // empty: the suite's own task
  prompts::PromptOptions options;
};

constexpr const char* kName = "codebias prompts";

int fail(const std::string& message, int code = 2) {
  std::cerr << kName << ": " << message << '\n';
  return code;
}

int run_prompts(const PromptsArgs& args, const CLI::App& app) {
  std::optional<suites::Suite> from_file;
  const suites::Suite* suite = nullptr;
  try {
    if (!args.suite_file.empty()) {
      from_file = tasks::load_suite_file(args.suite_file);
      suite = &*from_file;
    } else {
      suite = &tasks::builtin_suite(args.suite);
    }
  } catch (const std::exception& error) {
    return fail(error.what());
  }

  prompts::PromptOptions options = args.options;
  options.limit = args.limit;
  // --request only concerns the testcase task; left at its default it must not reject --task function.
  if (app.count("--request") > 0) options.requests = {args.request};

  std::vector<prompts::Prompt> built;
  std::string task;
  try {
    const tasks::Task& chosen = tasks::task_for_suite(*suite, args.task);
    task = chosen.name;
    if (chosen.build_prompts == nullptr) return fail("task " + task + " builds no prompts");
    built = chosen.build_prompts(*suite, options);
  } catch (const std::invalid_argument& error) {
    return fail(error.what());
  }

  std::ofstream file;
  std::ostream* out = &std::cout;
  if (args.output != "-") {
    file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!file) return fail("cannot write " + args.output, 1);
    out = &file;
  }
  for (const auto& prompt : built) *out << prompts::prompt_json_line(prompt) << '\n';
  out->flush();
  if (!*out) return fail("writing " + (args.output == "-" ? std::string("stdout") : args.output) + " failed", 1);
  std::cerr << kName << ": " << built.size() << " prompts (suite " << suite->name << ", task " << task
            << ")\n";
  return 0;
}

}  // namespace

Command add_prompts_command(CLI::App& parent) {
  auto args = std::make_shared<PromptsArgs>();
  CLI::App* app = parent.add_subcommand(
      "prompts", "Write a benchmark suite's prompts as JSONL chat message lists with ids and metadata.");
  auto* suite = app->add_option("--suite", args->suite, "Built-in suite (" + base::join(suites::builtin_suite_names(), ", ") + ")");
  app->add_option("--suite-file", args->suite_file, "A suite JSON file of your own (docs/suites.md)")
      ->check(CLI::ExistingFile)
      ->excludes(suite);
  app->add_option("--task", args->task, base::join(tasks::task_names(true), " | ") + " (default: the suite's)")
      ->check(CLI::IsMember(tasks::task_names(true)));
  app->add_option("--scenario", args->options.scenarios,
                  "Function-task scenarios (job, edu, med) or ml-pipeline datasets (german_credit, ...); repeatable or "
                  "comma-separated; default all")
      ->delimiter(',');
  app->add_option("--attribute", args->options.attributes,
                  "Sensitive attribute keys (gender, race, age, parents_income, ...; repeatable or comma-separated); default all")
      ->delimiter(',');
  app->add_option("--request", args->request, "Testcase requests: group | counterfactual | both")
      ->check(CLI::IsMember({"group", "counterfactual", "both"}));
  app->add_option("--samples", args->options.samples, "Differently shuffled prompts per item")
      ->check(at_least(1));
  app->add_option("--seed", args->options.seed, "Seed of the attribute shuffles")->check(at_least(0));
  app->add_option("--position", args->options.position, "Sensitive attributes: shuffled | front | back")
      ->check(CLI::IsMember({"shuffled", "front", "back"}));
  app->add_option("--style", args->options.style,
                  "A style the suite declares (faircoder: vanilla | cot | fair-system-prompt)");
  app->add_option("--convention", args->options.convention,
                  "faircoder (demos as chat turns) | probedebias (demos in the system message)")
      ->check(CLI::IsMember({"faircoder", "probedebias"}));
  app->add_option("--path", args->options.paths, "ml-pipeline: conditional | pipeline (repeatable); default both")
      ->delimiter(',')
      ->check(CLI::IsMember({"conditional", "pipeline"}));
  app->add_option("--level", args->options.levels, "ml-pipeline: select | train | full (repeatable); default all")
      ->delimiter(',');
  // No comma splitting: set names such as normal=3,sensitive=1 hold commas.
  app->add_option("--attribute-set", args->options.attribute_sets,
                  "ml-pipeline: all | normal=<3|6|all>,sensitive=<1|all> (repeatable); default all");
  app->add_option("--mitigation", args->options.mitigations,
                  "ml-pipeline: none | explicit | generic | role (repeatable); default none")
      ->delimiter(',');
  app->add_option("--variants", args->options.variants,
                  "ml-pipeline: paraphrase variants per route (default 10); cat: option orders per item (default 6)")
      ->check(at_least(1));
  app->add_option("--names", args->options.names, "resume: selected | paper (the BAD paper's 48 names); default the suite's")
      ->check(CLI::IsMember({"selected", "paper"}));
  app->add_option("--names-per-group", args->options.names_per_group,
                  "resume: selected names per gender x ethnicity (default the suite's, 6)")
      ->check(at_least(1));
  app->add_option("--design", args->options.designs, "hiring-audit: rate | advance | pick (repeatable); default all")
      ->delimiter(',')
      ->check(CLI::IsMember({"rate", "advance", "pick"}));
  app->add_option("--limit", args->limit, "Keep only the first N prompts")->check(at_least(1));
  app->add_option("--out,-o,--output", args->output, "Output JSONL file; - for stdout");
  app->footer("Prompt layout, ids and metadata: docs/suites.md; ml-pipeline prompts: docs/ml-pipelines.md; resume and cat prompts: docs/screening.md.");
  return Command{app, [args, app] { return run_prompts(*args, *app); }};
}

}  // namespace codebias::cli
