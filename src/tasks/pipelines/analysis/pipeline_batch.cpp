#include "tasks/pipelines/analysis/pipeline_batch.h"

#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "tasks/pipelines/analysis/pipeline_analysis.h"
#include "analysis/line_metadata.h"
#include "analysis/findings/report_json.h"

namespace codebias::analysis::pipelines {
namespace {

using nlohmann::json;





std::optional<FieldFailure> read_column(const json& value, const std::string& path, Column& column) {
  if (!value.is_object()) return FieldFailure{path, expected_type("an object", value)};
  for (const char* key : {"name", "role", "type"}) {
    auto it = value.find(key);
    if (it == value.end() || it->is_null()) return FieldFailure{path + "." + key, "missing"};
    if (!it->is_string()) return FieldFailure{path + "." + key, expected_type("a string", *it)};
  }
  column.name = value["name"].get<std::string>();
  if (column.name.empty()) return FieldFailure{path + ".name", "empty"};
  const std::string role = value["role"].get<std::string>(), type = value["type"].get<std::string>();
  auto r = role_from_string(role);
  if (!r) return FieldFailure{path + ".role", "expected \"normal\", \"sensitive\" or \"irrelevant\", got \"" + role + "\""};
  auto t = type_from_string(type);
  if (!t) return FieldFailure{path + ".type", "expected \"categorical\", \"integer\" or \"float\", got \"" + type + "\""};
  column.role = *r;
  column.type = *t;
  return std::nullopt;
}

std::optional<FieldFailure> read_request(const json& doc, PipelineRequest& r) {
  const LineMetadata meta(doc);
  std::string task, path_text, path;
  if (auto f = read_string(meta, "task", false, task)) return f;
  if (!task.empty() && task != "ml-pipeline") {
    meta.find("task", path);
    return FieldFailure{path, "expected \"ml-pipeline\", got \"" + task + "\""};
  }
  if (auto f = read_string(meta, "path", true, path_text)) return f;
  auto p = path_from_string(path_text);
  if (!p) {
    meta.find("path", path);
    return FieldFailure{path, "expected \"conditional\" or \"pipeline\", got \"" + path_text + "\""};
  }
  r.path = *p;
  if (auto f = read_string(meta, "target", true, r.target)) return f;
  if (r.target.empty()) {
    meta.find("target", path);
    return FieldFailure{path, "empty"};
  }
  if (const json* values = meta.find("target_values", path)) {
    if (!values->is_array()) return FieldFailure{path, expected_type("an array of strings", *values)};
    for (std::size_t i = 0; i < values->size(); ++i) {
      const json& v = (*values)[i];
      // Labels are strings or numbers (COMPAS's two_year_recid is 0/1).
      if (v.is_string()) r.target_values.push_back(v.get<std::string>());
      else if (v.is_number()) r.target_values.push_back(v.dump());
      else return FieldFailure{path + "[" + std::to_string(i) + "]", expected_type("a string or a number", v)};
    }
  }
  const json* columns = meta.find("columns", path);
  if (columns == nullptr) return FieldFailure{path, "missing"};
  if (!columns->is_array()) return FieldFailure{path, expected_type("an array of columns", *columns)};
  if (columns->empty()) return FieldFailure{path, "empty"};
  if (columns->size() > kMaxColumns) return FieldFailure{path, "more than " + std::to_string(kMaxColumns) + " columns"};
  std::set<std::string> names;
  for (std::size_t i = 0; i < columns->size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    Column column;
    if (auto f = read_column((*columns)[i], at, column)) return f;
    if (!names.insert(column.name).second) return FieldFailure{at + ".name", "duplicate column \"" + column.name + "\""};
    if (column.name == r.target) return FieldFailure{at + ".name", "the target \"" + r.target + "\" is not a column"};
    r.columns.push_back(std::move(column));
  }
  return read_string(meta, "function", false, r.function);
}

}  // namespace

std::variant<PipelineLine, base::LineError> parse_pipeline_line(std::string_view line, long line_number) {
  base::LineError error;
  error.line = line_number;
  json doc = json::parse(line, nullptr, false);
  if (doc.is_discarded()) {
    error.message = "invalid JSON";
    return error;
  }
  if (!doc.is_object()) {
    error.message = expected_type("a JSON object", doc);
    return error;
  }
  PipelineLine out;
  if (auto failure = read_id_and_response(doc, line_number, out.id, out.response)) {
    error.id = out.id;
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  error.id = out.id;
  if (auto failure = read_request(doc, out.request)) {
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  const auto nested = doc.find("metadata");
  if (nested != doc.end() && nested->is_object()) {
    out.metadata = std::move(*nested);
  } else {
    doc.erase("response");
    out.metadata = std::move(doc);
  }
  return out;
}

BatchStats score_pipeline_jsonl(std::istream& in, std::string_view origin, const base::JsonlOptions& options,
                                const PipelineSink& sink) {
  base::JsonlProcessor<PipelineResult> processor;
  processor.line = [](PipelineScored& item) {
    auto parsed = parse_pipeline_line(item.input.text, item.input.number);
    if (auto* error = std::get_if<base::LineError>(&parsed)) {
      item.id = error->id;
      item.error = std::move(*error);
      return;
    }
    auto& input = std::get<PipelineLine>(parsed);
    item.id = input.id;
    item.result = PipelineResult{analyze_pipeline(input.response, input.request), std::move(input.metadata)};
    item.json = dump_json_line(to_json(item.result->report, input.id));
  };
  return base::process_jsonl<PipelineResult>(in, origin, processor, options, sink);
}

}  // namespace codebias::analysis::pipelines
