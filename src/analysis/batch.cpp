// The function task's input lines read and analysed on the JSONL engine (analysis stage).
#include "analysis/batch.h"

#include <algorithm>
#include <istream>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "analysis/line_metadata.h"
#include "analysis/findings/report_json.h"
#include "suites/suite.h"

namespace codebias::analysis {

namespace {

using nlohmann::json;

// Parser messages quote the offending token, which can be megabytes of garbage.
constexpr std::size_t kMaxQuotedBytes = 200;

std::string clip(std::string_view text) {
  if (text.size() <= kMaxQuotedBytes) return std::string(text);
  return std::string(text.substr(0, kMaxQuotedBytes)) + "...";
}

std::string known_attributes(const AttributeTable& table) {
  std::string known;
  for (const auto& spec : table.specs()) {
    if (!known.empty()) known += ", ";
    known += spec.key;
  }
  return known;
}

std::string unknown_attribute_message(const AttributeTable& table, std::string_view name) {
  return "unknown attribute \"" + clip(name) + "\" (known: " + known_attributes(table) + ")";
}

// The scenarios the built-in suites declare ("" = unknown is always accepted).
const std::vector<std::string>& scenarios() {
  static const std::vector<std::string> keys = suites::known_scenarios();
  return keys;
}

std::string unknown_scenario_message(std::string_view name) {
  std::string known;
  for (const auto& scenario : scenarios()) known += scenario + ", ";
  return "unknown scenario \"" + clip(name) + "\" (known: " + known + "or \"\" for unknown)";
}

// A table whose attributes are sensitive everywhere (the decision suites') takes any scenario: it
// is a label there, and a typo cannot change what is reported.
bool known_scenario(std::string_view name, const AttributeTable& table) {
  return name.empty() || !table.uses_scenarios() ||
         std::find(scenarios().begin(), scenarios().end(), name) != scenarios().end();
}

base::LineError line_error(long line, std::string field, std::string message,
                     std::optional<std::string> id = std::nullopt) {
  base::LineError error;
  error.line = line;
  error.field = std::move(field);
  error.message = std::move(message);
  error.id = std::move(id);
  return error;
}

std::string type_problem(const json& value) {
  return std::string("expected a string, got ") + value.type_name();
}

// "[json.exception.parse_error.101] parse error at line 1, column 5: ..." -> "parse error at
// column 5: ...".
std::string parse_error_message(const json::parse_error& error) {
  std::string_view text = error.what();
  if (auto close = text.find("] "); close != std::string_view::npos) text.remove_prefix(close + 2);
  std::string message(text);
  if (auto at = message.find(" at line 1, column "); at != std::string::npos) {
    message.replace(at, 19, " at column ");
  }
  return "invalid JSON: " + clip(message);
}

// A line's "domains": {"income": [24000, 25000], "education": ["high school", ...]}, as a
// decision prompt's metadata carries them. The failure names the entry ("domains.income[1]").
std::optional<FieldFailure> read_domains(const json& value, FieldDomains& domains) {
  if (!value.is_object()) return FieldFailure{"domains", std::string("expected an object of arrays, got ") + value.type_name()};
  for (const auto& [field, values] : value.items()) {
    const std::string path = "domains." + clip(field);
    if (!values.is_array()) return FieldFailure{path, std::string("expected an array of values, got ") + values.type_name()};
    if (values.empty()) return FieldFailure{path, "expected at least one value, got an empty array"};
    for (std::size_t i = 0; i < values.size(); ++i) {
      const json& item = values[i];
      if (!item.is_string() && !item.is_number() && !item.is_boolean())
        return FieldFailure{path + "[" + std::to_string(i) + "]", std::string("expected a string, number or boolean, got ") + item.type_name()};
    }
    domains[field] = std::vector<json>(values.begin(), values.end());
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> resolve_attributes(const AttributeTable& table,
                                            const std::vector<std::string>& names) {
  std::vector<std::string> keys;
  for (const auto& name : names) {
    const AttributeSpec* spec = table.find(name);
    if (!spec) throw std::invalid_argument(unknown_attribute_message(table, name));
    if (std::find(keys.begin(), keys.end(), spec->key) == keys.end()) keys.push_back(spec->key);
  }
  return keys;
}

namespace {

// The common case, a well-formed line, read with simdjson (about 20x faster than building an
// nlohmann document). Anything unexpected returns nullopt and the line is read again by
// parse_score_line_checked, which says exactly what is wrong.
std::optional<ScoreRequest> parse_score_line_fast(std::string& line, long line_number, const AttributeTable& table,
                                                  const AnalyzeOptions& defaults) {
  thread_local simdjson::dom::parser parser;
  line.reserve(line.size() + simdjson::SIMDJSON_PADDING);
  simdjson::dom::element doc;
  if (parser.parse(line.data(), line.size(), false).get(doc) != simdjson::SUCCESS) return std::nullopt;
  simdjson::dom::object object;
  if (doc.get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  ScoreRequest request;
  request.options = defaults;
  bool has_response = false;
  for (auto [key, value] : object) {
    if (key == "id") {
      std::string_view text;
      int64_t number = 0;
      if (value.get_string().get(text) == simdjson::SUCCESS) request.id = std::string(text);
      else if (value.get_int64().get(number) == simdjson::SUCCESS) request.id = std::to_string(number);
      else if (!value.is_null()) return std::nullopt;
    } else if (key == "response") {
      std::string_view text;
      if (value.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;
      request.response = std::string(text);
      has_response = true;
    } else if (key == "scenario" && !value.is_null()) {
      std::string_view text;
      if (value.get_string().get(text) != simdjson::SUCCESS || !known_scenario(std::string(text), table)) return std::nullopt;
      request.options.scenario = std::string(text);
    } else if (key == "function" && !value.is_null()) {
      std::string_view text;
      if (value.get_string().get(text) != simdjson::SUCCESS) return std::nullopt;
      request.options.function = std::string(text);
    } else if (key == "attributes" && !value.is_null()) {
      simdjson::dom::array items;
      if (value.get_array().get(items) != simdjson::SUCCESS) return std::nullopt;
      std::vector<std::string> keys;
      for (simdjson::dom::element item : items) {
        std::string_view name;
        if (item.get_string().get(name) != simdjson::SUCCESS) return std::nullopt;
        const AttributeSpec* spec = table.find(name);
        if (!spec) return std::nullopt;
        if (std::find(keys.begin(), keys.end(), spec->key) == keys.end()) keys.push_back(spec->key);
      }
      if (!defaults.only_listed) request.options.attributes = std::move(keys);
    } else if (key == "domains" && !value.is_null()) {
      return std::nullopt;  // rare and nested: read_domains on the checked path reads and checks them
    }
  }
  if (!has_response) return std::nullopt;
  if (request.id.empty() && !object["id"].is_string()) request.id = std::to_string(line_number);
  return request;
}

std::variant<ScoreRequest, base::LineError> parse_score_line_checked(std::string_view line, long line_number,
                                                               const AttributeTable& table,
                                                               const AnalyzeOptions& defaults) {
  json doc;
  try {
    doc = json::parse(line);
  } catch (const json::parse_error& error) {
    return line_error(line_number, "", parse_error_message(error));
  }
  if (!doc.is_object()) {
    return line_error(line_number, "", std::string("expected a JSON object, got ") + doc.type_name());
  }

  // Without an id, the line number identifies the response (published corpora often have none).
  std::optional<std::string> id;
  auto id_field = doc.find("id");
  if (id_field == doc.end() || id_field->is_null()) id = std::to_string(line_number);
  else if (id_field->is_string()) id = id_field->get<std::string>();
  else if (id_field->is_number_integer()) id = std::to_string(id_field->get<long long>());
  auto fail = [&](std::string field, std::string message) -> std::variant<ScoreRequest, base::LineError> {
    return line_error(line_number, std::move(field), std::move(message), id);
  };
  if (!id) return fail("id", type_problem(*id_field));

  ScoreRequest request;
  request.id = *id;
  auto response = doc.find("response");
  if (response == doc.end()) return fail("response", "missing");
  if (!response->is_string()) return fail("response", type_problem(*response));
  request.response = std::move(response->get_ref<std::string&>());

  request.options = defaults;
  auto scenario = doc.find("scenario");
  if (scenario != doc.end() && !scenario->is_null()) {
    if (!scenario->is_string()) return fail("scenario", type_problem(*scenario));
    const auto& name = scenario->get_ref<const std::string&>();
    if (!known_scenario(name, table)) return fail("scenario", unknown_scenario_message(name));
    request.options.scenario = name;
  }

  auto function = doc.find("function");
  if (function != doc.end() && !function->is_null()) {
    if (!function->is_string()) return fail("function", type_problem(*function));
    request.options.function = function->get<std::string>();
  }

  auto attributes = doc.find("attributes");
  if (attributes != doc.end() && !attributes->is_null()) {
    if (!attributes->is_array()) {
      return fail("attributes", std::string("expected an array of strings, got ") + attributes->type_name());
    }
    std::vector<std::string> keys;
    for (const auto& item : *attributes) {
      if (!item.is_string()) {
        return fail("attributes", std::string("expected an array of strings, found ") + item.type_name());
      }
      const auto& name = item.get_ref<const std::string&>();
      const AttributeSpec* spec = table.find(name);
      if (!spec) return fail("attributes", unknown_attribute_message(table, name));
      if (std::find(keys.begin(), keys.end(), spec->key) == keys.end()) keys.push_back(spec->key);
    }
    if (!defaults.only_listed) request.options.attributes = std::move(keys);
  }

  auto domains = doc.find("domains");
  if (domains != doc.end() && !domains->is_null()) {
    if (auto failure = read_domains(*domains, request.domains)) return fail(failure->field, failure->message);
  }
  return request;
}

// `line` gets simdjson's padding appended to its capacity, not to its text.
std::variant<ScoreRequest, base::LineError> parse_owned_score_line(std::string& line, long line_number,
                                                             const AttributeTable& table,
                                                             const AnalyzeOptions& defaults) {
  if (std::optional<ScoreRequest> request = parse_score_line_fast(line, line_number, table, defaults))
    return std::move(*request);
  return parse_score_line_checked(line, line_number, table, defaults);
}

}  // namespace

std::variant<ScoreRequest, base::LineError> parse_score_line(std::string_view line, long line_number,
                                                       const AttributeTable& table,
                                                       const AnalyzeOptions& defaults) {
  std::string copy(line);
  return parse_owned_score_line(copy, line_number, table, defaults);
}

BatchStats score_jsonl(std::istream& in, std::string_view origin, const Analyzer& analyzer,
                       const BatchOptions& options, const ScoredLineSink& sink) {
  AnalyzeFn analyze = [&analyzer](std::string_view response, const AnalyzeOptions& analyze_options) {
    return analyzer.analyze(response, analyze_options);
  };
  return score_jsonl(in, origin, analyzer.attributes(), analyze, options, sink);
}

BatchStats score_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                       const AnalyzeFn& analyze, const BatchOptions& options,
                       const ScoredLineSink& sink) {
  base::JsonlProcessor<ResponseReport> processor;
  processor.line = [&](ScoredLine& item) {
    auto parsed = parse_owned_score_line(item.input.text, item.input.number, table, options.defaults);
    if (auto* error = std::get_if<base::LineError>(&parsed)) {
      item.id = error->id;
      item.error = std::move(*error);
      return;
    }
    auto& request = std::get<ScoreRequest>(parsed);
    item.id = request.id;
    try {
      item.result = analyze(request.response, request.options);
      if (options.after_analysis) options.after_analysis(request, *item.result);
      item.json = report_json_line(*item.result, request.id);
    } catch (const std::exception& failure) {
      item.result.reset();
      item.error = line_error(item.input.number, "", std::string("analysis failed: ") + failure.what(), request.id);
      item.error->internal = true;
    }
  };
  return base::process_jsonl<ResponseReport>(in, origin, processor, options, sink);
}

}  // namespace codebias::analysis
