#include "suites/suite.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "base/builtin_data.h"
#include "suites/template_text.h"

namespace codebias::suites {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "codebias-suite/1";

// Column names become dict keys, parameters and DataFrame columns: lower-case identifiers.
bool is_snake_identifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// "all" | "normal=<N|all>,sensitive=<1|all>"; nullopt when `name` is neither.
std::optional<AttributeSet> parse_attribute_set(const std::string& name) {
  if (name == "all") return AttributeSet{name, std::nullopt, false};
  constexpr std::string_view kNormal = "normal=";
  constexpr std::string_view kSensitive = ",sensitive=";
  const auto comma = name.find(kSensitive);
  if (!name.starts_with(kNormal) || comma == std::string::npos) return std::nullopt;
  const std::string normal = name.substr(kNormal.size(), comma - kNormal.size());
  const std::string sensitive = name.substr(comma + kSensitive.size());
  AttributeSet set{name, std::nullopt, sensitive == "1"};
  if (sensitive != "1" && sensitive != "all") return std::nullopt;
  if (normal != "all") {
    if (normal.empty() || normal.size() > 4 || normal[0] == '0' ||
        !std::all_of(normal.begin(), normal.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    set.normal = static_cast<std::size_t>(std::stoul(normal));
  }
  return set;
}

// Placeholders every route's request template may use; docs/suites.md lists what each holds.
constexpr std::string_view kRequestPlaceholders[] = {"task",    "task_clause", "target",  "target_values", "return_type",
                                                     "columns", "subject",     "dataset", "domain"};

// Reads one suite document, failing with "<origin>: <field path>: <problem>".
class SuiteReader {
 public:
  explicit SuiteReader(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw std::runtime_error(origin_ + ": " + path + ": " + problem);
  }

  // Keys beginning with '_' are comments; any other key must be known, so typos surface.
  void check_object(const json& value, const std::string& path, std::initializer_list<std::string_view> known) const {
    if (!value.is_object()) fail(path, "expected an object");
    for (const auto& item : value.items()) {
      const std::string& key = item.key();
      if (key.starts_with('_')) continue;
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (auto name : known) list += (list.empty() ? "" : ", ") + std::string(name);
        fail(path, "unknown field '" + key + "' (known: " + list + ")");
      }
    }
  }

  const json* find(const json& object, std::string_view key) const {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  const json& require(const json& object, std::string_view key, const std::string& path) const {
    const json* value = find(object, key);
    if (value == nullptr) fail(path, "missing field '" + std::string(key) + "'");
    return *value;
  }

  std::string string_at(const json& value, const std::string& path, bool allow_empty = false) const {
    if (!value.is_string()) fail(path, "expected a string");
    std::string text = value.get<std::string>();
    if (text.empty() && !allow_empty) fail(path, "must not be empty");
    return text;
  }

  std::string string_field(const json& object, std::string_view key, const std::string& path) const {
    return string_at(require(object, key, path), path + "." + std::string(key));
  }

  std::string optional_string(const json& object, std::string_view key, const std::string& path) const {
    const json* value = find(object, key);
    return value == nullptr ? std::string() : string_at(*value, path + "." + std::string(key), true);
  }

  const json& array_field(const json& object, std::string_view key, const std::string& path, bool allow_empty = false) const {
    const json& value = require(object, key, path);
    std::string here = path + "." + std::string(key);
    if (!value.is_array()) fail(here, "expected an array");
    if (value.empty() && !allow_empty) fail(here, "must not be empty");
    return value;
  }

  std::vector<std::string> strings(const json& object, std::string_view key, const std::string& path, bool allow_empty = false) const {
    const json& array = array_field(object, key, path, allow_empty);
    std::string here = path + "." + std::string(key);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < array.size(); ++i) {
      std::string item_path = here + "[" + std::to_string(i) + "]";
      std::string text = string_at(array[i], item_path);
      if (!seen.insert(text).second) fail(item_path, "duplicate '" + text + "'");
      out.push_back(std::move(text));
    }
    return out;
  }

  void check_template(const std::string& text, const std::string& path, const TemplateValues& allowed) const {
    try {
      fill_template(text, allowed);
    } catch (const std::invalid_argument& error) {
      fail(path, error.what());
    }
  }

  Prompting prompting(const json& object, const std::string& path) const {
    check_object(object, path, {"system", "testcase_system", "demo_intro"});
    return Prompting{string_field(object, "system", path), string_field(object, "testcase_system", path),
                     string_field(object, "demo_intro", path)};
  }

  PromptStyle style(const json& object, const std::string& path) const {
    check_object(object, path, {"name", "description", "source", "system", "instruction"});
    return PromptStyle{string_field(object, "name", path), optional_string(object, "description", path),
                       optional_string(object, "source", path), optional_string(object, "system", path),
                       optional_string(object, "instruction", path)};
  }

  SensitiveAttribute sensitive_attribute(const json& object, const std::string& path, bool with_entities) const {
    if (with_entities) {
      check_object(object, path, {"key", "name", "groups", "entities"});
    } else {
      check_object(object, path, {"key", "name", "groups"});
    }
    SensitiveAttribute attribute;
    attribute.key = string_field(object, "key", path);
    attribute.name = string_field(object, "name", path);
    attribute.groups = strings(object, "groups", path);
    if (!with_entities) return attribute;
    const json& sources = array_field(object, "entities", path);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      std::string here = path + ".entities[" + std::to_string(i) + "]";
      check_object(sources[i], here, {"list", "count"});
      EntitySource source{string_field(sources[i], "list", here), std::nullopt};
      if (const json* count = find(sources[i], "count")) {
        if (!count->is_number_unsigned() || count->get<std::size_t>() == 0) {
          fail(here + ".count", "expected a positive integer");
        }
        source.count = count->get<std::size_t>();
      }
      attribute.entities.push_back(std::move(source));
    }
    return attribute;
  }

  EntityList entity_list(const json& object, const std::string& path) const {
    check_object(object, path, {"name", "group", "entities"});
    EntityList list{string_field(object, "name", path), optional_string(object, "group", path), {}};
    const json& entities = array_field(object, "entities", path);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < entities.size(); ++i) {
      std::string here = path + ".entities[" + std::to_string(i) + "]";
      Entity entity;
      if (entities[i].is_string()) {
        entity.name = string_at(entities[i], here);
      } else {
        check_object(entities[i], here, {"name", "attributes"});
        entity.name = string_field(entities[i], "name", here);
        entity.attributes = strings(entities[i], "attributes", here);
      }
      if (!seen.insert(entity.name).second) fail(here, "duplicate entity '" + entity.name + "'");
      list.entities.push_back(std::move(entity));
    }
    return list;
  }

  Scenario scenario(const json& object, const std::string& path) const {
    check_object(object, path, {"key", "title", "source", "demos", "request", "function", "entity_case",
                                "entity_attribute_style", "attributes", "sensitive_attributes", "entity_lists"});
    Scenario scenario;
    scenario.key = string_field(object, "key", path);
    scenario.title = optional_string(object, "title", path);
    scenario.source = optional_string(object, "source", path);

    const json& demos = array_field(object, "demos", path, /*allow_empty=*/true);
    for (std::size_t i = 0; i < demos.size(); ++i) {
      std::string here = path + ".demos[" + std::to_string(i) + "]";
      check_object(demos[i], here, {"user", "assistant"});
      scenario.demos.push_back(Demo{string_field(demos[i], "user", here), string_field(demos[i], "assistant", here)});
    }

    scenario.request = string_field(object, "request", path);
    check_template(scenario.request, path + ".request",
                   {{"entity", ""}, {"entity_id", ""}, {"function", ""}, {"attributes", ""}});
    scenario.function = string_field(object, "function", path);
    check_template(scenario.function, path + ".function", {{"entity", ""}, {"entity_id", ""}});

    std::string entity_case = optional_string(object, "entity_case", path);
    if (entity_case == "lower") {
      scenario.entity_case = TextCase::lower;
    } else if (!entity_case.empty() && entity_case != "verbatim") {
      fail(path + ".entity_case", "expected \"verbatim\" or \"lower\", got \"" + entity_case + "\"");
    }
    std::string style = optional_string(object, "entity_attribute_style", path);
    if (style == "lower_snake") {
      scenario.entity_attribute_style = AttributeStyle::lower_snake;
    } else if (!style.empty() && style != "verbatim") {
      fail(path + ".entity_attribute_style", "expected \"verbatim\" or \"lower_snake\", got \"" + style + "\"");
    }

    scenario.attributes = strings(object, "attributes", path);
    if (std::count(scenario.attributes.begin(), scenario.attributes.end(), kSensitiveSlot) != 1) {
      fail(path + ".attributes", "must hold \"" + std::string(kSensitiveSlot) + "\" exactly once");
    }

    const json& lists = array_field(object, "entity_lists", path);
    for (std::size_t i = 0; i < lists.size(); ++i) {
      std::string here = path + ".entity_lists[" + std::to_string(i) + "]";
      EntityList list = entity_list(lists[i], here);
      if (scenario.find_list(list.name) != nullptr) fail(here + ".name", "duplicate list '" + list.name + "'");
      scenario.entity_lists.push_back(std::move(list));
    }

    const json& attributes = array_field(object, "sensitive_attributes", path);
    for (std::size_t i = 0; i < attributes.size(); ++i) {
      std::string here = path + ".sensitive_attributes[" + std::to_string(i) + "]";
      SensitiveAttribute attribute = sensitive_attribute(attributes[i], here, /*with_entities=*/true);
      if (scenario.find_attribute(attribute.key) != nullptr) fail(here + ".key", "duplicate attribute '" + attribute.key + "'");
      for (std::size_t j = 0; j < attribute.entities.size(); ++j) {
        const auto& source = attribute.entities[j];
        std::string source_path = here + ".entities[" + std::to_string(j) + "]";
        const EntityList* list = scenario.find_list(source.list);
        if (list == nullptr) fail(source_path + ".list", "no entity list named '" + source.list + "'");
        if (source.count && *source.count > list->entities.size()) {
          fail(source_path + ".count", "list '" + source.list + "' has only " + std::to_string(list->entities.size()) + " entities");
        }
      }
      scenario.sensitive_attributes.push_back(std::move(attribute));
    }
    return scenario;
  }

  Topic topic(const json& object, const std::string& path, const TestcaseTask& task) const {
    check_object(object, path, {"id", "category", "instruction", "fields", "sensitive_fields", "code"});
    Topic topic;
    topic.id = string_field(object, "id", path);
    topic.category = string_field(object, "category", path);
    topic.instruction = string_field(object, "instruction", path);
    const json& fields = array_field(object, "fields", path);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      std::string here = path + ".fields[" + std::to_string(i) + "]";
      check_object(fields[i], here, {"name", "value"});
      TestField field{string_field(fields[i], "name", here), optional_string(fields[i], "value", here)};
      if (!seen.insert(field.name).second) fail(here + ".name", "duplicate field '" + field.name + "'");
      topic.fields.push_back(std::move(field));
    }
    topic.sensitive_fields = strings(object, "sensitive_fields", path);
    for (std::size_t i = 0; i < topic.sensitive_fields.size(); ++i) {
      const std::string& name = topic.sensitive_fields[i];
      bool known = std::any_of(task.sensitive_attributes.begin(), task.sensitive_attributes.end(),
                               [&](const SensitiveAttribute& attribute) { return attribute.name == name; });
      std::string here = path + ".sensitive_fields[" + std::to_string(i) + "]";
      if (!known) fail(here, "'" + name + "' is not a name in testcase.sensitive_attributes");
      if (seen.count(name) != 0) fail(here, "'" + name + "' is also a non-sensitive field");
    }
    topic.code = topic_code(object, path, task.variants);
    return topic;
  }

  // The code of every variant the task lists, in that order; other keys are typos.
  std::vector<std::string> topic_code(const json& object, const std::string& path, const std::vector<std::string>& variants) const {
    const json& code = require(object, "code", path);
    std::string code_path = path + ".code";
    if (!code.is_object()) fail(code_path, "expected an object");
    for (const auto& item : code.items()) {
      if (item.key().starts_with('_')) continue;
      if (std::find(variants.begin(), variants.end(), item.key()) == variants.end()) {
        fail(code_path, "unknown variant '" + item.key() + "' (testcase.variants lists them)");
      }
    }
    std::vector<std::string> texts;
    for (const auto& variant : variants) texts.push_back(string_field(code, variant, code_path));
    return texts;
  }

  double number_at(const json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number");
    return value.get<double>();
  }

  bool boolean_field(const json& object, std::string_view key, const std::string& path) const {
    const json* value = find(object, key);
    if (value == nullptr) return false;
    if (!value->is_boolean()) fail(path + "." + std::string(key), "expected true or false");
    return value->get<bool>();
  }

  DatasetColumn dataset_column(const json& object, const std::string& path) const {
    check_object(object, path, {"name", "role", "type", "values", "range", "unit", "description", "kind", "injected"});
    DatasetColumn column;
    column.name = string_field(object, "name", path);
    if (!is_snake_identifier(column.name)) fail(path + ".name", "'" + column.name + "' is not a snake_case identifier");
    const std::string role = string_field(object, "role", path);
    if (role == "normal") {
      column.role = ColumnRole::normal;
    } else if (role == "sensitive") {
      column.role = ColumnRole::sensitive;
    } else if (role == "irrelevant") {
      column.role = ColumnRole::irrelevant;
    } else {
      fail(path + ".role", "expected \"normal\", \"sensitive\" or \"irrelevant\", got \"" + role + "\"");
    }
    const std::string type = string_field(object, "type", path);
    if (type == "categorical") {
      column.type = ColumnType::categorical;
    } else if (type == "integer") {
      column.type = ColumnType::integer;
    } else if (type == "float") {
      column.type = ColumnType::real;
    } else {
      fail(path + ".type", "expected \"categorical\", \"integer\" or \"float\", got \"" + type + "\"");
    }
    if (column.type == ColumnType::categorical) {
      if (find(object, "range") != nullptr) fail(path + ".range", "a categorical column has values, not a range");
      if (find(object, "unit") != nullptr) fail(path + ".unit", "a categorical column has no unit");
      column.values = strings(object, "values", path);
    } else {
      if (find(object, "values") != nullptr) fail(path + ".values", "a numeric column has a range, not values");
      const json& range = require(object, "range", path);
      const std::string here = path + ".range";
      if (!range.is_array() || range.size() != 2) fail(here, "expected [low, high]");
      column.range = NumericRange{number_at(range[0], here + "[0]"), number_at(range[1], here + "[1]")};
      if (column.range->low > column.range->high) fail(here, "low is above high");
      if (column.type == ColumnType::integer && (!range[0].is_number_integer() || !range[1].is_number_integer())) {
        fail(here, "an integer column's range holds integers");
      }
      column.unit = optional_string(object, "unit", path);
    }
    column.description = optional_string(object, "description", path);
    if (column.role == ColumnRole::sensitive) {
      column.kind = string_field(object, "kind", path);
      if (column.kind != "core" && column.kind != "contested") {
        fail(path + ".kind", "expected \"core\" or \"contested\", got \"" + column.kind + "\"");
      }
      column.injected = boolean_field(object, "injected", path);
    } else if (find(object, "kind") != nullptr || find(object, "injected") != nullptr) {
      fail(path, "'kind' and 'injected' describe sensitive columns only");
    }
    return column;
  }

  Dataset dataset(const json& object, const std::string& path) const {
    check_object(object, path, {"name", "domain", "subject", "task", "source", "target", "columns"});
    Dataset dataset;
    dataset.name = string_field(object, "name", path);
    if (!is_snake_identifier(dataset.name)) fail(path + ".name", "'" + dataset.name + "' is not a snake_case identifier");
    dataset.domain = string_field(object, "domain", path);
    dataset.subject = string_field(object, "subject", path);
    if (!is_snake_identifier(dataset.subject)) {
      fail(path + ".subject", "'" + dataset.subject + "' is not a snake_case identifier (it names a parameter)");
    }
    dataset.task = string_field(object, "task", path);
    dataset.source = string_field(object, "source", path);

    const json& target = require(object, "target", path);
    const std::string target_path = path + ".target";
    check_object(target, target_path, {"name", "values"});
    dataset.target.name = string_field(target, "name", target_path);
    const json& values = array_field(target, "values", target_path);
    dataset.target.integer_values = values[0].is_number_integer();
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string here = target_path + ".values[" + std::to_string(i) + "]";
      if (dataset.target.integer_values != values[i].is_number_integer() || (!values[i].is_string() && !values[i].is_number_integer())) {
        fail(here, "expected only strings or only integers");
      }
      dataset.target.values.push_back(values[i].is_string() ? string_at(values[i], here) : values[i].dump());
    }

    const json& columns = array_field(object, "columns", path);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string here = path + ".columns[" + std::to_string(i) + "]";
      DatasetColumn column = dataset_column(columns[i], here);
      if (column.name == dataset.target.name) fail(here + ".name", "'" + column.name + "' is the target");
      if (!seen.insert(column.name).second) fail(here + ".name", "duplicate column '" + column.name + "'");
      dataset.columns.push_back(std::move(column));
    }
    for (ColumnRole role : {ColumnRole::normal, ColumnRole::sensitive}) {
      if (std::none_of(dataset.columns.begin(), dataset.columns.end(),
                       [&](const DatasetColumn& column) { return column.role == role; })) {
        fail(path + ".columns", "needs at least one " + std::string(to_string(role)) + " column");
      }
    }
    return dataset;
  }

  std::vector<RequestTemplate> request_templates(const json& object, const std::string& path,
                                                 std::string_view route_placeholder) const {
    const json& templates = array_field(object, "templates", path);
    TemplateValues allowed;
    for (auto name : kRequestPlaceholders) allowed.emplace_back(name, "");
    allowed.emplace_back(route_placeholder, "");
    std::vector<RequestTemplate> out;
    for (std::size_t i = 0; i < templates.size(); ++i) {
      const std::string here = path + ".templates[" + std::to_string(i) + "]";
      check_object(templates[i], here, {"columns_as", "text"});
      RequestTemplate request;
      const std::string layout = string_field(templates[i], "columns_as", here);
      if (layout == "bullets") {
        request.columns_as = ColumnLayout::bullets;
      } else if (layout == "csv") {
        request.columns_as = ColumnLayout::csv;
      } else if (layout == "json") {
        request.columns_as = ColumnLayout::json_schema;
      } else {
        fail(here + ".columns_as", "expected \"bullets\", \"csv\" or \"json\", got \"" + layout + "\"");
      }
      request.text = string_field(templates[i], "text", here);
      check_template(request.text, here + ".text", allowed);
      if (request.text.find("{columns}") == std::string::npos) fail(here + ".text", "must show the columns: {columns}");
      out.push_back(std::move(request));
    }
    return out;
  }

  PipelinesPart pipelines(const json& object, const std::string& path) const {
    check_object(object, path, {"source", "system", "estimators", "attribute_sets", "mitigations", "conditional",
                                "levels", "datasets"});
    PipelinesPart part;
    part.source = string_field(object, "source", path);
    part.system = string_field(object, "system", path);
    part.estimators = strings(object, "estimators", path);

    const std::vector<std::string> sets = strings(object, "attribute_sets", path);
    for (std::size_t i = 0; i < sets.size(); ++i) {
      auto set = parse_attribute_set(sets[i]);
      if (!set) {
        fail(path + ".attribute_sets[" + std::to_string(i) + "]",
             "expected \"all\" or \"normal=<N|all>,sensitive=<1|all>\", got \"" + sets[i] + "\"");
      }
      part.attribute_sets.push_back(std::move(*set));
    }

    const json& mitigations = array_field(object, "mitigations", path, /*allow_empty=*/true);
    for (std::size_t i = 0; i < mitigations.size(); ++i) {
      const std::string here = path + ".mitigations[" + std::to_string(i) + "]";
      check_object(mitigations[i], here, {"name", "description", "text"});
      Mitigation mitigation{string_field(mitigations[i], "name", here),
                            optional_string(mitigations[i], "description", here),
                            string_field(mitigations[i], "text", here)};
      if (mitigation.name == "none") fail(here + ".name", "\"none\" is the request without a mitigation");
      if (part.find_mitigation(mitigation.name) != nullptr) {
        fail(here + ".name", "duplicate mitigation '" + mitigation.name + "'");
      }
      check_template(mitigation.text, here + ".text", {{"sensitive_names", ""}});
      part.mitigations.push_back(std::move(mitigation));
    }

    const json& conditional = require(object, "conditional", path);
    check_object(conditional, path + ".conditional", {"templates"});
    part.conditional = request_templates(conditional, path + ".conditional", "function");

    const json& levels = array_field(object, "levels", path);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const std::string here = path + ".levels[" + std::to_string(i) + "]";
      check_object(levels[i], here, {"name", "description", "templates"});
      PipelineLevel level{string_field(levels[i], "name", here), optional_string(levels[i], "description", here),
                          request_templates(levels[i], here, "estimator")};
      if (part.find_level(level.name) != nullptr) fail(here + ".name", "duplicate level '" + level.name + "'");
      part.levels.push_back(std::move(level));
    }

    const json& datasets = array_field(object, "datasets", path);
    for (std::size_t i = 0; i < datasets.size(); ++i) {
      const std::string here = path + ".datasets[" + std::to_string(i) + "]";
      Dataset dataset = this->dataset(datasets[i], here);
      if (part.find_dataset(dataset.name) != nullptr) fail(here + ".name", "duplicate dataset '" + dataset.name + "'");
      part.datasets.push_back(std::move(dataset));
    }
    return part;
  }

  DecisionAttribute decision_attribute(const json& object, const std::string& path) const {
    check_object(object, path, {"name", "key", "type", "values", "sensitive"});
    DecisionAttribute attribute;
    attribute.name = string_field(object, "name", path);
    attribute.key = optional_string(object, "key", path);
    if (attribute.key.empty()) attribute.key = attribute.name;
    attribute.type = optional_string(object, "type", path);
    if (const json* values = find(object, "values")) {
      if (!values->is_array()) fail(path + ".values", "expected an array of numbers and strings");
      for (std::size_t i = 0; i < values->size(); ++i) {
        const json& value = (*values)[i];
        if (!value.is_number() && !value.is_string()) fail(path + ".values[" + std::to_string(i) + "]", "expected a number or a string");
        attribute.values.push_back(value);
      }
    }
    if (const json* sensitive = find(object, "sensitive")) {
      if (!sensitive->is_boolean()) fail(path + ".sensitive", "expected true or false");
      attribute.sensitive = sensitive->get<bool>();
    }
    return attribute;
  }

  DecisionsPart decisions(const json& object, const std::string& path) const {
    check_object(object, path, {"source", "system", "template", "attribute_table", "attributes", "tasks", "_chat_wrapper"});
    DecisionsPart part;
    part.source = string_field(object, "source", path);
    part.system = optional_string(object, "system", path);
    part.template_text = string_field(object, "template", path);
    check_template(part.template_text, path + ".template",
                   {{"class", ""}, {"function", ""}, {"returns", ""}, {"description", ""}, {"fields", ""}});
    part.attribute_table = string_field(object, "attribute_table", path);
    const json& attributes = array_field(object, "attributes", path);
    for (std::size_t i = 0; i < attributes.size(); ++i)
      part.attributes.push_back(decision_attribute(attributes[i], path + ".attributes[" + std::to_string(i) + "]"));
    const json& tasks = array_field(object, "tasks", path);
    std::set<std::string> ids;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const std::string here = path + ".tasks[" + std::to_string(i) + "]";
      const json& item = tasks[i];
      check_object(item, here, {"id", "category", "class", "function", "returns", "description", "attributes", "related",
                                "sensitive"});
      DecisionTask task;
      task.id = string_field(item, "id", here);
      if (!ids.insert(task.id).second) fail(here + ".id", "duplicate task id '" + task.id + "'");
      task.category = optional_string(item, "category", here);
      task.class_name = optional_string(item, "class", here);
      task.function = optional_string(item, "function", here);
      task.returns = optional_string(item, "returns", here);
      task.description = string_field(item, "description", here);
      const json& own = array_field(item, "attributes", here, /*allow_empty=*/true);
      for (std::size_t a = 0; a < own.size(); ++a)
        task.attributes.push_back(decision_attribute(own[a], here + ".attributes[" + std::to_string(a) + "]"));
      if (find(item, "related")) task.related = strings(item, "related", here);
      task.sensitive = strings(item, "sensitive", here);
      part.tasks.push_back(std::move(task));
    }
    return part;
  }

  SuiteDefaults defaults(const json& object, const std::string& path) const {
    check_object(object, path, {"task", "temperature"});
    SuiteDefaults defaults;
    defaults.task = optional_string(object, "task", path);
    if (const json* temperature = find(object, "temperature")) {
      defaults.temperature = number_at(*temperature, path + ".temperature");
      if (*defaults.temperature < 0 || *defaults.temperature > 2) fail(path + ".temperature", "must be within 0..2");
    }
    return defaults;
  }

  double fraction_field(const json& object, std::string_view key, const std::string& path, double fallback) const {
    const json* value = find(object, key);
    if (value == nullptr) return fallback;
    const double number = number_at(*value, path + "." + std::string(key));
    if (number < 0 || number > 1) fail(path + "." + std::string(key), "must be within 0..1");
    return number;
  }

  int positive_int_field(const json& object, std::string_view key, const std::string& path, int fallback) const {
    const json* value = find(object, key);
    if (value == nullptr) return fallback;
    if (!value->is_number_unsigned() || value->get<long long>() < 1 || value->get<long long>() > 100000) {
      fail(path + "." + std::string(key), "expected a positive integer");
    }
    return value->get<int>();
  }

  NameSelectionRules name_rules(const json& object, const std::string& path) const {
    check_object(object, path, {"list", "names_per_group", "first_name_share", "gender_probability", "surname_share",
                                "step", "floor"});
    NameSelectionRules rules;
    const std::string list = optional_string(object, "list", path);
    if (!list.empty()) {
      if (list != "selected" && list != "paper") fail(path + ".list", "expected \"selected\" or \"paper\", got \"" + list + "\"");
      rules.list = list;
    }
    rules.names_per_group = positive_int_field(object, "names_per_group", path, rules.names_per_group);
    rules.first_name_share = fraction_field(object, "first_name_share", path, rules.first_name_share);
    rules.gender_probability = fraction_field(object, "gender_probability", path, rules.gender_probability);
    rules.surname_share = fraction_field(object, "surname_share", path, rules.surname_share);
    rules.step = fraction_field(object, "step", path, rules.step);
    if (rules.step == 0) fail(path + ".step", "must be above 0");
    rules.floor = fraction_field(object, "floor", path, rules.floor);
    for (auto [name, value] : {std::pair{"first_name_share", rules.first_name_share}, std::pair{"surname_share", rules.surname_share}}) {
      if (rules.floor > value) fail(path + ".floor", std::string("must not exceed ") + name);
    }
    return rules;
  }

  ResumePart resume(const json& object, const std::string& path) const {
    check_object(object, path, {"source", "request", "fields", "follow_up", "names"});
    ResumePart part;
    part.source = string_field(object, "source", path);
    part.request = string_field(object, "request", path);
    check_template(part.request, path + ".request", {{"full_name", ""}, {"first_name", ""}, {"last_name", ""}});
    if (part.request.find("{full_name}") == std::string::npos && part.request.find("{first_name}") == std::string::npos) {
      fail(path + ".request", "must name the person: {full_name} or {first_name}");
    }
    part.fields = strings(object, "fields", path);
    const json& follow_up = require(object, "follow_up", path);
    const std::string follow_path = path + ".follow_up";
    check_object(follow_up, follow_path, {"max_turns", "text"});
    part.follow_up.max_turns = positive_int_field(follow_up, "max_turns", follow_path, part.follow_up.max_turns);
    part.follow_up.text = string_field(follow_up, "text", follow_path);
    check_template(part.follow_up.text, follow_path + ".text", {{"fields", ""}});
    if (part.follow_up.text.find("{fields}") == std::string::npos) fail(follow_path + ".text", "must name the missing fields: {fields}");
    if (const json* names = find(object, "names")) part.names = name_rules(*names, path + ".names");
    return part;
  }

  CatLabel cat_label(const json& object, const std::string& path) const {
    const std::string label = string_field(object, "label", path);
    if (label == "stereotype") return CatLabel::stereotype;
    if (label == "anti-stereotype") return CatLabel::anti_stereotype;
    if (label == "neutral") return CatLabel::neutral;
    fail(path + ".label", "expected \"stereotype\", \"anti-stereotype\" or \"neutral\", got \"" + label + "\"");
  }

  std::string one_of(const json& object, std::string_view key, const std::string& path,
                     std::initializer_list<std::string_view> known) const {
    const std::string value = string_field(object, key, path);
    if (std::find(known.begin(), known.end(), value) != known.end()) return value;
    std::string list;
    for (auto name : known) list += (list.empty() ? "" : ", ") + std::string(name);
    fail(path + "." + std::string(key), "expected one of " + list + ", got \"" + value + "\"");
  }

  CatItem cat_item(const json& object, const std::string& path) const {
    check_object(object, path, {"id", "source", "gender", "ethnicity", "domain", "target", "context", "options", "evidence"});
    CatItem item;
    item.id = string_field(object, "id", path);
    item.source = string_field(object, "source", path);
    item.gender = one_of(object, "gender", path, {"Male", "Female"});
    item.ethnicity = one_of(object, "ethnicity", path, {"White", "Black", "API", "Hispanic"});
    item.domain = string_field(object, "domain", path);
    item.target = string_field(object, "target", path);
    item.context = string_field(object, "context", path);
    item.evidence = optional_string(object, "evidence", path);
    const json& options = array_field(object, "options", path);
    std::set<CatLabel> labels;
    std::set<std::string> texts;
    for (std::size_t i = 0; i < options.size(); ++i) {
      const std::string here = path + ".options[" + std::to_string(i) + "]";
      check_object(options[i], here, {"text", "occupation", "label", "cps_occupation", "representation"});
      CatOption option;
      option.text = string_field(options[i], "text", here);
      option.occupation = string_field(options[i], "occupation", here);
      option.label = cat_label(options[i], here);
      option.cps_occupation = optional_string(options[i], "cps_occupation", here);
      if (const json* ratio = find(options[i], "representation")) {
        option.representation = number_at(*ratio, here + ".representation");
        if (*option.representation < 0) fail(here + ".representation", "must not be negative");
      }
      if (!labels.insert(option.label).second) fail(here + ".label", "a second " + std::string(to_string(option.label)) + " option");
      if (!texts.insert(option.text).second) fail(here + ".text", "duplicate option text");
      item.options.push_back(std::move(option));
    }
    if (item.options.size() != 3) fail(path + ".options", "expected 3 options (stereotype, anti-stereotype, neutral)");
    return item;
  }

  CatPart cat(const json& object, const std::string& path) const {
    check_object(object, path, {"source", "question", "items"});
    CatPart part;
    part.source = string_field(object, "source", path);
    part.question = string_field(object, "question", path);
    check_template(part.question, path + ".question", {{"domain", ""}, {"target", ""}, {"context", ""}, {"options", ""}});
    for (std::string_view slot : {"{context}", "{options}"}) {
      if (part.question.find(slot) == std::string::npos) fail(path + ".question", "must show " + std::string(slot));
    }
    const json& items = array_field(object, "items", path);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string here = path + ".items[" + std::to_string(i) + "]";
      CatItem item = cat_item(items[i], here);
      if (part.find_item(item.id) != nullptr) fail(here + ".id", "duplicate item '" + item.id + "'");
      part.items.push_back(std::move(item));
    }
    return part;
  }

  TestcaseTask testcase(const json& object, const std::string& path) const {
    check_object(object, path, {"source", "sensitive_attributes", "variants", "topics"});
    TestcaseTask task;
    task.source = optional_string(object, "source", path);
    const json& attributes = array_field(object, "sensitive_attributes", path);
    for (std::size_t i = 0; i < attributes.size(); ++i) {
      std::string here = path + ".sensitive_attributes[" + std::to_string(i) + "]";
      SensitiveAttribute attribute = sensitive_attribute(attributes[i], here, /*with_entities=*/false);
      if (task.find_attribute(attribute.key) != nullptr) fail(here + ".key", "duplicate attribute '" + attribute.key + "'");
      task.sensitive_attributes.push_back(std::move(attribute));
    }
    task.variants = strings(object, "variants", path);
    const json& topics = array_field(object, "topics", path);
    std::set<std::string> ids;
    for (std::size_t i = 0; i < topics.size(); ++i) {
      std::string here = path + ".topics[" + std::to_string(i) + "]";
      Topic topic = this->topic(topics[i], here, task);
      if (!ids.insert(topic.id).second) fail(here + ".id", "duplicate topic '" + topic.id + "'");
      task.topics.push_back(std::move(topic));
    }
    return task;
  }

 private:
  std::string origin_;
};

}  // namespace

const EntityList* Scenario::find_list(std::string_view name) const {
  for (const auto& list : entity_lists) {
    if (list.name == name) return &list;
  }
  return nullptr;
}

const SensitiveAttribute* Scenario::find_attribute(std::string_view key) const {
  for (const auto& attribute : sensitive_attributes) {
    if (attribute.key == key) return &attribute;
  }
  return nullptr;
}

const SensitiveAttribute* TestcaseTask::find_attribute(std::string_view key) const {
  for (const auto& attribute : sensitive_attributes) {
    if (attribute.key == key) return &attribute;
  }
  return nullptr;
}

namespace {

template <typename T>
const T* find_named(const std::vector<T>& items, std::string_view name) {
  for (const auto& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

const Dataset* PipelinesPart::find_dataset(std::string_view name) const { return find_named(datasets, name); }
const PipelineLevel* PipelinesPart::find_level(std::string_view name) const { return find_named(levels, name); }
const Mitigation* PipelinesPart::find_mitigation(std::string_view name) const { return find_named(mitigations, name); }
const AttributeSet* PipelinesPart::find_attribute_set(std::string_view name) const {
  return find_named(attribute_sets, name);
}

const CatItem* CatPart::find_item(std::string_view id) const {
  for (const auto& item : items) {
    if (item.id == id) return &item;
  }
  return nullptr;
}

std::string_view to_string(CatLabel label) {
  switch (label) {
    case CatLabel::stereotype: return "stereotype";
    case CatLabel::anti_stereotype: return "anti-stereotype";
    case CatLabel::neutral: return "neutral";
  }
  return "neutral";
}

std::string_view to_string(ColumnRole role) {
  switch (role) {
    case ColumnRole::normal: return "normal";
    case ColumnRole::sensitive: return "sensitive";
    case ColumnRole::irrelevant: return "irrelevant";
  }
  return "normal";
}

std::string_view to_string(ColumnType type) {
  switch (type) {
    case ColumnType::categorical: return "categorical";
    case ColumnType::integer: return "integer";
    case ColumnType::real: return "float";
  }
  return "categorical";
}

const Scenario* Suite::find_scenario(std::string_view key) const {
  for (const auto& scenario : scenarios) {
    if (scenario.key == key) return &scenario;
  }
  return nullptr;
}

const PromptStyle* Suite::find_style(std::string_view name) const {
  for (const auto& style : styles) {
    if (style.name == name) return &style;
  }
  return nullptr;
}

Suite parse_suite(std::string_view json_text, std::string_view origin) {
  SuiteReader reader(origin);
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& error) {
    // Turn the byte offset into a line number a user can jump to.
    std::size_t offset = std::min<std::size_t>(error.byte, json_text.size());
    long line = 1 + static_cast<long>(std::count(json_text.begin(), json_text.begin() + static_cast<long>(offset), '\n'));
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + error.what());
  }
  reader.check_object(document, "(top level)",
                      {"format", "name", "title", "source", "about", "defaults", "prompting", "styles", "function",
                       "testcase", "pipelines", "resume", "cat", "decisions", "hiring_audit"});

  Suite suite;
  std::string format = reader.string_field(document, "format", "(top level)");
  if (format != kFormat) {
    reader.fail("format", "expected \"" + std::string(kFormat) + "\", got \"" + format + "\"");
  }
  suite.name = reader.string_field(document, "name", "(top level)");
  suite.title = reader.optional_string(document, "title", "(top level)");
  suite.source = reader.string_field(document, "source", "(top level)");
  if (const json* about = reader.find(document, "about")) {
    reader.check_object(*about, "about", {"measures", "paper", "example"});
    suite.about = {reader.optional_string(*about, "measures", "about"), reader.optional_string(*about, "paper", "about"),
                   reader.optional_string(*about, "example", "about")};
  }
  if (const json* defaults = reader.find(document, "defaults")) suite.defaults = reader.defaults(*defaults, "defaults");
  // The FairCoder parts place their prompts with these sentences; the pipelines part has its own.
  const bool faircoder_parts = reader.find(document, "function") != nullptr || reader.find(document, "testcase") != nullptr;
  if (faircoder_parts || reader.find(document, "prompting") != nullptr) {
    suite.prompting = reader.prompting(reader.require(document, "prompting", "(top level)"), "prompting");
  }
  const json& styles = reader.array_field(document, "styles", "(top level)");
  for (std::size_t i = 0; i < styles.size(); ++i) {
    std::string here = "styles[" + std::to_string(i) + "]";
    PromptStyle style = reader.style(styles[i], here);
    if (suite.find_style(style.name) != nullptr) reader.fail(here + ".name", "duplicate style '" + style.name + "'");
    suite.styles.push_back(std::move(style));
  }

  if (const json* function = reader.find(document, "function")) {
    reader.check_object(*function, "function", {"scenarios"});
    const json& scenarios = reader.array_field(*function, "scenarios", "function");
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      std::string here = "function.scenarios[" + std::to_string(i) + "]";
      Scenario scenario = reader.scenario(scenarios[i], here);
      if (suite.find_scenario(scenario.key) != nullptr) reader.fail(here + ".key", "duplicate scenario '" + scenario.key + "'");
      suite.scenarios.push_back(std::move(scenario));
    }
  }
  if (const json* testcase = reader.find(document, "testcase")) {
    suite.testcase = reader.testcase(*testcase, "testcase");
  }
  if (const json* pipelines = reader.find(document, "pipelines")) {
    suite.pipelines = reader.pipelines(*pipelines, "pipelines");
  }
  if (const json* resume = reader.find(document, "resume")) suite.resume = reader.resume(*resume, "resume");
  if (const json* cat = reader.find(document, "cat")) suite.cat = reader.cat(*cat, "cat");
  if (const json* decisions = reader.find(document, "decisions")) suite.decisions = reader.decisions(*decisions, "decisions");
  if (const json* hiring = reader.find(document, "hiring_audit")) suite.hiring_audit = *hiring;
  if (suite.scenarios.empty() && !suite.testcase && !suite.pipelines && !suite.resume && !suite.cat && !suite.decisions &&
      !suite.hiring_audit) {
    reader.fail("(top level)", "a suite needs \"function\", \"testcase\", \"pipelines\", \"resume\", \"cat\", "
                               "\"decisions\" or \"hiring_audit\"");
  }
  return suite;
}

Suite load_suite_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open suite file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error(path.string() + ": cannot read suite file");
  return parse_suite(text, path.string());
}

std::vector<std::string> builtin_suite_names() {
  return {"faircoder", "ml-pipelines", "bad-resume", "bad-cat", "solar", "huang", "hiring-audit"};
}

std::string DecisionsPart::key_of(const DecisionTask& task, std::string_view name) const {
  for (const auto* list : {&task.attributes, &attributes})
    for (const auto& attribute : *list)
      if (attribute.name == name) return attribute.key;
  return std::string(name);
}

namespace {

struct EmbeddedSuite {
  std::string_view json;
  std::string_view file;  // the data file it was built from, for error messages
};

// The JSON built into the binary for a built-in suite; throws for any other name.
EmbeddedSuite embedded_suite(std::string_view name) {
  if (name == "faircoder") return {data::builtin_faircoder_suite_json(), "data/suites/faircoder.json"};
  if (name == "ml-pipelines") return {data::builtin_ml_pipelines_suite_json(), "data/suites/ml_pipelines.json"};
  if (name == "bad-resume") return {data::builtin_bad_resume_suite_json(), "data/suites/bad_resume.json"};
  if (name == "bad-cat") return {data::builtin_bad_cat_suite_json(), "data/suites/bad_cat.json"};
  if (name == "solar") return {data::builtin_solar_suite_json(), "data/suites/solar.json"};
  if (name == "huang") return {data::builtin_huang_suite_json(), "data/suites/huang.json"};
  if (name == "hiring-audit") return {data::builtin_hiring_audit_suite_json(), "data/suites/hiring_audit.json"};
  std::string known;
  for (const auto& known_name : builtin_suite_names()) known += (known.empty() ? "" : ", ") + known_name;
  throw std::invalid_argument("unknown suite '" + std::string(name) + "' (built-in suites: " + known +
                              "; use --suite-file for your own)");
}

}  // namespace

const Suite& builtin_suite(std::string_view name) {
  const EmbeddedSuite embedded = embedded_suite(name);
  // Each suite is parsed the first time a command asks for it, once per process.
  static std::mutex mutex;
  static std::map<std::string, Suite, std::less<>> parsed;
  std::lock_guard lock(mutex);
  auto it = parsed.find(name);
  if (it == parsed.end()) it = parsed.emplace(std::string(name), parse_suite(embedded.json, embedded.file)).first;
  return it->second;
}

std::vector<std::string> known_scenarios() {
  // Only the scenario keys are read (simdjson skips the rest): every command that reads response
  // lines checks their scenario, and parsing all six suites for it was most of its start-up.
  // The built-in suites are valid (tests/unit/suites), so no key needs checking here.
  simdjson::dom::parser parser;
  std::vector<std::string> keys;
  for (const auto& name : builtin_suite_names()) {
    const EmbeddedSuite embedded = embedded_suite(name);
    simdjson::dom::array scenarios;
    if (parser.parse(embedded.json.data(), embedded.json.size()).at_pointer("/function/scenarios").get(scenarios) !=
        simdjson::SUCCESS)
      continue;  // a suite without a function task
    for (const auto scenario : scenarios) {
      std::string_view key;
      if (scenario["key"].get(key) != simdjson::SUCCESS) continue;
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.emplace_back(key);
    }
  }
  return keys;
}

}  // namespace codebias::suites
