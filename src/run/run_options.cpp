#include "run/run_options.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "base/strings.h"
#include "tasks/task.h"

namespace codebias::run {
namespace {

bool one_of(const std::string& value, std::initializer_list<const char*> allowed) {
  return std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return value == a; });
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

class YamlReader {
 public:
  explicit YamlReader(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const YAML::Node& node, std::string_view field, std::string_view message) const {
    std::ostringstream text;
    text << origin_;
    if (node.Mark().line >= 0) text << ':' << node.Mark().line + 1;
    text << ": field \"" << field << "\": " << message;
    throw std::runtime_error(text.str());
  }

  template <typename T>
  T scalar(const YAML::Node& node, std::string_view field, const char* expected) const {
    if (!node.IsScalar()) fail(node, field, std::string("expected ") + expected);
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      fail(node, field, std::string("expected ") + expected + ", got \"" + node.Scalar() + "\"");
    }
  }

  // A scalar or a sequence of scalars.
  template <typename T>
  std::vector<T> list(const YAML::Node& node, std::string_view field, const char* expected) const {
    std::vector<T> values;
    if (node.IsSequence()) {
      for (const auto& item : node) values.push_back(scalar<T>(item, field, expected));
      if (values.empty()) fail(node, field, "expected at least one value");
    } else {
      values.push_back(scalar<T>(node, field, expected));
    }
    return values;
  }

 private:
  std::string origin_;
};

nlohmann::json yaml_to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& entry : node) object[entry.first.as<std::string>()] = yaml_to_json(entry.second);
    return object;
  }
  if (node.IsSequence()) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& item : node) array.push_back(yaml_to_json(item));
    return array;
  }
  if (node.IsNull()) return nullptr;
  const std::string& text = node.Scalar();
  if (node.Tag() != "!") {  // plain (unquoted) scalars may be booleans or numbers
    if (text == "true" || text == "True") return true;
    if (text == "false" || text == "False") return false;
    try {
      std::size_t used = 0;
      const long long integer = std::stoll(text, &used);
      if (used == text.size()) return integer;
      const double real = std::stod(text, &used);
      if (used == text.size()) return real;
    } catch (const std::exception&) {
    }
  }
  return text;
}

}  // namespace

std::vector<RunConfiguration> expand_configurations(const RunOptions& options) {
  std::vector<std::optional<int>> budgets;
  for (int budget : options.reasoning_budgets) budgets.emplace_back(budget);
  if (budgets.empty()) budgets.emplace_back(std::nullopt);

  std::vector<RunConfiguration> configurations;
  for (double temperature : options.temperatures) {
    for (const auto& mode : options.modes) {
      for (const auto& position : options.positions) {
        for (const auto& budget : budgets) {
          RunConfiguration c;
          c.temperature = temperature;
          c.mode = mode;
          c.position = position;
          c.reasoning_budget = budget;
          std::vector<std::string> parts;
          if (options.temperatures.size() > 1) parts.push_back("t=" + format_number(temperature));
          if (options.modes.size() > 1) parts.push_back("mode=" + mode);
          if (options.positions.size() > 1) parts.push_back("position=" + position);
          if (budgets.size() > 1) parts.push_back("budget=" + std::to_string(*budget));
          for (std::size_t i = 0; i < parts.size(); ++i) c.label += (i ? "," : "") + parts[i];
          configurations.push_back(std::move(c));
        }
      }
    }
  }
  return configurations;
}

void load_run_yaml(std::string_view text, std::string_view origin, RunOptions& options) {
  YamlReader reader(origin);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& error) {
    std::ostringstream message;
    message << origin << ':' << error.mark.line + 1 << ": " << error.msg;
    throw std::runtime_error(message.str());
  }
  if (root.IsNull()) return;
  if (!root.IsMap()) reader.fail(root, "", "a run file is a mapping of option: value");

  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    if (key == "suite") options.suite = reader.scalar<std::string>(value, key, "a suite name");
    else if (key == "suite-file") options.suite_file = reader.scalar<std::string>(value, key, "a path");
    else if (key == "task") options.task = reader.scalar<std::string>(value, key, "function or testcase");
    else if (key == "scenario") options.scenarios = reader.list<std::string>(value, key, "a scenario");
    else if (key == "attribute") options.attributes = reader.list<std::string>(value, key, "an attribute");
    else if (key == "request") options.requests = reader.list<std::string>(value, key, "group or counterfactual");
    else if (key == "style") options.style = reader.scalar<std::string>(value, key, "a prompt style");
    else if (key == "convention") options.convention = reader.scalar<std::string>(value, key, "a convention");
    else if (key == "entities-per-group") options.entities_per_group = reader.scalar<int>(value, key, "an integer");
    else if (key == "limit") options.limit = reader.scalar<std::size_t>(value, key, "a non-negative integer");
    else if (key == "samples") options.samples = reader.scalar<int>(value, key, "an integer");
    else if (key == "seed") options.seed = reader.scalar<std::uint64_t>(value, key, "a non-negative integer");
    else if (key == "model") options.model = reader.scalar<std::string>(value, key, "a model name");
    else if (key == "endpoint") options.endpoints = reader.list<std::string>(value, key, "a URL");
    else if (key == "api-key-env") options.api_key_env = reader.scalar<std::string>(value, key, "a variable name");
    else if (key == "model-profile") options.model_profile = reader.scalar<std::string>(value, key, "a path");
    else if (key == "temperature") options.temperatures = reader.list<double>(value, key, "a number");
    else if (key == "mode") options.modes = reader.list<std::string>(value, key, "vanilla, cot or native");
    else if (key == "position") options.positions = reader.list<std::string>(value, key, "shuffled, front or back");
    else if (key == "reasoning-budget") options.reasoning_budgets = reader.list<int>(value, key, "a token count");
    else if (key == "top-p") options.top_p = reader.scalar<double>(value, key, "a number");
    else if (key == "max-tokens") options.max_tokens = reader.scalar<int>(value, key, "an integer");
    else if (key == "stop") options.stop = reader.list<std::string>(value, key, "a string");
    else if (key == "extra-body") {
      if (!value.IsMap()) reader.fail(value, key, "expected a mapping of request fields");
      options.extra_body = yaml_to_json(value);
    }
    else if (key == "concurrency") options.concurrency = reader.scalar<int>(value, key, "an integer");
    else if (key == "timeout") options.timeout_s = reader.scalar<double>(value, key, "seconds");
    else if (key == "max-attempts") options.max_attempts = reader.scalar<int>(value, key, "an integer");
    else if (key == "out") options.out_dir = reader.scalar<std::string>(value, key, "a directory");
    else reader.fail(entry.first, key, "unknown option (the keys are the flags of `codebias run`)");
  }
}

void load_run_file(const std::filesystem::path& path, RunOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read the run file");
  std::ostringstream text;
  text << in.rdbuf();
  load_run_yaml(text.str(), path.string(), options);
}

void validate(const RunOptions& options) {
  const auto require = [](bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument(message);
  };
  const auto runnable = tasks::task_names(true);
  require(std::find(runnable.begin(), runnable.end(), options.task) != runnable.end(), "--task must be " + base::join(runnable, " or ") + ", not \"" + options.task + "\"");
  require(options.samples >= 1, "--samples must be at least 1");
  require(!options.temperatures.empty(), "--temperature needs a value");
  for (double t : options.temperatures) require(t >= 0 && t <= 2, "--temperature must be within 0..2");
  for (const auto& mode : options.modes) {
    require(one_of(mode, {"vanilla", "cot", "native"}), "--mode must be vanilla, cot or native, not \"" + mode + "\"");
  }
  for (const auto& position : options.positions) {
    require(one_of(position, {"shuffled", "front", "back"}),
            "--position must be shuffled, front or back, not \"" + position + "\"");
  }
  for (int budget : options.reasoning_budgets) require(budget > 0, "--reasoning-budget must be positive");
  if (options.top_p) require(*options.top_p > 0 && *options.top_p <= 1, "--top-p must be within (0, 1]");
  if (options.max_tokens) require(*options.max_tokens > 0, "--max-tokens must be positive");
  if (options.entities_per_group) require(*options.entities_per_group > 0, "--entities-per-group must be positive");
  require(options.concurrency >= 1, "--concurrency must be at least 1");
  require(options.timeout_s > 0, "--timeout must be positive");
  require(options.max_attempts >= 1, "--max-attempts must be at least 1");
  require(!options.endpoints.empty() || options.api_key_env.empty(),
          "--api-key-env needs an --endpoint (the built-in model takes no key)");
  require(options.endpoints.empty() || !options.model.empty(), "--endpoint needs --model (the name the server serves)");
  require(!(options.style == "cot" && std::find(options.modes.begin(), options.modes.end(), "cot") != options.modes.end()),
          "--style cot and --mode cot both add the step-by-step instruction; use one");
  require(!options.endpoints.empty() || options.model.empty() || options.model == "codebias-simulated",
          "--model names a model behind --endpoint; without an endpoint the built-in simulated model answers");
}

nlohmann::json to_json(const RunOptions& o) {
  nlohmann::json j;
  j["suite"] = o.suite;
  j["suite_file"] = o.suite_file.string();
  j["task"] = o.task;
  j["scenarios"] = o.scenarios;
  j["attributes"] = o.attributes;
  j["requests"] = o.requests;
  j["style"] = o.style;
  j["convention"] = o.convention;
  j["entities_per_group"] = o.entities_per_group ? nlohmann::json(*o.entities_per_group) : nlohmann::json(nullptr);
  j["limit"] = o.limit ? nlohmann::json(*o.limit) : nlohmann::json(nullptr);
  j["samples"] = o.samples;
  j["seed"] = o.seed;
  j["model"] = o.model;
  j["endpoints"] = o.endpoints;
  j["api_key_env"] = o.api_key_env;
  j["model_profile"] = o.model_profile.string();
  j["temperatures"] = o.temperatures;
  j["modes"] = o.modes;
  j["positions"] = o.positions;
  j["reasoning_budgets"] = o.reasoning_budgets;
  j["top_p"] = o.top_p ? nlohmann::json(*o.top_p) : nlohmann::json(nullptr);
  j["max_tokens"] = o.max_tokens ? nlohmann::json(*o.max_tokens) : nlohmann::json(nullptr);
  j["stop"] = o.stop;
  j["extra_body"] = o.extra_body;
  j["concurrency"] = o.concurrency;
  j["timeout_s"] = o.timeout_s;
  j["max_attempts"] = o.max_attempts;
  return j;
}

RunOptions run_options_from_json(const nlohmann::json& j) {
  RunOptions o;
  o.suite = j.at("suite").get<std::string>();
  o.suite_file = j.at("suite_file").get<std::string>();
  o.task = j.at("task").get<std::string>();
  o.scenarios = j.at("scenarios").get<std::vector<std::string>>();
  o.attributes = j.at("attributes").get<std::vector<std::string>>();
  o.requests = j.at("requests").get<std::vector<std::string>>();
  o.style = j.at("style").get<std::string>();
  o.convention = j.at("convention").get<std::string>();
  if (!j.at("entities_per_group").is_null()) o.entities_per_group = j.at("entities_per_group").get<int>();
  if (!j.at("limit").is_null()) o.limit = j.at("limit").get<std::size_t>();
  o.samples = j.at("samples").get<int>();
  o.seed = j.at("seed").get<std::uint64_t>();
  o.model = j.at("model").get<std::string>();
  o.endpoints = j.at("endpoints").get<std::vector<std::string>>();
  o.api_key_env = j.at("api_key_env").get<std::string>();
  o.model_profile = j.at("model_profile").get<std::string>();
  o.temperatures = j.at("temperatures").get<std::vector<double>>();
  o.modes = j.at("modes").get<std::vector<std::string>>();
  o.positions = j.at("positions").get<std::vector<std::string>>();
  o.reasoning_budgets = j.at("reasoning_budgets").get<std::vector<int>>();
  if (!j.at("top_p").is_null()) o.top_p = j.at("top_p").get<double>();
  if (!j.at("max_tokens").is_null()) o.max_tokens = j.at("max_tokens").get<int>();
  o.stop = j.at("stop").get<std::vector<std::string>>();
  o.extra_body = j.at("extra_body");
  o.concurrency = j.at("concurrency").get<int>();
  o.timeout_s = j.at("timeout_s").get<double>();
  o.max_attempts = j.at("max_attempts").get<int>();
  return o;
}

}  // namespace codebias::run
