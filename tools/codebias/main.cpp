// codebias: the command-line front of libcodebias. Subcommands live one per file.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/strings.h"
#include "commands.h"

namespace {

// Edits (insertions, deletions, substitutions) between two words: suggests a command for a typo.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// CLI11 says only "A subcommand is required" for `codebias runn`: name the word and the
// nearest command instead. Returns false (after saying so) when the first word is no command.
bool first_word_is_a_command(int argc, char** argv, const std::vector<codebias::cli::Command>& commands) {
  if (argc < 2 || argv[1][0] == '-') return true;
  const std::string_view word = argv[1];
  std::string nearest;
  std::size_t nearest_distance = 3;  // more than two edits away is no suggestion
  std::string names;
  for (const auto& command : commands) {
    const std::string& name = command.app->get_name();
    if (name == word) return true;
    names += (names.empty() ? "" : ", ") + name;
    const std::size_t distance = edit_distance(word, name);
    if (distance < nearest_distance) nearest_distance = distance, nearest = name;
  }
  std::cerr << "codebias: unknown command '" << codebias::base::printable(word, false) << "'";
  if (!nearest.empty()) std::cerr << " (did you mean '" << nearest << "'?)";
  std::cerr << "\ncommands: " << names << "\nRun `codebias --help` for what each does.\n";
  return false;
}

}  // namespace

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
  commands.push_back(codebias::cli::add_suites_command(app));
  commands.push_back(codebias::cli::add_run_command(app));
  commands.push_back(codebias::cli::add_serve_model_command(app));
  commands.push_back(codebias::cli::add_compare_command(app));
  commands.push_back(codebias::cli::add_gate_command(app));
  commands.push_back(codebias::cli::add_plan_command(app));
  commands.push_back(codebias::cli::add_report_command(app));
  commands.push_back(codebias::cli::add_screening_command(app));
  commands.push_back(codebias::cli::add_detect_command(app));

  if (!first_word_is_a_command(argc, argv, commands)) return 2;
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
