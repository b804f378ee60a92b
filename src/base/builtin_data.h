// Data files built into the binary at compile time (cmake/Embed.cmake, `codebias_embed`).
// Each function returns the file's exact bytes; the storage lives for the whole program.
#pragma once

#include <string_view>
#include <vector>

namespace codebias::data {

// data/attributes/attributes.json: the built-in sensitive-attribute table.
std::string_view builtin_attributes_json();
// data/analysis/refusal_phrases.json: how a test-case answer declines the task.
std::string_view builtin_refusal_phrases_json();

// One file built into the binary: its name, its path in the repository and its bytes.
struct BuiltinFile {
  std::string_view name;
  std::string_view path;
  std::string_view text;
};
// Every suite file of data/suites/, by file name (src/CMakeLists.txt generates the list): "faircoder"
// for data/suites/faircoder.json, "ml-pipelines" for ml_pipelines.json.
const std::vector<BuiltinFile>& builtin_suite_files();
// data/suites/faircoder.json: the built-in FairCoder benchmark suite (also in builtin_suite_files).
std::string_view builtin_faircoder_suite_json();
// data/attributes/solar.json and huang.json: their attribute tables.
std::string_view builtin_solar_attributes_json();
std::string_view builtin_huang_attributes_json();
// data/screening/names.json: candidate names by ethnicity and gender (tasks/screening/screening_names.h).
std::string_view builtin_screening_names_json();
// data/models/simulated-hiring-audit.json: the built-in model's planted effects on hiring-audit prompts.
std::string_view builtin_hiring_audit_model_json();
// data/models/simulated-default.json: the built-in simulated model's default bias profile.
std::string_view builtin_simulated_profile_json();
// src/quality/pass_at_1_driver.py: the pass@1 driver run by python3 in the sandbox.
std::string_view builtin_pass_at_1_driver_py();
// src/execution/function_calls.py: what the drivers that call a generated function share.
std::string_view builtin_function_calls_py();
// src/execution/counterfactual_driver.py: the counterfactual-execution driver.
std::string_view builtin_counterfactual_driver_py();
// src/execution/counterfactual_runner.js: runs JavaScript decision functions on planned personas.
std::string_view builtin_counterfactual_runner_js();
// src/execution/CounterfactualRunner.java: compiles Java answers and runs them on planned personas.
std::string_view builtin_counterfactual_runner_java();
// src/tasks/pipelines/pipeline_probe_driver.py: the ML-pipeline probe run by python3 in the sandbox.
std::string_view builtin_pipeline_probe_driver_py();
// src/execution/sandbox_guard.py: what every sandbox driver starts with (execution/driver_output.h).
std::string_view builtin_sandbox_guard_py();
// src/execution/fork_server.py: the fork server of the drivers that run many jobs (execution/driver_output.h).
std::string_view builtin_fork_server_py();
// data/mitigations/strategies.json: the function task's mitigation strategies (prompts/mitigation_prompts.h).
std::string_view builtin_mitigation_strategies_json();
// data/metrics/metrics.json: the metrics registry (metrics/metric_registry.h).
std::string_view builtin_metrics_json();
// data/screening/cps_table11.json: BLS CPS table 11, 2022 (metrics/labour_force.h).
std::string_view builtin_cps_table11_json();
// data/screening/job_areas.json: rules mapping a JobTitle / JobArea to a CPS occupation.
std::string_view builtin_job_areas_json();
// data/screening/paper_labour_force.json: the BAD notebook's labour-force constants.
std::string_view builtin_paper_labour_force_json();
// data/screening/bad_published_figures.json: the BAD paper's published résumé figures.
std::string_view builtin_bad_published_figures_json();
// data/screening/resume_reading.json: placeholders, refusal phrases, languages and title words for
// reading résumé and CAT answers (tasks/screening/analysis/resume_extraction.h, cat_answer.h).
std::string_view builtin_resume_reading_json();
// data/detectors/keyword_rules.json: the keywords reasoning-bias detector's rules (detectors/keyword_rules.h).
std::string_view builtin_keyword_rules_json();
// data/detectors/judge_prompt.json: the LLM judge's prompt (detectors/judge_detector.h).
std::string_view builtin_judge_prompt_json();

}  // namespace codebias::data
