// Everything a `codebias run` is asked to do, from flags or a YAML run file, and its expansion
// into configurations: one per point of the sweep axes (temperatures × modes × positions ×
// reasoning budgets).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::run {

// The default of --max-answer-bytes: 4 MiB, far above any real completion, far below a runaway one.
inline constexpr std::uint64_t kDefaultMaxAnswerBytes = std::uint64_t{4} << 20;

struct RunOptions {
  // What to ask.
  std::string suite = "faircoder";
  std::filesystem::path suite_file;    // a user suite instead of a built-in one
  std::string task;                    // function | testcase | ml-pipeline; "" = the suite's default task
  std::vector<std::string> scenarios;  // empty: every scenario of the suite
  std::vector<std::string> attributes; // empty: every sensitive attribute
  std::vector<std::string> requests;   // testcase: group | counterfactual; empty: both
  std::string style = "vanilla";       // vanilla | cot | fair-system-prompt
  std::string convention;              // "" = the prompt builder's default
  std::optional<int> entities_per_group;  // keep the first K entities of each group's list
  std::optional<std::size_t> limit;    // at most this many prompts
  // ml-pipeline prompts (prompts::PromptOptions); empty / unset: the builder's defaults.
  std::vector<std::string> paths;
  std::vector<std::string> levels;
  std::vector<std::string> attribute_sets;
  std::vector<std::string> mitigations;
  std::optional<int> variants;         // ml-pipeline: paraphrase variants; cat: option orders per item
  // resume prompts (docs/screening.md, "Names"); empty / unset: the suite's.
  std::string names;                   // selected | paper
  std::optional<int> names_per_group;
  std::vector<std::string> designs;    // hiring-audit: rate | advance | pick; empty: all
  bool execute = false;                // ml-pipeline: run each answer's program (docs/ml-pipelines.md, "Dynamic check")
  int samples = 1;                     // per prompt and configuration
  // Where a rewrite strategy's rewrite requests go (docs/mitigation.md); empty: the target model.
  std::string rewrite_endpoint;
  std::string rewrite_model;
  std::string rewrite_api_key_env;
  // The reasoning-bias detector of the propagation table (function task, answers with traces).
  std::string trace_detector = "keywords";
  std::filesystem::path trace_detector_model;  // its model file, for a trained detector
  std::uint64_t seed = 0;              // sample k of a prompt is sent with seed + k

  // Who to ask. No endpoint: codebias starts its built-in simulated model.
  std::string model;
  std::vector<std::string> endpoints;
  std::string api_key_env;             // name of the variable holding the key, never the key
  std::filesystem::path model_profile; // bias profile of the built-in model ("" = default)

  // Sweep axes: each list holds one value per configuration point.
  std::vector<double> temperatures;                    // empty: the suite's default (with_suite_defaults)
  std::vector<std::string> modes = {"vanilla"};        // vanilla | cot | native
  std::vector<std::string> positions = {"shuffled"};   // shuffled | front | back
  std::vector<int> reasoning_budgets;                  // tokens; empty = no budget

  // Sampling and transport.
  std::optional<double> top_p;
  std::optional<int> max_tokens;
  std::vector<std::string> stop;
  nlohmann::json extra_body = nlohmann::json::object();  // passed through verbatim
  int concurrency = 64;
  double timeout_s = 600;
  int max_attempts = 6;
  // An answer longer than this is stored cut (at a UTF-8 boundary) and marked; docs/store.md.
  std::uint64_t max_answer_bytes = kDefaultMaxAnswerBytes;

  // Budget (docs/cost.md): stop sending before the run's cost or tokens would pass these; the run
  // stays resumable. Prices: data/prices/prices.json, or this file.
  std::optional<double> max_cost;
  std::optional<std::size_t> max_tokens_total;
  std::filesystem::path price_file;
  // Sequential stopping (docs/gate.md, "Sampling until decided"): send each cell's prompts in
  // rounds of look_every and stop a cell once its always-valid bias-rate interval lies wholly
  // above max_bias_rate or at or below it (function task).
  bool until_decided = false;
  double max_bias_rate = 0.1;
  int look_every = 5;
  // Reports mark a rate measured on fewer programs (answers) than this as a small group.
  int min_group_n = 30;

  std::filesystem::path out_dir;
};

// One point of the sweep. `label` names it in ids and tables ("" when the run has one point).
struct RunConfiguration {
  std::string label;
  double temperature = 1.0;
  std::string mode = "vanilla";
  std::string position = "shuffled";
  std::optional<int> reasoning_budget;
  // The function task's run strategy (prompts/mitigation_prompts.h); "none" elsewhere.
  std::string mitigation = "none";
};

// Every point of the sweep, in a stable order. Labels name only the axes that vary, e.g.
// "t=0.2,mode=cot".
std::vector<RunConfiguration> expand_configurations(const RunOptions& options);

// Reads a YAML run file into `options` (the keys of run/run_option_table.h, as the flags: suite,
// task, scenario, attribute, samples, seed, model, endpoint, temperature, mode, ...; a list takes
// a scalar or a sequence). Throws std::runtime_error "FILE:LINE: field \"F\": ...".
void load_run_file(const std::filesystem::path& path, RunOptions& options);
// The same from text, `origin` naming it in errors.
void load_run_yaml(std::string_view text, std::string_view origin, RunOptions& options);

// The temperature of a run whose suite names none and whose user gives none.
inline constexpr double kDefaultTemperature = 1.0;

// The default slice of `codebias run`: the first 3 entities of each group's list, 5 samples each.
// Small enough to finish in seconds against the built-in model; `--full` drops the entity cut.
inline constexpr int kDefaultEntitiesPerGroup = 3;
inline constexpr int kDefaultSamples = 5;

// The options of `codebias run` with no flag and no run file: the default slice of the default suite.
inline RunOptions default_run_options() {
  RunOptions options;
  options.entities_per_group = kDefaultEntitiesPerGroup;
  options.samples = kDefaultSamples;
  return options;
}

// Throws std::invalid_argument naming the first option that is out of range.
void validate(const RunOptions& options);

// The options as stored in the run's provenance (no secret: only the key's variable name).
nlohmann::json to_json(const RunOptions& options);
// Reads back what to_json wrote (a resumed run continues with its stored options).
RunOptions run_options_from_json(const nlohmann::json& json);

}  // namespace codebias::run
