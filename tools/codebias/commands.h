// The subcommands of the codebias binary: each file registers its flags and returns its runner.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace codebias::cli {

struct Command {
  CLI::App* app = nullptr;   // the subcommand, for app->parsed()
  std::function<int()> run;  // the exit code: 0 ok, 1 internal or output error, 2 bad input/usage
};

Command add_score_command(CLI::App& parent);
Command add_prompts_command(CLI::App& parent);
Command add_quality_command(CLI::App& parent);
Command add_batch_command(CLI::App& parent);
Command add_run_command(CLI::App& parent);
Command add_serve_model_command(CLI::App& parent);
Command add_compare_command(CLI::App& parent);
Command add_gate_command(CLI::App& parent);
Command add_plan_command(CLI::App& parent);
Command add_report_command(CLI::App& parent);
Command add_screening_command(CLI::App& parent);
Command add_detect_command(CLI::App& parent);
Command add_suites_command(CLI::App& parent);

}  // namespace codebias::cli
