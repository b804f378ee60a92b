// The option table of `codebias run`: every row reaches YAML and JSON, values round-trip, and a
// bad value names its option.
#include "run/run_option_table.h"
#include "paths.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::run {
namespace {

using ::testing::StartsWith;
using ::testing::StrEq;
using ::testing::ThrowsMessage;

// A value in every field, none of them the default.
RunOptions every_field_set() {
  RunOptions o;
  o.suite = "my-suite";
  o.suite_file = "suites/mine.json";
  o.task = "testcase";
  o.scenarios = {"job", "med"};
  o.attributes = {"gender", "race"};
  o.requests = {"counterfactual"};
  o.paths = {"pipeline"};
  o.levels = {"select", "full"};
  o.attribute_sets = {"normal=3,sensitive=1"};
  o.mitigations = {"explicit"};
  o.variants = 4;
  o.names = "paper";
  o.names_per_group = 3;
  o.execute = true;
  o.style = "fair-system-prompt";
  o.convention = "faircoder";
  o.entities_per_group = 2;
  o.limit = 40;
  o.samples = 7;
  o.seed = 12345678901234ULL;
  o.model = "qwen";
  o.endpoints = {"http://127.0.0.1:8000", "http://127.0.0.1:8001"};
  o.api_key_env = "OPENAI_API_KEY";
  o.model_profile = "profile.json";
  o.temperatures = {0.2, 1.5};
  o.modes = {"vanilla", "native"};
  o.positions = {"front", "back"};
  o.reasoning_budgets = {256, 1024};
  o.top_p = 0.9;
  o.max_tokens = 2048;
  o.stop = {"```", "\n\n"};
  o.extra_body = {{"chat_template_kwargs", {{"enable_thinking", false}}}, {"top_k", 20}};
  o.concurrency = 8;
  o.timeout_s = 30.5;
  o.max_attempts = 3;
  o.max_answer_bytes = 65536;
  o.max_cost = 12.5;
  o.max_tokens_total = 500000;
  o.price_file = "prices/mine.json";
  o.min_group_n = 50;
  o.until_decided = true;
  o.max_bias_rate = 0.2;
  o.look_every = 3;
  o.out_dir = "runs/mine";
  o.trace_detector = "tfidf-lr";
  o.trace_detector_model = "models/lr.json";
  o.rewrite_endpoint = "http://127.0.0.1:9000";
  o.rewrite_model = "rewriter";
  o.rewrite_api_key_env = "REWRITER_KEY";
  o.designs = {"advance", "pick"};
  return o;
}

// A run file setting every row, written from the table (JSON values are YAML flow values).
std::string run_file_of(const RunOptions& options) {
  std::string text;
  for (const auto& row : run_option_table()) {
    text += std::string(row.yaml_key) + ": " + field_json(row, options).dump() + "\n";
  }
  return text;
}

TEST(RunOptionTable, EveryRowHasAYamlKeyAFlagAndAJsonKey) {
  const RunOptions defaults;
  const auto stored = to_json(defaults);
  std::set<std::string_view> yaml_keys, json_keys;
  for (const auto& row : run_option_table()) {
    SCOPED_TRACE(std::string(row.yaml_key));
    EXPECT_TRUE(yaml_keys.insert(row.yaml_key).second) << "YAML key twice";
    EXPECT_EQ(find_run_option(row.yaml_key), &row);
    EXPECT_FALSE(row.help.empty());
    EXPECT_FALSE(row.expected.empty());
    // The flag is the key with dashes; only a mapping has none (a flag cannot spell it).
    const bool mapping = std::holds_alternative<nlohmann::json RunOptions::*>(row.field);
    EXPECT_EQ(row.flag, mapping ? std::string() : "--" + std::string(row.yaml_key));
    // A flag without a value (a bool) has no value hint.
    EXPECT_EQ(row.value_hint.empty(), std::holds_alternative<bool RunOptions::*>(row.field));
    // Everything is stored but the run directory (the run is that directory).
    if (row.yaml_key == "out") {
      EXPECT_TRUE(row.json_key.empty());
    } else {
      EXPECT_TRUE(json_keys.insert(row.json_key).second) << "JSON key twice";
      EXPECT_TRUE(stored.contains(row.json_key));
    }
  }
  EXPECT_EQ(stored.size(), json_keys.size()) << stored.dump();
  EXPECT_EQ(find_run_option("temperatures"), nullptr);
}

TEST(RunOptionTable, TheRoundTripOptionsSetEveryField) {
  const RunOptions defaults, set = every_field_set();
  for (const auto& row : run_option_table()) {
    EXPECT_NE(field_json(row, set), field_json(row, defaults)) << row.yaml_key << " is left at its default";
  }
  EXPECT_NO_THROW(validate(set));
}

TEST(RunOptionTable, OptionsRoundTripThroughYamlAndJson) {
  const RunOptions original = every_field_set();

  RunOptions from_yaml;
  load_run_yaml(run_file_of(original), "every.yaml", from_yaml);
  EXPECT_EQ(to_json(from_yaml), to_json(original));
  EXPECT_EQ(from_yaml.out_dir, original.out_dir);

  const RunOptions from_json = run_options_from_json(to_json(original));
  EXPECT_EQ(to_json(from_json), to_json(original));
}

TEST(RunOptionTable, CopyFieldMovesOneOptionOnly) {
  const RunOptions set = every_field_set();
  RunOptions target;
  copy_field(*find_run_option("temperature"), set, target);
  EXPECT_EQ(target.temperatures, set.temperatures);
  EXPECT_EQ(target.modes, RunOptions{}.modes);
}

// Sets the row's field to a value its choices or range reject; false when the row has neither.
bool set_invalid(const RunOptionRow& row, RunOptions& options) {
  return std::visit(
      [&](auto member) {
        auto& field = options.*member;
        using T = std::decay_t<decltype(field)>;
        const double below = row.low ? row.low->value - (row.low->inclusive ? 1 : 0) : 0;
        if constexpr (std::is_same_v<T, std::string>) {
          field = "not-a-choice";
          return !row.choices.empty();
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          field = {std::string(row.choices.empty() ? "" : row.choices[0]), "not-a-choice"};
          return !row.choices.empty();
        } else if constexpr (std::is_arithmetic_v<T>) {
          field = static_cast<T>(below);
          return row.low.has_value();
        } else if constexpr (kIsOptional<T>) {
          field = static_cast<typename T::value_type>(below);
          return row.low.has_value();
        } else if constexpr (kIsVector<T>) {
          field = {static_cast<typename T::value_type>(below)};
          return row.low.has_value();
        } else {
          return false;
        }
      },
      row.field);
}

TEST(RunOptionTable, AnInvalidValueNamesTheOption) {
  int checked = 0;
  for (const auto& row : run_option_table()) {
    RunOptions options;
    if (!set_invalid(row, options)) continue;
    ++checked;
    try {
      validate(options);
      ADD_FAILURE() << row.flag << " accepted an invalid value";
    } catch (const std::invalid_argument& error) {
      EXPECT_THAT(error.what(), StartsWith(std::string(row.flag) + " must be "));
    }
  }
  EXPECT_GE(checked, 10);  // task, mode, position and the numeric ranges

  RunOptions above;
  above.temperatures = {2.5};
  EXPECT_THROW(validate(above), std::invalid_argument);
  above = {};
  above.top_p = 1.0;
  EXPECT_NO_THROW(validate(above));
  above.top_p = 1.01;
  EXPECT_THROW(validate(above), std::invalid_argument);
}

TEST(RunOptionTable, ABadRunFileValueNamesTheKey) {
  RunOptions options;
  EXPECT_THAT([&] { load_run_yaml("samples: 2\nmax-attempts: often\n", "run.yaml", options); },
              ThrowsMessage<std::runtime_error>(
                  StrEq("run.yaml:2: field \"max-attempts\": expected an integer, got \"often\"")));
}

// The provenance keeps the keys and values resumed runs and older readers know (a run stores its
// task and temperatures resolved from the suite, run::with_suite_defaults).
TEST(RunOptionTable, ProvenanceOfTheDefaultsIsUnchanged) {
  EXPECT_EQ(to_json(RunOptions{}).dump(),
            R"({"api_key_env":"","attribute_sets":[],"attributes":[],"concurrency":64,"convention":"","designs":[],)"
            R"("endpoints":[],"entities_per_group":null,"execute":false,"extra_body":{},"levels":[],"limit":null,)"
            R"("look_every":5,"max_answer_bytes":4194304,"max_attempts":6,"max_bias_rate":0.1,"max_cost":null,"max_tokens":null,"max_tokens_total":null,)"
            R"("min_group_n":30,"mitigations":[],"model":"","model_profile":"",)"
            R"("modes":["vanilla"],"names":"","names_per_group":null,"paths":[],"positions":["shuffled"],"price_file":"",)"
            R"("reasoning_budgets":[],"requests":[],"rewrite_api_key_env":"","rewrite_endpoint":"",)"
            R"("rewrite_model":"","samples":1,"scenarios":[],"seed":0,"stop":[],)"
            R"("style":"vanilla","suite":"faircoder","suite_file":"","task":"",)"
            R"("temperatures":[],"timeout_s":600.0,"top_p":null,"trace_detector":"keywords",)"
            R"("trace_detector_model":"","until_decided":false,"variants":null})");
}

// A run stored before the ml-pipeline and name options existed resumes with their defaults.
TEST(RunOptionTable, ProvenanceWithoutTheNewerKeysReadsBack) {
  nlohmann::json stored = to_json(every_field_set());
  for (const char* key : {"paths", "levels", "attribute_sets", "mitigations", "variants", "execute", "names",
                          "names_per_group", "trace_detector", "trace_detector_model", "rewrite_endpoint",
                          "rewrite_model", "rewrite_api_key_env", "max_answer_bytes", "max_cost", "max_tokens_total",
                          "price_file", "min_group_n", "until_decided", "max_bias_rate", "look_every"}) {
    stored.erase(key);
  }
  const RunOptions read = run_options_from_json(stored);
  EXPECT_EQ(read.max_answer_bytes, kDefaultMaxAnswerBytes);
  EXPECT_EQ(read.task, "testcase");
  EXPECT_TRUE(read.paths.empty());
  EXPECT_FALSE(read.variants.has_value());
  EXPECT_TRUE(read.names.empty());
  EXPECT_FALSE(read.names_per_group.has_value());
  EXPECT_FALSE(read.execute);
  EXPECT_EQ(read.trace_detector, "keywords");
  EXPECT_FALSE(read.max_cost.has_value());
  EXPECT_FALSE(read.max_tokens_total.has_value());
  EXPECT_EQ(read.min_group_n, 30);
  EXPECT_FALSE(read.until_decided);
}

// docs/cli-run.md as the table says it should read.
std::string options_markdown() {
  std::string text =
      "# `codebias run` options\n\n"
      "Generated from the option table, `src/run/run_option_table.cpp`; the test\n"
      "`RunOptionTable.DocsAreCurrent` fails when this file is stale, and\n"
      "`CODEBIAS_UPDATE_DOCS=1 build/unit_results_tests --gtest_filter=RunOptionTable.DocsAreCurrent`\n"
      "rewrites it. Each option is a flag, a key of a `--config` run file (a list takes a scalar or a\n"
      "sequence) and a key of the run's provenance (`summary.json`: `provenance.options`); flags win\n"
      "over the run file. `--config`, `--resume DIR`, `--retry-errors` and `--full` are flags only.\n\n"
      "| flag | run-file key | provenance key | value | |\n"
      "| --- | --- | --- | --- | --- |\n";
  const auto code = [](std::string_view name) { return name.empty() ? std::string("—") : "`" + std::string(name) + "`"; };
  for (const auto& row : run_option_table()) {
    std::string help(row.help);
    for (auto bar = help.find('|'); bar != std::string::npos; bar = help.find('|', bar + 2)) help.insert(bar, "\\");
    text += "| " + code(row.flag) + " | " + code(row.yaml_key) + " | " + code(row.json_key) + " | " +
            std::string(row.value_hint) + " | " + help + " |\n";
  }
  return text;
}

TEST(RunOptionTable, DocsAreCurrent) {
  const auto path = std::filesystem::path(::codebias::test_support::source_dir()) / "docs" / "cli-run.md";
  const std::string expected = options_markdown();
  if (std::getenv("CODEBIAS_UPDATE_DOCS") != nullptr) std::ofstream(path, std::ios::binary) << expected;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream actual;
  actual << in.rdbuf();
  EXPECT_EQ(actual.str(), expected) << path << " is stale: rerun with CODEBIAS_UPDATE_DOCS=1";
}

}  // namespace
}  // namespace codebias::run
