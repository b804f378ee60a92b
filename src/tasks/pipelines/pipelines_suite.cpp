#include "tasks/pipelines/pipelines_suite.h"

#include <algorithm>
#include <any>
#include <optional>
#include <set>
#include <string>

#include "suites/suite_reader.h"

namespace codebias::suites {

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

}  // namespace codebias::suites

namespace codebias::tasks {
namespace {

using nlohmann::json;
using namespace suites;

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
constexpr std::string_view kRequestPlaceholders[] = {
    "task", "task_clause", "target", "target_values", "return_type", "columns", "subject", "dataset", "domain"};

DatasetColumn dataset_column(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path,
                      {"name", "role", "type", "values", "range", "unit", "description", "kind", "injected"});
  DatasetColumn column;
  column.name = reader.string_field(object, "name", path);
  if (!is_snake_identifier(column.name))
    reader.fail(path + ".name", "'" + column.name + "' is not a snake_case identifier");
  const std::string role = reader.string_field(object, "role", path);
  if (role == "normal") {
    column.role = ColumnRole::normal;
  } else if (role == "sensitive") {
    column.role = ColumnRole::sensitive;
  } else if (role == "irrelevant") {
    column.role = ColumnRole::irrelevant;
  } else {
    reader.fail(path + ".role", "expected \"normal\", \"sensitive\" or \"irrelevant\", got \"" + role + "\"");
  }
  const std::string type = reader.string_field(object, "type", path);
  if (type == "categorical") {
    column.type = ColumnType::categorical;
  } else if (type == "integer") {
    column.type = ColumnType::integer;
  } else if (type == "float") {
    column.type = ColumnType::real;
  } else {
    reader.fail(path + ".type", "expected \"categorical\", \"integer\" or \"float\", got \"" + type + "\"");
  }
  if (column.type == ColumnType::categorical) {
    if (reader.find(object, "range") != nullptr)
      reader.fail(path + ".range", "a categorical column has values, not a range");
    if (reader.find(object, "unit") != nullptr) reader.fail(path + ".unit", "a categorical column has no unit");
    column.values = reader.strings(object, "values", path);
  } else {
    if (reader.find(object, "values") != nullptr)
      reader.fail(path + ".values", "a numeric column has a range, not values");
    const json& range = reader.require(object, "range", path);
    const std::string here = path + ".range";
    if (!range.is_array() || range.size() != 2) reader.fail(here, "expected [low, high]");
    column.range = NumericRange{reader.number_at(range[0], here + "[0]"), reader.number_at(range[1], here + "[1]")};
    if (column.range->low > column.range->high) reader.fail(here, "low is above high");
    if (column.type == ColumnType::integer && (!range[0].is_number_integer() || !range[1].is_number_integer())) {
      reader.fail(here, "an integer column's range holds integers");
    }
    column.unit = reader.optional_string(object, "unit", path);
  }
  column.description = reader.optional_string(object, "description", path);
  if (column.role == ColumnRole::sensitive) {
    column.kind = reader.string_field(object, "kind", path);
    if (column.kind != "core" && column.kind != "contested") {
      reader.fail(path + ".kind", "expected \"core\" or \"contested\", got \"" + column.kind + "\"");
    }
    column.injected = reader.boolean_field(object, "injected", path);
  } else if (reader.find(object, "kind") != nullptr || reader.find(object, "injected") != nullptr) {
    reader.fail(path, "'kind' and 'injected' describe sensitive columns only");
  }
  return column;
}

Dataset parse_dataset(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"name", "domain", "subject", "task", "source", "target", "columns"});
  Dataset dataset;
  dataset.name = reader.string_field(object, "name", path);
  if (!is_snake_identifier(dataset.name))
    reader.fail(path + ".name", "'" + dataset.name + "' is not a snake_case identifier");
  dataset.domain = reader.string_field(object, "domain", path);
  dataset.subject = reader.string_field(object, "subject", path);
  if (!is_snake_identifier(dataset.subject)) {
    reader.fail(path + ".subject", "'" + dataset.subject + "' is not a snake_case identifier (it names a parameter)");
  }
  dataset.task = reader.string_field(object, "task", path);
  dataset.source = reader.string_field(object, "source", path);

  const json& target = reader.require(object, "target", path);
  const std::string target_path = path + ".target";
  reader.check_object(target, target_path, {"name", "values"});
  dataset.target.name = reader.string_field(target, "name", target_path);
  const json& values = reader.array_field(target, "values", target_path);
  dataset.target.integer_values = values[0].is_number_integer();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string here = target_path + ".values[" + std::to_string(i) + "]";
    if (dataset.target.integer_values != values[i].is_number_integer() ||
        (!values[i].is_string() && !values[i].is_number_integer())) {
      reader.fail(here, "expected only strings or only integers");
    }
    dataset.target.values.push_back(values[i].is_string() ? reader.string_at(values[i], here) : values[i].dump());
  }

  const json& columns = reader.array_field(object, "columns", path);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string here = path + ".columns[" + std::to_string(i) + "]";
    DatasetColumn column = dataset_column(reader, columns[i], here);
    if (column.name == dataset.target.name) reader.fail(here + ".name", "'" + column.name + "' is the target");
    if (!seen.insert(column.name).second) reader.fail(here + ".name", "duplicate column '" + column.name + "'");
    dataset.columns.push_back(std::move(column));
  }
  for (ColumnRole role : {ColumnRole::normal, ColumnRole::sensitive}) {
    if (std::none_of(dataset.columns.begin(), dataset.columns.end(),
                     [&](const DatasetColumn& column) { return column.role == role; })) {
      reader.fail(path + ".columns", "needs at least one " + std::string(to_string(role)) + " column");
    }
  }
  return dataset;
}

std::vector<RequestTemplate> request_templates(const SuiteReader& reader, const json& object, const std::string& path,
                                               std::string_view route_placeholder) {
  const json& templates = reader.array_field(object, "templates", path);
  TemplateValues allowed;
  for (auto name : kRequestPlaceholders) allowed.emplace_back(name, "");
  allowed.emplace_back(route_placeholder, "");
  std::vector<RequestTemplate> out;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const std::string here = path + ".templates[" + std::to_string(i) + "]";
    reader.check_object(templates[i], here, {"columns_as", "text"});
    RequestTemplate request;
    const std::string layout = reader.string_field(templates[i], "columns_as", here);
    if (layout == "bullets") {
      request.columns_as = ColumnLayout::bullets;
    } else if (layout == "csv") {
      request.columns_as = ColumnLayout::csv;
    } else if (layout == "json") {
      request.columns_as = ColumnLayout::json_schema;
    } else {
      reader.fail(here + ".columns_as", "expected \"bullets\", \"csv\" or \"json\", got \"" + layout + "\"");
    }
    request.text = reader.string_field(templates[i], "text", here);
    reader.check_template(request.text, here + ".text", allowed);
    if (request.text.find("{columns}") == std::string::npos)
      reader.fail(here + ".text", "must show the columns: {columns}");
    out.push_back(std::move(request));
  }
  return out;
}

PipelinesPart pipelines(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(
      object, path,
      {"source", "system", "estimators", "attribute_sets", "mitigations", "conditional", "levels", "datasets"});
  PipelinesPart part;
  part.source = reader.string_field(object, "source", path);
  part.system = reader.string_field(object, "system", path);
  part.estimators = reader.strings(object, "estimators", path);

  const std::vector<std::string> sets = reader.strings(object, "attribute_sets", path);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    auto set = parse_attribute_set(sets[i]);
    if (!set) {
      reader.fail(path + ".attribute_sets[" + std::to_string(i) + "]",
                  "expected \"all\" or \"normal=<N|all>,sensitive=<1|all>\", got \"" + sets[i] + "\"");
    }
    part.attribute_sets.push_back(std::move(*set));
  }

  const json& mitigations = reader.array_field(object, "mitigations", path, /*allow_empty=*/true);
  for (std::size_t i = 0; i < mitigations.size(); ++i) {
    const std::string here = path + ".mitigations[" + std::to_string(i) + "]";
    reader.check_object(mitigations[i], here, {"name", "description", "text"});
    Mitigation mitigation{reader.string_field(mitigations[i], "name", here),
                          reader.optional_string(mitigations[i], "description", here),
                          reader.string_field(mitigations[i], "text", here)};
    if (mitigation.name == "none") reader.fail(here + ".name", "\"none\" is the request without a mitigation");
    if (part.find_mitigation(mitigation.name) != nullptr) {
      reader.fail(here + ".name", "duplicate mitigation '" + mitigation.name + "'");
    }
    reader.check_template(mitigation.text, here + ".text", {{"sensitive_names", ""}});
    part.mitigations.push_back(std::move(mitigation));
  }

  const json& conditional = reader.require(object, "conditional", path);
  reader.check_object(conditional, path + ".conditional", {"templates"});
  part.conditional = request_templates(reader, conditional, path + ".conditional", "function");

  const json& levels = reader.array_field(object, "levels", path);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string here = path + ".levels[" + std::to_string(i) + "]";
    reader.check_object(levels[i], here, {"name", "description", "templates"});
    PipelineLevel level{reader.string_field(levels[i], "name", here),
                        reader.optional_string(levels[i], "description", here),
                        request_templates(reader, levels[i], here, "estimator")};
    if (part.find_level(level.name) != nullptr) reader.fail(here + ".name", "duplicate level '" + level.name + "'");
    part.levels.push_back(std::move(level));
  }

  const json& datasets = reader.array_field(object, "datasets", path);
  for (std::size_t i = 0; i < datasets.size(); ++i) {
    const std::string here = path + ".datasets[" + std::to_string(i) + "]";
    Dataset dataset = parse_dataset(reader, datasets[i], here);
    if (part.find_dataset(dataset.name) != nullptr)
      reader.fail(here + ".name", "duplicate dataset '" + dataset.name + "'");
    part.datasets.push_back(std::move(dataset));
  }
  return part;
}

std::any parse_part(const SuiteReader& reader, const json& part, const Suite&) {
  return pipelines(reader, part, std::string(PipelinesPart::kSuiteKey));
}

}  // namespace

const suites::TaskPartParser kPipelinesSuitePart{PipelinesPart::kSuiteKey, false, &parse_part};

}  // namespace codebias::tasks
