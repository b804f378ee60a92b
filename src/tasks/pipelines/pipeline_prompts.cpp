#include "tasks/pipelines/pipeline_prompts.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "prompts/prompt_metadata.h"
#include "prompts/shuffle.h"
#include "suites/template_text.h"
#include "tasks/pipelines/pipelines_suite.h"

namespace codebias::prompts {

namespace {

using nlohmann::json;
using suites::AttributeSet;
using suites::ColumnLayout;
using suites::ColumnRole;
using suites::ColumnType;
using suites::Dataset;
using suites::DatasetColumn;
using suites::PipelineLevel;
using suites::PipelinesPart;
using suites::RequestTemplate;
using suites::Suite;

using base::join;

constexpr std::string_view kTask = "ml-pipeline";
constexpr std::string_view kConditional = "conditional";
constexpr std::string_view kPipeline = "pipeline";
constexpr std::string_view kNoMitigation = "none";
constexpr int kCsvSampleRows = 3;

void require_known(std::string_view what, const std::string& value, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), value) == known.end()) {
    throw std::invalid_argument(std::string(what) + " '" + value + "' is not one of: " + join(known, ", "));
  }
}

bool wanted(const std::vector<std::string>& selected, const std::string& name) {
  return std::find(selected.begin(), selected.end(), name) != selected.end();
}

template <typename T>
std::vector<std::string> names_of(const std::vector<T>& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  return names;
}

// "a", "a or b", "a, b or c" (`last` joins the last two).
std::string spoken_list(const std::vector<std::string>& items, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? std::string(" ") + std::string(last) + " " : ", ";
    out += items[i];
  }
  return out;
}

std::string quoted(const std::string& text) { return json(text).dump(); }

// The dataset's task sentence as a clause: "Decide whether X." -> "decide whether X".
std::string task_clause(std::string sentence) {
  while (!sentence.empty() && (sentence.back() == '.' || sentence.back() == ' ')) sentence.pop_back();
  if (!sentence.empty() && sentence[0] >= 'A' && sentence[0] <= 'Z') sentence[0] = static_cast<char>(sentence[0] - 'A' + 'a');
  return sentence;
}

std::string target_values_text(const suites::DatasetTarget& target) {
  std::vector<std::string> shown;
  for (const auto& value : target.values) shown.push_back(target.integer_values ? value : quoted(value));
  return spoken_list(shown, "or");
}

json target_values_json(const suites::DatasetTarget& target) {
  json values = json::array();
  for (const auto& value : target.values) {
    values.push_back(target.integer_values ? json(std::stoll(value)) : json(value));
  }
  return values;
}

// Range ends as a reader expects them: "4" for an integer column, "1.5" / "100.0" for a float
// one (nlohmann's shortest round-trip form, the same on every platform).
json range_end(const DatasetColumn& column, double value) {
  if (column.type == ColumnType::integer) return json(static_cast<std::int64_t>(value));
  return json(value);
}

std::string bullet_line(const DatasetColumn& column) {
  std::string line = "- `" + column.name + "` (" + std::string(suites::to_string(column.type));
  if (column.type == ColumnType::categorical) {
    std::vector<std::string> values;
    for (const auto& value : column.values) values.push_back(quoted(value));
    line += ": " + join(values, ", ");
  } else {
    line += ", " + range_end(column, column.range->low).dump() + " to " + range_end(column, column.range->high).dump();
    if (!column.unit.empty()) line += " " + column.unit;
  }
  line += ")";
  if (!column.description.empty()) line += ": " + column.description;
  return line;
}

// One property per line keeps a 20-column schema readable.
std::string json_schema(const std::vector<const DatasetColumn*>& columns) {
  std::string text = "```json\n{\n  \"type\": \"object\",\n  \"properties\": {\n";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const DatasetColumn& column = *columns[i];
    nlohmann::ordered_json property;
    if (column.type == ColumnType::categorical) {
      property["type"] = "string";
      property["enum"] = column.values;
    } else {
      property["type"] = column.type == ColumnType::integer ? "integer" : "number";
      property["minimum"] = range_end(column, column.range->low);
      property["maximum"] = range_end(column, column.range->high);
      if (!column.unit.empty()) property["unit"] = column.unit;
    }
    if (!column.description.empty()) property["description"] = column.description;
    text += "    " + quoted(column.name) + ": " + property.dump() + (i + 1 < columns.size() ? ",\n" : "\n");
  }
  return text + "  }\n}\n```";
}

std::string csv_field(const std::string& value) {
  const bool plain = value.find_first_of(",\"\n") == std::string::npos && !value.empty() && value.front() != ' ' &&
                     value.back() != ' ';
  if (plain) return value;
  std::string out = "\"";
  for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A value drawn uniformly from the column's values or range; floats with 2 decimals on narrow
// ranges (GPA), 1 on wide ones (percentages), drawn as integers so every platform prints the same.
std::string sample_value(const DatasetColumn& column, SplitMix64& rng) {
  if (column.type == ColumnType::categorical) return column.values[rng.below(column.values.size())];
  const auto low = column.range->low;
  const auto high = column.range->high;
  if (column.type == ColumnType::integer) {
    const auto first = static_cast<std::int64_t>(low);
    const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - first) + 1;
    return std::to_string(first + static_cast<std::int64_t>(rng.below(span)));
  }
  const int decimals = high - low <= 10 ? 2 : 1;
  const std::int64_t scale = decimals == 2 ? 100 : 10;
  const auto first = static_cast<std::int64_t>(std::llround(low * static_cast<double>(scale)));
  const auto last = static_cast<std::int64_t>(std::llround(high * static_cast<double>(scale)));
  const std::int64_t drawn = first + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(last - first) + 1));
  const std::int64_t magnitude = std::llabs(drawn);
  std::string fraction = std::to_string(magnitude % scale);
  fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
  return (drawn < 0 ? "-" : "") + std::to_string(magnitude / scale) + "." + fraction;
}

// The CSV header (the target last, as a label column usually is) and a few sample rows.
std::string csv_excerpt(const std::vector<const DatasetColumn*>& columns, const Dataset& dataset, SplitMix64& rng) {
  std::vector<std::string> header;
  for (const auto* column : columns) header.push_back(column->name);
  header.push_back(dataset.target.name);
  std::string text = "```csv\n" + join(header, ",") + "\n";
  for (int row = 0; row < kCsvSampleRows; ++row) {
    std::vector<std::string> fields;
    for (const auto* column : columns) fields.push_back(csv_field(sample_value(*column, rng)));
    fields.push_back(csv_field(dataset.target.values[rng.below(dataset.target.values.size())]));
    text += join(fields, ",") + "\n";
  }
  return text + "```";
}

// One route of the suite: the conditional function, or one level of the pipeline ladder.
struct Route {
  std::string_view path;
  const PipelineLevel* level = nullptr;  // null on the conditional path
  const std::vector<RequestTemplate>* templates = nullptr;

  std::string label() const { return std::string(path) + (level ? "/" + level->name : ""); }
};

class PipelineBuilder {
 public:
  PipelineBuilder(const Suite& suite, const PromptOptions& options) : suite_(suite), options_(options) {
    if (suite.part<PipelinesPart>() == nullptr) {
      throw std::invalid_argument("suite '" + suite.name + "' has no pipelines part (the " + std::string(kTask) +
                                  " task's datasets and templates)");
    }
  }

  std::vector<Prompt> build() {
    check_options();
    for (const Dataset& dataset : part().datasets) {
      if (!options_.scenarios.empty() && !wanted(options_.scenarios, dataset.name)) continue;
      for (const Route& route : routes()) {
        for (const AttributeSet& set : part().attribute_sets) {
          if (!wanted(attribute_sets_, set.name)) continue;
          for (const DatasetColumn* sensitive : sensitive_choices(dataset, set)) {
            for (const std::string& mitigation : mitigations_) {
              for (int variant = 0; variant < variants(route); ++variant) {
                for (int sample = 0; sample < options_.samples; ++sample) {
                  if (options_.limit && prompts_.size() >= *options_.limit) return std::move(prompts_);
                  prompts_.push_back(prompt(dataset, route, set, sensitive, mitigation, variant, sample));
                }
              }
            }
          }
        }
      }
    }
    return std::move(prompts_);
  }

 private:
  const PipelinesPart& part() const { return *suite_.part<PipelinesPart>(); }

  const suites::PromptStyle& style() const {
    if (const auto* found = suite_.find_style(options_.style)) return *found;
    throw std::invalid_argument("style '" + options_.style + "' is not one of: " + join(names_of(suite_.styles), ", "));
  }

  void check_options() {
    if (options_.samples < 1) throw std::invalid_argument("samples must be at least 1");
    if (options_.position != "shuffled") {
      throw std::invalid_argument("position applies to the function and testcase tasks (pipeline prompts always shuffle "
                                  "their columns)");
    }
    if (options_.convention != "faircoder") {
      throw std::invalid_argument("convention applies to the function and testcase tasks");
    }
    if (!options_.requests.empty()) throw std::invalid_argument("requests apply to the testcase task only");
    if (options_.has_name_options()) throw std::invalid_argument("names apply to the resume task only");
    style();
    for (const auto& name : options_.scenarios) require_known("dataset", name, names_of(part().datasets));
    for (const auto& path : options_.paths) require_known("path", path, {std::string(kConditional), std::string(kPipeline)});
    for (const auto& level : options_.levels) require_known("level", level, names_of(part().levels));
    if (!options_.levels.empty() && !options_.paths.empty() && !wanted(options_.paths, std::string(kPipeline))) {
      throw std::invalid_argument("levels apply to the pipeline path");
    }

    attribute_sets_ = options_.attribute_sets;
    if (attribute_sets_.empty()) attribute_sets_ = {part().attribute_sets.front().name};
    for (const auto& name : attribute_sets_) require_known("attribute set", name, names_of(part().attribute_sets));

    // "none" first, then the suite's order, whatever order the options name them in.
    std::vector<std::string> known_mitigations = {std::string(kNoMitigation)};
    for (const auto& mitigation : part().mitigations) known_mitigations.push_back(mitigation.name);
    const std::vector<std::string> requested =
        options_.mitigations.empty() ? std::vector<std::string>{std::string(kNoMitigation)} : options_.mitigations;
    for (const auto& name : requested) require_known("mitigation", name, known_mitigations);
    for (const auto& name : known_mitigations) {
      if (wanted(requested, name)) mitigations_.push_back(name);
    }

    check_attribute_filter();
    if (options_.variants && *options_.variants < 1) throw std::invalid_argument("variants must be at least 1");
    for (const Route& route : routes()) {
      if (options_.variants && static_cast<std::size_t>(*options_.variants) > route.templates->size()) {
        throw std::invalid_argument("variants " + std::to_string(*options_.variants) + " exceeds the " +
                                    std::to_string(route.templates->size()) + " templates of " + route.label());
      }
    }
  }

  // --attribute picks the sensitive column of the one-sensitive sets, by name.
  void check_attribute_filter() const {
    if (options_.attributes.empty()) return;
    const bool one_sensitive_set = std::any_of(part().attribute_sets.begin(), part().attribute_sets.end(),
                                               [&](const AttributeSet& set) { return set.one_sensitive && wanted(attribute_sets_, set.name); });
    if (!one_sensitive_set) {
      throw std::invalid_argument("attributes pick the sensitive column of the sensitive=1 attribute sets; none is selected");
    }
    std::vector<std::string> offered;
    for (const Dataset& dataset : part().datasets) {
      if (!options_.scenarios.empty() && !wanted(options_.scenarios, dataset.name)) continue;
      for (const auto& column : dataset.columns) {
        if (column.role == ColumnRole::sensitive && !wanted(offered, column.name)) offered.push_back(column.name);
      }
    }
    for (const auto& name : options_.attributes) require_known("attribute", name, offered);
  }

  std::vector<Route> routes() const {
    std::vector<Route> routes;
    if (options_.paths.empty() || wanted(options_.paths, std::string(kConditional))) {
      routes.push_back({kConditional, nullptr, &part().conditional});
    }
    if (options_.paths.empty() || wanted(options_.paths, std::string(kPipeline))) {
      for (const PipelineLevel& level : part().levels) {
        if (options_.levels.empty() || wanted(options_.levels, level.name)) routes.push_back({kPipeline, &level, &level.templates});
      }
    }
    return routes;
  }

  int variants(const Route& route) const {
    if (options_.variants) return *options_.variants;
    return static_cast<int>(std::min<std::size_t>(kDefaultPipelineVariants, route.templates->size()));
  }

  // A one-sensitive set makes one prompt per sensitive column (nullptr: the set offers them all).
  std::vector<const DatasetColumn*> sensitive_choices(const Dataset& dataset, const AttributeSet& set) const {
    if (!set.one_sensitive) return {nullptr};
    std::vector<const DatasetColumn*> choices;
    for (const auto& column : dataset.columns) {
      if (column.role == ColumnRole::sensitive && (options_.attributes.empty() || wanted(options_.attributes, column.name))) {
        choices.push_back(&column);
      }
    }
    return choices;
  }

  // The set's columns in the dataset's order. A normal=N set keeps N normal columns drawn per
  // variant, the same N for every sensitive column, so one-sensitive prompts differ only there.
  std::vector<const DatasetColumn*> offered_columns(const Dataset& dataset, const AttributeSet& set,
                                                    const DatasetColumn* sensitive, const std::string& variant_key) const {
    std::vector<std::size_t> normal;
    for (std::size_t i = 0; i < dataset.columns.size(); ++i) {
      if (dataset.columns[i].role == ColumnRole::normal) normal.push_back(i);
    }
    if (set.normal && *set.normal < normal.size()) {
      SplitMix64 rng(prompt_seed(options_.seed, variant_key + "/normal=" + std::to_string(*set.normal)));
      shuffle(normal, rng);
      normal.resize(*set.normal);
      std::sort(normal.begin(), normal.end());
    }
    std::vector<const DatasetColumn*> columns;
    for (std::size_t i = 0; i < dataset.columns.size(); ++i) {
      const DatasetColumn& column = dataset.columns[i];
      const bool keep = column.role == ColumnRole::irrelevant ||
                        (column.role == ColumnRole::normal && std::binary_search(normal.begin(), normal.end(), i)) ||
                        (column.role == ColumnRole::sensitive && (sensitive == nullptr || sensitive == &column));
      if (keep) columns.push_back(&column);
    }
    return columns;
  }

  std::string column_block(const RequestTemplate& request, const std::vector<const DatasetColumn*>& columns,
                           const Dataset& dataset, SplitMix64& rows) const {
    switch (request.columns_as) {
      case ColumnLayout::bullets: {
        std::vector<std::string> lines;
        for (const auto* column : columns) lines.push_back(bullet_line(*column));
        return join(lines, "\n");
      }
      case ColumnLayout::csv: return csv_excerpt(columns, dataset, rows);
      case ColumnLayout::json_schema: return json_schema(columns);
    }
    return {};
  }

  Prompt prompt(const Dataset& dataset, const Route& route, const AttributeSet& set, const DatasetColumn* sensitive,
                const std::string& mitigation_name, int variant, int sample) const {
    const std::string set_id = set.name + (sensitive ? ":" + sensitive->name : "");
    Prompt prompt;
    prompt.id = suite_.name + "/" + dataset.name + "/" + std::string(route.path) + "/" +
                (route.level ? route.level->name : "-") + "/" + set_id + "/" + mitigation_name + "/v" +
                std::to_string(variant) + "/" + std::to_string(sample);

    // Keyed by the variant, not the whole id: the routes, levels and mitigations of a variant see
    // the same columns in the same order and the same estimator, so comparing them is paired.
    const std::string variant_key = suite_.name + "/" + dataset.name + "/v" + std::to_string(variant) + "/" + std::to_string(sample);
    std::vector<const DatasetColumn*> columns = offered_columns(dataset, set, sensitive, variant_key);
    SplitMix64 order(prompt_seed(options_.seed, variant_key + "/columns/" + set_id));
    shuffle(columns, order);
    SplitMix64 rows(prompt_seed(options_.seed, variant_key + "/rows/" + set_id));
    SplitMix64 estimator_draw(prompt_seed(options_.seed, variant_key + "/estimator"));
    const std::string& estimator = part().estimators[estimator_draw.below(part().estimators.size())];

    const RequestTemplate& request = (*route.templates)[static_cast<std::size_t>(variant)];
    const std::string function = "decide_" + dataset.target.name;
    const std::string clause = task_clause(dataset.task);
    const std::string values = target_values_text(dataset.target);
    const std::string block = column_block(request, columns, dataset, rows);
    suites::TemplateValues fill = {{"task", dataset.task},
                                   {"task_clause", clause},
                                   {"target", dataset.target.name},
                                   {"target_values", values},
                                   {"return_type", dataset.target.integer_values ? "int" : "str"},
                                   {"columns", block},
                                   {"subject", dataset.subject},
                                   {"dataset", dataset.name},
                                   {"domain", dataset.domain}};
    fill.emplace_back(route.level ? "estimator" : "function", route.level ? std::string_view(estimator) : std::string_view(function));
    std::string user = suites::fill_template(request.text, fill);
    if (!style().instruction.empty()) user += "\n\n" + style().instruction;
    if (mitigation_name != kNoMitigation) {
      std::vector<std::string> sensitive_names;
      for (const auto* column : columns) {
        if (column->role == ColumnRole::sensitive) sensitive_names.push_back("`" + column->name + "`");
      }
      const std::string names = spoken_list(sensitive_names, "and");
      user += "\n\n" + suites::fill_template(part().find_mitigation(mitigation_name)->text, {{"sensitive_names", names}});
    }
    prompt.messages = {{"system", style().system.empty() ? part().system : style().system}, {"user", std::move(user)}};

    json column_list = json::array();
    for (const auto* column : columns) {
      json entry = {{"name", column->name},
                    {"role", suites::to_string(column->role)},
                    {"type", suites::to_string(column->type)}};
      // The value domain the prompt shows: what synthetic data for --execute is drawn from.
      if (!column->values.empty()) entry["values"] = column->values;
      if (column->range) entry["range"] = {column->range->low, column->range->high};
      column_list.push_back(std::move(entry));
    }
    PromptMetadata metadata;
    metadata.suite = suite_.name;
    metadata.task = kTask;
    metadata.mitigation = mitigation_name;
    // A conditional prompt asks for a named function; a pipeline prompt names none (null).
    if (!route.level) metadata.function = function;
    metadata.extra = json{{"style", options_.style},
                           {"sample", sample},
                           {"seed", options_.seed},
                           {"dataset", dataset.name},
                           {"path", route.path},
                           {"level", route.level ? json(route.level->name) : json(nullptr)},
                           {"estimator", route.level ? json(estimator) : json(nullptr)},
                           {"variant", variant},
                           {"attribute_set", set.name},
                           {"target", dataset.target.name},
                           {"target_values", target_values_json(dataset.target)},
                           {"columns", std::move(column_list)}};
    if (route.level) metadata.extra["function"] = nullptr;
    prompt.metadata = metadata.to_json();
    return prompt;
  }

  const Suite& suite_;
  const PromptOptions& options_;
  std::vector<std::string> attribute_sets_;
  std::vector<std::string> mitigations_;
  std::vector<Prompt> prompts_;
};

}  // namespace

std::vector<Prompt> build_pipeline_prompts(const suites::Suite& suite, const PromptOptions& options) {
  return PipelineBuilder(suite, options).build();
}

}  // namespace codebias::prompts
