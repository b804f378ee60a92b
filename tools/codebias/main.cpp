// codebias: the command-line front of libcodebias. Subcommands live one per file.
#include <exception>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/strings.h"
#include "commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  CLI::App app{"codebias finds where LLM-generated code treats people differently by gender, race, "
               "age and other sensitive attributes.",
               "codebias"};
  app.set_version_flag("--version", CODEBIAS_VERSION);
  app.require_subcommand(1);
  app.footer("Run `codebias SUBCOMMAND --help` for a subcommand's flags.");
  // Subcommands inherit the footer; theirs is set in their own files.

  std::vector<codebias::cli::Command> commands;
  commands.push_back(codebias::cli::add_score_command(app));
  commands.push_back(codebias::cli::add_prompts_command(app));
  commands.push_back(codebias::cli::add_quality_command(app));
  commands.push_back(codebias::cli::add_batch_command(app));
  commands.push_back(codebias::cli::add_run_command(app));
  commands.push_back(codebias::cli::add_serve_model_command(app));
  commands.push_back(codebias::cli::add_compare_command(app));
  commands.push_back(codebias::cli::add_gate_command(app));
  commands.push_back(codebias::cli::add_report_command(app));
  commands.push_back(codebias::cli::add_screening_command(app));
  commands.push_back(codebias::cli::add_detect_command(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  try {
    for (auto& command : commands) {
      if (command.app->parsed()) return command.run();
    }
  } catch (const std::exception& error) {
    // Messages may quote user or model text: no control bytes reach the terminal.
    std::cerr << "codebias: error: " << codebias::base::printable(error.what(), false) << '\n';
    return 1;
  }
  return 2;
}
