// The rows of `codebias run`'s option table and the field operations every reader shares.
#include "run/run_option_table.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace codebias::run {
namespace {

constexpr std::array<std::string_view, 3> kModes = {"vanilla", "cot", "native"};
constexpr std::array<std::string_view, 3> kPositions = {"shuffled", "front", "back"};
constexpr std::array<std::string_view, 2> kPaths = {"conditional", "pipeline"};
constexpr std::array<std::string_view, 3> kDesigns = {"rate", "advance", "pick"};

constexpr RangeBound kAboveZero{0, false};
constexpr RangeBound kAtLeastOne{1, true};

using O = RunOptions;

// clang-format off
const std::array<RunOptionRow, 50> kRows = {{
  {.flag = "--suite", .yaml_key = "suite", .json_key = "suite", .value_hint = "NAME", .expected = "a suite name",
   .help = "Built-in suite (codebias suites lists them)", .field = &O::suite, .show_default = true},
  {.flag = "--suite-file", .yaml_key = "suite-file", .json_key = "suite_file", .value_hint = "PATH", .expected = "a path",
   .help = "A suite data file instead of a built-in suite", .field = &O::suite_file},
  {.flag = "--task", .yaml_key = "task", .json_key = "task", .value_hint = "TASK", .expected = "a task name",
   .help = "function | testcase | ml-pipeline | resume | cat (default: the suite's: function for faircoder, ml-pipeline for "
           "ml-pipelines, resume for bad-resume, cat for bad-cat)", .field = &O::task},
  {.flag = "--scenario", .yaml_key = "scenario", .json_key = "scenarios", .value_hint = "NAME", .expected = "a scenario",
   .help = "job | edu | med, an ml-pipeline dataset or a cat item id (repeatable or comma-separated; default: all)",
   .field = &O::scenarios, .comma_separated = true},
  {.flag = "--attribute", .yaml_key = "attribute", .json_key = "attributes", .value_hint = "A", .expected = "an attribute",
   .help = "Sensitive attribute (repeatable or comma-separated; default: all)", .field = &O::attributes,
   .comma_separated = true},
  {.flag = "--request", .yaml_key = "request", .json_key = "requests", .value_hint = "KIND",
   .expected = "group or counterfactual", .help = "testcase: group | counterfactual (repeatable)",
   .field = &O::requests},
  {.flag = "--path", .yaml_key = "path", .json_key = "paths", .value_hint = "PATH",
   .expected = "conditional or pipeline", .help = "ml-pipeline: conditional | pipeline (repeatable; default: both)",
   .field = &O::paths, .choices = kPaths, .comma_separated = true},
  {.flag = "--level", .yaml_key = "level", .json_key = "levels", .value_hint = "LEVEL", .expected = "a pipeline level",
   .help = "ml-pipeline: select | train | full (repeatable; default: all)", .field = &O::levels,
   .comma_separated = true},
  {.flag = "--attribute-set", .yaml_key = "attribute-set", .json_key = "attribute_sets", .value_hint = "SET",
   .expected = "an attribute set",
   .help = "ml-pipeline: all | normal=<3|6|all>,sensitive=<1|all> (repeatable, not comma-separated; default: all)",
   .field = &O::attribute_sets},
  {.flag = "--mitigation", .yaml_key = "mitigation", .json_key = "mitigations", .value_hint = "NAME",
   .expected = "a mitigation",
   .help = "function: a run strategy, none | fair-system-prompt | few-shot | cot-debias | reasoning-rewrite | "
           "summary-only | debias-only | feedback-repair (repeatable or comma-separated: a sweep axis; docs/mitigation.md); ml-pipeline: none | explicit | "
           "generic | role (repeatable; default: none)",
   .field = &O::mitigations, .comma_separated = true},
  {.flag = "--execute", .yaml_key = "execute", .json_key = "execute", .value_hint = "", .expected = "true or false",
   .help = "Also RUN the model-written code in the sandbox (no network, no file writes, time and memory limits). "
           "function, decision: call each decision function on personas that differ in one sensitive attribute "
           "(docs/counterfactual.md); ml-pipeline: run each program on synthetic data and compare the columns that "
           "reach fit with the static analysis (docs/ml-pipelines.md)", .field = &O::execute},
  {.flag = "--trace-detector", .yaml_key = "trace-detector", .json_key = "trace_detector", .value_hint = "NAME",
   .expected = "a detector name",
   .help = "function: the reasoning-bias detector of the propagation table (keywords | tfidf-lr | tfidf-svm | steps-lr)",
   .field = &O::trace_detector, .show_default = true},
  {.flag = "--trace-detector-model", .yaml_key = "trace-detector-model", .json_key = "trace_detector_model",
   .value_hint = "PATH", .expected = "a path",
   .help = "The model file of a trained --trace-detector (codebias detect train)", .field = &O::trace_detector_model},
  {.flag = "--rewrite-endpoint", .yaml_key = "rewrite-endpoint", .json_key = "rewrite_endpoint", .value_hint = "URL",
   .expected = "a URL",
   .help = "function: the OpenAI-compatible base URL of the model that rewrites traces for a rewrite strategy "
           "(default: the target model)",
   .field = &O::rewrite_endpoint},
  {.flag = "--rewrite-model", .yaml_key = "rewrite-model", .json_key = "rewrite_model", .value_hint = "NAME",
   .expected = "a model name", .help = "The model name --rewrite-endpoint serves", .field = &O::rewrite_model},
  {.flag = "--rewrite-api-key-env", .yaml_key = "rewrite-api-key-env", .json_key = "rewrite_api_key_env",
   .value_hint = "VAR", .expected = "a variable name", .help = "Environment variable holding --rewrite-endpoint's API key",
   .field = &O::rewrite_api_key_env},
  {.flag = "--variants", .yaml_key = "variants", .json_key = "variants", .value_hint = "N", .expected = "an integer",
   .help = "ml-pipeline: paraphrase variants per route (default 10); cat: option orders per item (default 6)",
   .field = &O::variants, .low = kAtLeastOne},
  {.flag = "--names", .yaml_key = "names", .json_key = "names", .value_hint = "LIST", .expected = "selected or paper",
   .help = "resume: selected (drawn by the suite's rules) | paper (the BAD paper's 48 names) (default: the suite's)",
   .field = &O::names},
  {.flag = "--names-per-group", .yaml_key = "names-per-group", .json_key = "names_per_group", .value_hint = "N",
   .expected = "an integer", .help = "resume: selected names per gender x ethnicity (default: the suite's, 6)",
   .field = &O::names_per_group, .low = kAtLeastOne},
  {.flag = "--design", .yaml_key = "design", .json_key = "designs", .value_hint = "DESIGN",
   .expected = "rate, advance or pick",
   .help = "hiring-audit: rate (a 1-10 score) | advance (interview yes/no) | pick (the best of 8) (repeatable or "
           "comma-separated; default: all; docs/hiring-audit.md)",
   .field = &O::designs, .choices = kDesigns, .comma_separated = true},
  {.flag = "--style", .yaml_key = "style", .json_key = "style", .value_hint = "STYLE", .expected = "a prompt style",
   .help = "vanilla | cot | fair-system-prompt", .field = &O::style, .show_default = true},
  {.flag = "--convention", .yaml_key = "convention", .json_key = "convention", .value_hint = "NAME",
   .expected = "a convention", .help = "faircoder | probedebias (default: the suite's)", .field = &O::convention},
  {.flag = "--entities-per-group", .yaml_key = "entities-per-group", .json_key = "entities_per_group",
   .value_hint = "K", .expected = "an integer", .help = "First K entities of each group's list (default 3)",
   .field = &O::entities_per_group, .low = kAboveZero},
  {.flag = "--limit", .yaml_key = "limit", .json_key = "limit", .value_hint = "N",
   .expected = "a positive integer",
   .help = "At most N prompts, spread evenly over the suite (each topic, dataset and scenario keeps its share)",
   .field = &O::limit, .low = kAtLeastOne},
  {.flag = "--samples", .yaml_key = "samples", .json_key = "samples", .value_hint = "N", .expected = "an integer",
   .help = "Samples per prompt and configuration (default 5)", .field = &O::samples, .low = kAtLeastOne},
  {.flag = "--seed", .yaml_key = "seed", .json_key = "seed", .value_hint = "S", .expected = "a non-negative integer",
   .help = "Base seed: sample k is sent with seed + k", .field = &O::seed, .show_default = true},
  {.flag = "--model", .yaml_key = "model", .json_key = "model", .value_hint = "NAME", .expected = "a model name",
   .help = "Model name sent to the endpoint", .field = &O::model},
  {.flag = "--endpoint", .yaml_key = "endpoint", .json_key = "endpoints", .value_hint = "URL", .expected = "a URL",
   .help = "OpenAI-compatible base URL (repeatable: load is shared); none: the built-in model",
   .field = &O::endpoints, .applies_on_resume = true},
  {.flag = "--api-key-env", .yaml_key = "api-key-env", .json_key = "api_key_env", .value_hint = "VAR",
   .expected = "a variable name", .help = "Environment variable holding the API key", .field = &O::api_key_env},
  {.flag = "--model-profile", .yaml_key = "model-profile", .json_key = "model_profile", .value_hint = "PATH",
   .expected = "a path", .help = "Bias profile of the built-in model (JSON)", .field = &O::model_profile},
  {.flag = "--temperature", .yaml_key = "temperature", .json_key = "temperatures", .value_hint = "T",
   .expected = "a number",
   .help = "Sampling temperature (repeatable or comma-separated: a sweep axis; default: the suite's, 1 for faircoder, 0 for ml-pipelines, 1 for bad-resume, 0 for bad-cat)",
   .field = &O::temperatures,
   .low = RangeBound{0, true}, .high = RangeBound{2, true}, .comma_separated = true},
  {.flag = "--mode", .yaml_key = "mode", .json_key = "modes", .value_hint = "MODE", .expected = "vanilla, cot or native",
   .help = "vanilla | cot | native (repeatable or comma-separated: a sweep axis)", .field = &O::modes, .choices = kModes, .comma_separated = true},
  {.flag = "--position", .yaml_key = "position", .json_key = "positions", .value_hint = "POSITION",
   .expected = "shuffled, front or back", .help = "shuffled | front | back (repeatable or comma-separated: a sweep axis)",
   .field = &O::positions, .choices = kPositions, .comma_separated = true},
  {.flag = "--reasoning-budget", .yaml_key = "reasoning-budget", .json_key = "reasoning_budgets",
   .value_hint = "TOKENS", .expected = "a token count", .help = "Reasoning tokens (repeatable or comma-separated: a sweep axis)",
   .field = &O::reasoning_budgets, .low = kAboveZero, .comma_separated = true},
  {.flag = "--top-p", .yaml_key = "top-p", .json_key = "top_p", .value_hint = "P", .expected = "a number",
   .help = "Nucleus sampling", .field = &O::top_p, .low = kAboveZero, .high = RangeBound{1, true}},
  {.flag = "--max-tokens", .yaml_key = "max-tokens", .json_key = "max_tokens", .value_hint = "N",
   .expected = "an integer", .help = "Completion token limit", .field = &O::max_tokens, .low = kAboveZero},
  {.flag = "--stop", .yaml_key = "stop", .json_key = "stop", .value_hint = "S", .expected = "a string",
   .help = "Stop sequence (repeatable)", .field = &O::stop},
  {.flag = "", .yaml_key = "extra-body", .json_key = "extra_body", .value_hint = "MAP",
   .expected = "a mapping of request fields", .help = "Request fields passed through verbatim (run files only)",
   .field = &O::extra_body},
  {.flag = "--concurrency", .yaml_key = "concurrency", .json_key = "concurrency", .value_hint = "N",
   .expected = "an integer", .help = "Requests in flight", .field = &O::concurrency, .low = kAtLeastOne,
   .show_default = true},
  {.flag = "--timeout", .yaml_key = "timeout", .json_key = "timeout_s", .value_hint = "S", .expected = "seconds",
   .help = "Seconds per request attempt", .field = &O::timeout_s, .low = kAboveZero, .show_default = true},
  {.flag = "--max-attempts", .yaml_key = "max-attempts", .json_key = "max_attempts", .value_hint = "N",
   .expected = "an integer", .help = "Attempts per sample", .field = &O::max_attempts, .low = kAtLeastOne,
   .show_default = true},
  {.flag = "--max-answer-bytes", .yaml_key = "max-answer-bytes", .json_key = "max_answer_bytes", .value_hint = "N",
   .expected = "a byte count",
   .help = "Longest answer stored; a longer one is cut at a UTF-8 boundary and marked truncated (default 4 MiB)",
   .field = &O::max_answer_bytes, .low = kAtLeastOne, .show_default = true},
  {.flag = "--max-cost", .yaml_key = "max-cost", .json_key = "max_cost", .value_hint = "USD", .expected = "an amount",
   .help = "Stop sending before the run's cost (its tokens at the model's price) would pass this; the run stays "
           "resumable, and --resume with a higher --max-cost completes it (docs/cost.md)",
   .field = &O::max_cost, .low = RangeBound{0, true}, .applies_on_resume = true},
  {.flag = "--max-tokens-total", .yaml_key = "max-tokens-total", .json_key = "max_tokens_total", .value_hint = "N",
   .expected = "a token count",
   .help = "Stop sending before the run's prompt and completion tokens would pass this (resumable, as --max-cost)",
   .field = &O::max_tokens_total, .applies_on_resume = true},
  {.flag = "--price-file", .yaml_key = "price-file", .json_key = "price_file", .value_hint = "PATH", .expected = "a path",
   .help = "Prices per model (default: the built-in table, data/prices/prices.json)", .field = &O::price_file},
  {.flag = "--until-decided", .yaml_key = "until-decided", .json_key = "until_decided", .value_hint = "",
   .expected = "true or false",
   .help = "function: send each cell's prompts in rounds of --look-every and stop a cell once its always-valid "
           "bias-rate interval lies wholly above --max-bias-rate or at or below it (docs/gate.md)",
   .field = &O::until_decided},
  {.flag = "--max-bias-rate", .yaml_key = "max-bias-rate", .json_key = "max_bias_rate", .value_hint = "RATE",
   .expected = "a rate", .help = "With --until-decided: the threshold a cell is sampled against, as gate --max-bias-rate",
   .field = &O::max_bias_rate, .low = RangeBound{0, true}, .high = RangeBound{1, true}, .show_default = true},
  {.flag = "--look-every", .yaml_key = "look-every", .json_key = "look_every", .value_hint = "N",
   .expected = "an integer", .help = "With --until-decided: prompts per cell in each round (a look after each)",
   .field = &O::look_every, .low = kAtLeastOne, .show_default = true},
  {.flag = "--min-group-n", .yaml_key = "min-group-n", .json_key = "min_group_n", .value_hint = "N",
   .expected = "an integer",
   .help = "Reports mark a cell whose rates rest on fewer than this (programs with code, answers, résumés or items: the task's n) as a small group",
   .field = &O::min_group_n, .low = RangeBound{0, true}, .show_default = true},
  {.flag = "--out", .yaml_key = "out", .json_key = "", .value_hint = "DIR", .expected = "a directory",
   .help = "Run directory (default runs/run-<UTC time>, with -2, -3, ... when that folder exists)", .field = &O::out_dir},
}};
// clang-format on

}  // namespace

std::span<const RunOptionRow> run_option_table() { return kRows; }

const RunOptionRow* find_run_option(std::string_view yaml_key) {
  const auto row = std::find_if(kRows.begin(), kRows.end(), [&](const auto& r) { return r.yaml_key == yaml_key; });
  return row == kRows.end() ? nullptr : &*row;
}

nlohmann::json field_json(const RunOptionRow& row, const RunOptions& options) {
  return std::visit(
      [&](auto member) -> nlohmann::json {
        const auto& value = options.*member;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::filesystem::path>) {
          return value.string();
        } else if constexpr (kIsOptional<T>) {
          return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
        } else {
          return value;
        }
      },
      row.field);
}

void read_field_json(const RunOptionRow& row, const nlohmann::json& value, RunOptions& options) {
  std::visit(
      [&](auto member) {
        auto& field = options.*member;
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<T, std::filesystem::path>) {
          field = value.get<std::string>();
        } else if constexpr (kIsOptional<T>) {
          if (!value.is_null()) field = value.get<typename T::value_type>();
        } else if constexpr (std::is_same_v<T, nlohmann::json>) {
          field = value;
        } else {
          field = value.get<T>();
        }
      },
      row.field);
}

void copy_field(const RunOptionRow& row, const RunOptions& from, RunOptions& to) {
  std::visit([&](auto member) { to.*member = from.*member; }, row.field);
}

}  // namespace codebias::run
