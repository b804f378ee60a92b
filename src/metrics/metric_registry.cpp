#include "metrics/metric_registry.h"

#include <cmath>
#include <stdexcept>

#include "base/builtin_data.h"

namespace codebias::metrics {
namespace {

using Part = MetricColumn::Part;

std::string required_string(const nlohmann::json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    throw std::invalid_argument("metrics.json: " + where + ": \"" + key + "\" missing or not a string");
  }
  return it->get<std::string>();
}

bool required_bool(const nlohmann::json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_boolean()) {
    throw std::invalid_argument("metrics.json: " + where + ": \"" + key + "\" missing or not true/false");
  }
  return it->get<bool>();
}

Direction direction_from(const std::string& name, const std::string& where) {
  if (name == "higher_is_fairer") return Direction::higher_is_fairer;
  if (name == "lower_is_fairer") return Direction::lower_is_fairer;
  if (name == "none") return Direction::none;
  throw std::invalid_argument("metrics.json: " + where + ": unknown direction \"" + name + "\"");
}

MetricValue value_from(const std::string& name, const std::string& where) {
  if (name == "rate") return MetricValue::rate;
  if (name == "entropy") return MetricValue::entropy;
  if (name == "score") return MetricValue::score;
  if (name == "signed_rate") return MetricValue::signed_rate;
  if (name == "ratio") return MetricValue::ratio;
  if (name == "percent") return MetricValue::percent;
  if (name == "statistic") return MetricValue::statistic;
  if (name == "p_value") return MetricValue::p_value;
  if (name == "group") return MetricValue::group;
  if (name == "groups") return MetricValue::groups;
  if (name == "per_group") return MetricValue::per_group;
  throw std::invalid_argument("metrics.json: " + where + ": unknown value kind \"" + name + "\"");
}

MetricSpec metric_from(const nlohmann::json& entry, std::size_t index) {
  std::string where = "metrics[" + std::to_string(index) + "]";
  if (!entry.is_object()) throw std::invalid_argument("metrics.json: " + where + ": not an object");
  MetricSpec metric;
  metric.id = required_string(entry, "id", where);
  where += " (" + metric.id + ")";
  metric.json_key = entry.contains("json_key") ? required_string(entry, "json_key", where) : metric.id;
  metric.label = required_string(entry, "label", where);
  metric.short_label = required_string(entry, "short_label", where);
  metric.name = required_string(entry, "name", where);
  metric.paper = required_string(entry, "paper", where);
  metric.section = required_string(entry, "section", where);
  metric.formula = required_string(entry, "formula", where);
  metric.direction = direction_from(required_string(entry, "direction", where), where);
  metric.task = required_string(entry, "task", where);
  if (entry.contains("request")) metric.request = required_string(entry, "request", where);
  metric.value = value_from(required_string(entry, "value", where), where);
  metric.spread = required_bool(entry, "spread", where);
  metric.interval = required_bool(entry, "interval", where);
  if ((metric.spread || metric.interval) && !metric.numeric()) {
    throw std::invalid_argument("metrics.json: " + where + ": only a number has a spread or an interval");
  }
  return metric;
}

MetricColumn column_from(const MetricRegistry& registry, const std::string& text, const std::string& where) {
  const auto dot = text.find('.');
  const std::string id = text.substr(0, dot);
  const std::string part = dot == std::string::npos ? "" : text.substr(dot + 1);
  MetricColumn column;
  column.metric = registry.find(id);
  if (column.metric == nullptr) {
    throw std::invalid_argument("metrics.json: " + where + ": column \"" + text + "\" names no metric");
  }
  if (part == "sd" && column.metric->spread) {
    column.part = Part::sd;
  } else if (part == "ci95" && column.metric->interval) {
    column.part = Part::ci95;
  } else if (!part.empty()) {
    throw std::invalid_argument("metrics.json: " + where + ": column \"" + text + "\": " + id + " has no " + part);
  }
  return column;
}

// The numeric fields of AttributeMetrics by registry id, with their spread where they have one.
struct NumericField {
  std::string_view id;
  std::optional<double> AttributeMetrics::*value;
  std::optional<double> AttributeMetrics::*sd;
};
constexpr NumericField kNumericFields[] = {
    {"refusal_rate", &AttributeMetrics::refusal_rate, &AttributeMetrics::refusal_rate_sd},
    {"preference_entropy", &AttributeMetrics::preference_entropy, &AttributeMetrics::preference_entropy_sd},
    {"fairscore", &AttributeMetrics::fairscore, &AttributeMetrics::fairscore_sd},
    {"bias_rate", &AttributeMetrics::bias_rate, nullptr},
    {"preference_entropy_shifted", &AttributeMetrics::preference_entropy_shifted, nullptr},
    {"fairness_score", &AttributeMetrics::fairness_score, nullptr},
    {"other_value_rate", &AttributeMetrics::other_value_rate, nullptr},
    {"numeric_use_rate", &AttributeMetrics::numeric_use_rate, nullptr},
    {"preference_entropy_shifted_biased", &AttributeMetrics::preference_entropy_shifted_biased, nullptr},
};

// The other fields, by registry id.
struct JsonField {
  std::string_view id;
  nlohmann::ordered_json (*read)(const AttributeMetrics&);
};

nlohmann::ordered_json group_values(const std::vector<std::pair<std::string, double>>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [group, value] : values) {
    out[group] = std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
  }
  return out;
}

constexpr JsonField kJsonFields[] = {
    {"preferred_group",
     [](const AttributeMetrics& m) {
       return m.preferred_group ? nlohmann::ordered_json(*m.preferred_group) : nlohmann::ordered_json(nullptr);
     }},
    {"preferred_groups", [](const AttributeMetrics& m) { return nlohmann::ordered_json(m.preferred_groups); }},
    {"preference_votes", [](const AttributeMetrics& m) { return group_values(m.preference_votes); }},
    {"group_points", [](const AttributeMetrics& m) { return group_values(m.group_points); }},
};

const NumericField* numeric_field(std::string_view id) {
  for (const auto& field : kNumericFields) {
    if (field.id == id) return &field;
  }
  return nullptr;
}

const JsonField* json_field(std::string_view id) {
  for (const auto& field : kJsonFields) {
    if (field.id == id) return &field;
  }
  return nullptr;
}

}  // namespace

MetricRegistry MetricRegistry::parse(std::string_view json_text) {
  const auto root = nlohmann::json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw std::invalid_argument("metrics.json: not a JSON object");
  const auto metrics = root.find("metrics");
  if (metrics == root.end() || !metrics->is_array()) throw std::invalid_argument("metrics.json: no \"metrics\" array");
  MetricRegistry registry;
  for (std::size_t i = 0; i < metrics->size(); ++i) {
    auto metric = metric_from((*metrics)[i], i);
    if (registry.find(metric.id) != nullptr) {
      throw std::invalid_argument("metrics.json: metric \"" + metric.id + "\" listed twice");
    }
    registry.metrics_.push_back(std::move(metric));
  }
  const auto outputs = root.find("outputs");
  if (outputs == root.end() || !outputs->is_object()) throw std::invalid_argument("metrics.json: no \"outputs\" object");
  for (const auto& [name, output] : outputs->items()) {
    if (!output.is_object()) continue;  // "about"
    const std::string where = "outputs." + name;
    OutputColumns columns;
    columns.name = name;
    if (output.contains("digits")) {
      if (!output["digits"].is_number_integer()) throw std::invalid_argument("metrics.json: " + where + ": bad digits");
      columns.digits = output["digits"].get<int>();
    }
    const auto list = output.find("columns");
    if (list == output.end() || !list->is_array()) {
      throw std::invalid_argument("metrics.json: " + where + ": no \"columns\" array");
    }
    for (const auto& column : *list) {
      if (!column.is_string()) throw std::invalid_argument("metrics.json: " + where + ": a column is not a string");
      columns.columns.push_back(column_from(registry, column.get<std::string>(), where));
    }
    registry.outputs_.push_back(std::move(columns));
  }
  return registry;
}

const MetricRegistry& MetricRegistry::builtin() {
  static const MetricRegistry registry = parse(data::builtin_metrics_json());
  return registry;
}

const MetricSpec* MetricRegistry::find(std::string_view id) const {
  for (const auto& metric : metrics_) {
    if (metric.id == id) return &metric;
  }
  return nullptr;
}

std::vector<const MetricSpec*> MetricRegistry::of_task(std::string_view task) const {
  std::vector<const MetricSpec*> out;
  for (const auto& metric : metrics_) {
    if (metric.task == task) out.push_back(&metric);
  }
  return out;
}

const OutputColumns& MetricRegistry::output(std::string_view name) const {
  for (const auto& output : outputs_) {
    if (output.name == name) return output;
  }
  throw std::out_of_range("metrics.json lists no output \"" + std::string(name) + "\"");
}

std::optional<double> metric_value(const AttributeMetrics& m, std::string_view id, MetricColumn::Part part) {
  const auto* field = numeric_field(id);
  if (field == nullptr) throw std::out_of_range("no numeric metric \"" + std::string(id) + "\"");
  if (part == Part::sd) {
    if (field->sd == nullptr) throw std::out_of_range("metric \"" + std::string(id) + "\" has no spread");
    return m.*(field->sd);
  }
  return m.*(field->value);
}

nlohmann::ordered_json metric_json(const AttributeMetrics& m, std::string_view id) {
  if (const auto* field = json_field(id)) return field->read(m);
  const auto value = metric_value(m, id);
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

bool has_metric_value(std::string_view id) { return numeric_field(id) != nullptr; }
bool has_metric_spread(std::string_view id) {
  const auto* field = numeric_field(id);
  return field != nullptr && field->sd != nullptr;
}
bool has_metric_json(std::string_view id) { return numeric_field(id) != nullptr || json_field(id) != nullptr; }

std::vector<std::string_view> attribute_metric_ids() {
  std::vector<std::string_view> ids;
  for (const auto& field : kNumericFields) ids.push_back(field.id);
  for (const auto& field : kJsonFields) ids.push_back(field.id);
  return ids;
}

std::string spread_key(const MetricSpec& metric) { return metric.json_key + "_sd"; }

}  // namespace codebias::metrics
