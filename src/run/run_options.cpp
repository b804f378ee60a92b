// Run files read through the option table, validation and the provenance JSON of RunOptions, and
// the expansion of the sweep axes.
#include "run/run_options.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include <yaml-cpp/yaml.h>

#include "base/strings.h"
#include "base/url.h"
#include "detectors/registry.h"
#include "tasks/task.h"
#include "run/run_option_table.h"

namespace codebias::run {
namespace {

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

// "positive", "at least 1", "within 0..2", "within (0, 1]".
std::string describe_range(const RunOptionRow& row) {
  if (!row.high) {
    if (row.low->value == 0 && !row.low->inclusive) return "positive";
    return (row.low->inclusive ? "at least " : "above ") + base::short_number(row.low->value);
  }
  if (row.low->inclusive && row.high->inclusive) {
    return "within " + base::short_number(row.low->value) + ".." + base::short_number(row.high->value);
  }
  return std::string("within ") + (row.low->inclusive ? "[" : "(") + base::short_number(row.low->value) + ", " +
         base::short_number(row.high->value) + (row.high->inclusive ? "]" : ")");
}

bool in_range(const RunOptionRow& row, double value) {
  if (row.low && (row.low->inclusive ? value < row.low->value : value <= row.low->value)) return false;
  if (row.high && (row.high->inclusive ? value > row.high->value : value >= row.high->value)) return false;
  return true;
}

// "a, b or c".
std::string join_choices(std::span<const std::string_view> choices) {
  std::string text;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) text += i + 1 == choices.size() ? " or " : ", ";
    text += choices[i];
  }
  return text;
}

// The problem with one value of the row's field, or "".
std::string value_problem(const RunOptionRow& row, const std::string& value) {
  if (row.choices.empty() || std::find(row.choices.begin(), row.choices.end(), value) != row.choices.end()) return "";
  return std::string(row.flag) + " must be " + join_choices(row.choices) + ", not \"" + value + "\"";
}

template <typename T>
std::string value_problem(const RunOptionRow& row, const T& value) {
  if constexpr (std::is_arithmetic_v<T>) {
    if ((row.low || row.high) && !in_range(row, static_cast<double>(value))) {
      return std::string(row.flag) + " must be " + describe_range(row);
    }
  }
  return "";
}

// The message naming the option when its value breaks the row's choices or range, else "".
std::string field_problem(const RunOptionRow& row, const RunOptions& options) {
  return std::visit(
      [&](auto member) -> std::string {
        const auto& field = options.*member;
        using T = std::decay_t<decltype(field)>;
        if constexpr (kIsVector<T>) {
          for (const auto& value : field) {
            if (auto problem = value_problem(row, value); !problem.empty()) return problem;
          }
          return "";
        } else if constexpr (kIsOptional<T>) {
          return field ? value_problem(row, *field) : "";
        } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
          return value_problem(row, field);
        } else {
          return "";
        }
      },
      row.field);
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
  T scalar(const YAML::Node& node, std::string_view field, const std::string& expected) const {
    if (!node.IsScalar()) fail(node, field, "expected " + expected);
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      fail(node, field, "expected " + expected + ", got \"" + node.Scalar() + "\"");
    }
  }

  // A scalar or a sequence of scalars.
  template <typename T>
  std::vector<T> list(const YAML::Node& node, std::string_view field, const std::string& expected) const {
    std::vector<T> values;
    if (node.IsSequence()) {
      for (const auto& item : node) values.push_back(scalar<T>(item, field, expected));
      if (values.empty()) fail(node, field, "expected at least one value");
    } else {
      values.push_back(scalar<T>(node, field, expected));
    }
    return values;
  }

  // Reads `node` into the row's field: a list takes a scalar or a sequence.
  void read(const RunOptionRow& row, const YAML::Node& node, RunOptions& options) const {
    const std::string expected(row.expected);
    std::visit(
        [&](auto member) {
          auto& field = options.*member;
          using T = std::decay_t<decltype(field)>;
          if constexpr (std::is_same_v<T, nlohmann::json>) {
            if (!node.IsMap()) fail(node, row.yaml_key, "expected " + expected);
            field = yaml_to_json(node);
          } else if constexpr (std::is_same_v<T, std::filesystem::path>) {
            field = scalar<std::string>(node, row.yaml_key, expected);
          } else if constexpr (kIsVector<T>) {
            field = list<typename T::value_type>(node, row.yaml_key, expected);
          } else if constexpr (kIsOptional<T>) {
            field = scalar<typename T::value_type>(node, row.yaml_key, expected);
          } else {
            field = scalar<T>(node, row.yaml_key, expected);
          }
        },
        row.field);
  }

 private:
  std::string origin_;
};

}  // namespace

std::vector<RunConfiguration> expand_configurations(const RunOptions& options) {
  std::vector<std::optional<int>> budgets;
  for (int budget : options.reasoning_budgets) budgets.emplace_back(budget);
  if (budgets.empty()) budgets.emplace_back(std::nullopt);

  // No temperature yet (with_suite_defaults fills it in for a run): the run's own default.
  const std::vector<double> temperatures =
      options.temperatures.empty() ? std::vector<double>{kDefaultTemperature} : options.temperatures;
  // --mitigation is a sweep axis where the task runs the strategies (the function task); the
  // ml-pipeline prompts read it themselves.
  const bool strategies = !options.task.empty() && tasks::find_task(options.task).runs_mitigation_strategies;
  const std::vector<std::string> mitigations =
      strategies && !options.mitigations.empty() ? options.mitigations : std::vector<std::string>{"none"};
  std::vector<RunConfiguration> configurations;
  for (double temperature : temperatures) {
    for (const auto& mode : options.modes) {
      for (const auto& position : options.positions) {
        for (const auto& budget : budgets) {
          for (const auto& mitigation : mitigations) {
            RunConfiguration c;
            c.temperature = temperature;
            c.mode = mode;
            c.position = position;
            c.reasoning_budget = budget;
            c.mitigation = mitigation;
            std::vector<std::string> parts;
            if (options.temperatures.size() > 1) parts.push_back("t=" + base::short_number(temperature));
            if (options.modes.size() > 1) parts.push_back("mode=" + mode);
            if (options.positions.size() > 1) parts.push_back("position=" + position);
            if (budgets.size() > 1) parts.push_back("budget=" + std::to_string(*budget));
            if (mitigations.size() > 1) parts.push_back("mitigation=" + mitigation);
            for (std::size_t i = 0; i < parts.size(); ++i) c.label += (i ? "," : "") + parts[i];
            configurations.push_back(std::move(c));
          }
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
    const RunOptionRow* row = find_run_option(key);
    if (row == nullptr) reader.fail(entry.first, key, "unknown option (the keys are the flags of `codebias run`)");
    reader.read(*row, entry.second, options);
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
  require(options.task.empty() || std::find(runnable.begin(), runnable.end(), options.task) != runnable.end(),
          "--task must be " + base::join(runnable, " or ") + ", not \"" + options.task + "\"");
  for (const auto& row : run_option_table()) {
    if (auto problem = field_problem(row, options); !problem.empty()) throw std::invalid_argument(problem);
  }
  // A key in an endpoint URL would be stored, reported and sent again on resume (base/url.h).
  for (const auto& endpoint : options.endpoints) {
    if (auto problem = base::endpoint_url_problem(endpoint); !problem.empty()) {
      throw std::invalid_argument("--endpoint: " + problem);
    }
  }
  if (auto problem = base::endpoint_url_problem(options.rewrite_endpoint); !problem.empty())
    throw std::invalid_argument("--rewrite-endpoint: " + problem);
  require(!options.endpoints.empty() || options.api_key_env.empty(),
          "--api-key-env needs an --endpoint (the built-in model takes no key)");
  require(options.endpoints.empty() || !options.model.empty(), "--endpoint needs --model (the name the server serves)");
  require(!(options.style == "cot" && std::find(options.modes.begin(), options.modes.end(), "cot") != options.modes.end()),
          "--style cot and --mode cot both add the step-by-step instruction; use one");
  require(!options.endpoints.empty() || options.model.empty() || options.model == "codebias-simulated",
          "--model names a model behind --endpoint; without an endpoint the built-in simulated model answers");
  require(options.rewrite_endpoint.empty() == options.rewrite_model.empty(),
          "--rewrite-endpoint and --rewrite-model go together (the rewriting model's URL and name)");
  require(!options.rewrite_endpoint.empty() || options.rewrite_api_key_env.empty(),
          "--rewrite-api-key-env needs a --rewrite-endpoint");
  const auto* detector = detectors::find_detector(options.trace_detector);
  require(detector != nullptr,
          "--trace-detector must be one of " + detectors::detector_names() + ", not \"" + options.trace_detector + "\"");
  require(detector->trainable == !options.trace_detector_model.empty(),
          detector->trainable ? "--trace-detector " + options.trace_detector + " needs --trace-detector-model FILE"
                              : "--trace-detector-model is only for a trained --trace-detector");
}

nlohmann::json to_json(const RunOptions& options) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& row : run_option_table()) {
    if (!row.json_key.empty()) json[std::string(row.json_key)] = field_json(row, options);
  }
  return json;
}

RunOptions run_options_from_json(const nlohmann::json& json) {
  RunOptions options;
  for (const auto& row : run_option_table()) {
    if (row.json_key.empty()) continue;
    // Runs stored before an option existed lack its key: they ran with its default.
    const auto value = json.find(std::string(row.json_key));
    if (value != json.end()) read_field_json(row, *value, options);
  }
  return options;
}

}  // namespace codebias::run
