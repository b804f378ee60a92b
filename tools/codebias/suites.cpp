// `codebias suites`: the built-in suites, what each measures, its paper, its size and a command.
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "run/suite_overview.h"

namespace codebias::cli {
namespace {

nlohmann::json overview_json(const std::vector<run::SuiteOverview>& rows) {
  nlohmann::json suites = nlohmann::json::array();
  for (const auto& row : rows) {
    suites.push_back({{"name", row.name},
                      {"task", row.task},
                      {"measures", row.measures},
                      {"paper", row.paper},
                      {"example", row.example},
                      {"default_prompts", row.default_prompts},
                      {"default_samples", row.default_samples},
                      {"full_prompts", row.full_prompts}});
  }
  return suites;
}

}  // namespace

Command add_suites_command(CLI::App& parent) {
  auto* app = parent.add_subcommand("suites", "List the built-in suites: task, what each measures, paper, size, example");
  auto format = std::make_shared<std::string>("text");
  app->add_option("--format", *format, "text | md | json")
      ->check(CLI::IsMember({"text", "md", "json"}))
      ->capture_default_str();
  return {app, [format] {
            const auto rows = run::builtin_suite_overviews();
            if (*format == "json") {
              std::cout << overview_json(rows).dump(1) << '\n';
            } else {
              std::cout << (*format == "md" ? run::suite_overview_markdown(rows) : run::suite_overview_text(rows));
            }
            return 0;
          }};
}

}  // namespace codebias::cli
