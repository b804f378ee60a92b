#include "run/suite_overview.h"

#include <set>

#include "run/run.h"
#include "run/run_options.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"

namespace codebias::run {
namespace {

std::size_t distinct_prompts(const std::vector<generation::PlannedSample>& samples) {
  std::set<std::string> ids;
  for (const auto& sample : samples) ids.insert(sample.prompt_id);
  return ids.size();
}

}  // namespace

std::vector<SuiteOverview> builtin_suite_overviews() {
  std::vector<SuiteOverview> rows;
  for (const auto& name : suites::builtin_suite_names()) {
    const suites::Suite& suite = tasks::builtin_suite(name);
    RunOptions options = default_run_options();
    options.suite = name;
    options = with_suite_defaults(options, suite);
    const tasks::Task& task = tasks::find_task(options.task);
    const auto default_slice = plan_samples(options, task, suite);
    options.entities_per_group.reset();
    options.samples = 1;
    SuiteOverview row{name, options.task, suite.about.measures, suite.about.paper, suite.about.example,
                      distinct_prompts(default_slice), default_slice.size(),
                      distinct_prompts(plan_samples(options, task, suite))};
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string suite_overview_markdown(const std::vector<SuiteOverview>& rows) {
  std::string out =
      "| suite | task | measures | paper | default slice | whole suite |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    out += "| `" + row.name + "` | " + row.task + " | " + row.measures + " | " + row.paper + " | " +
           std::to_string(row.default_prompts) + " prompts, " + std::to_string(row.default_samples) + " samples | " +
           std::to_string(row.full_prompts) + " prompts (`--full`) |\n";
  }
  out += "\nExamples (built-in model; add `--model M --endpoint URL` for a server):\n\n```\n";
  for (const auto& row : rows) out += row.example + "\n";
  out += "```\n";
  return out;
}

std::string suite_overview_text(const std::vector<SuiteOverview>& rows) {
  std::string out;
  for (const auto& row : rows) {
    out += row.name + "  (task " + row.task + ")\n";
    out += "  measures: " + row.measures + "\n";
    out += "  paper:    " + row.paper + "\n";
    out += "  size:     " + std::to_string(row.default_prompts) + " prompts, " +
           std::to_string(row.default_samples) + " samples by default; " + std::to_string(row.full_prompts) +
           " prompts with --full\n";
    out += "  example:  " + row.example + "\n\n";
  }
  out += "Flags: codebias run --help. Suite files and their format: docs/suites.md.\n";
  return out;
}

}  // namespace codebias::run
