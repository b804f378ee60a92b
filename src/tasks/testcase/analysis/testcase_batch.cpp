#include "tasks/testcase/analysis/testcase_batch.h"

#include <nlohmann/json.hpp>

#include "analysis/line_metadata.h"
#include "analysis/findings/report_json.h"
#include "base/jsonl.h"

namespace codebias::analysis {
namespace {

using nlohmann::json;






std::optional<FieldFailure> read_request(const json& doc, const AttributeTable& table, TestcaseRequest& r) {
  const LineMetadata meta(doc);
  std::string task;
  if (auto f = read_string(meta, "task", false, task)) return f;
  if (!task.empty() && task != "testcase") return FieldFailure{meta.path("task"), "expected \"testcase\", got \"" + task + "\""};
  if (auto f = read_string(meta, "topic", true, r.topic)) return f;
  if (r.topic.empty()) return FieldFailure{meta.path("topic"), "empty"};
  if (auto f = read_string(meta, "category", false, r.category)) return f;
  if (auto f = read_string(meta, "variant", false, r.variant)) return f;
  if (auto f = read_string(meta, "request", true, r.request)) return f;
  if (r.request != "group" && r.request != "counterfactual")
    return FieldFailure{meta.path("request"), "expected \"group\" or \"counterfactual\", got \"" + r.request + "\""};
  if (auto f = read_strings(meta, "fields", true, r.fields)) return f;
  if (auto f = read_strings(meta, "struct_fields", false, r.struct_fields)) return f;
  std::vector<std::string> sensitive;
  if (auto f = read_strings(meta, "sensitive_fields", true, sensitive)) return f;
  for (const std::string& name : sensitive) {
    const AttributeSpec* spec = table.find(name);
    if (spec == nullptr) return FieldFailure{meta.path("sensitive_fields"), "unknown attribute \"" + name + "\""};
    r.sensitive_fields.push_back(spec->key);
  }
  if (!r.counterfactual()) return std::nullopt;
  std::string attribute, given;
  if (auto f = read_string(meta, "attribute", true, attribute)) return f;
  const AttributeSpec* spec = table.find(attribute);
  if (spec == nullptr) return FieldFailure{meta.path("attribute"), "unknown attribute \"" + attribute + "\""};
  r.attribute = spec->key;
  if (auto f = read_string(meta, "given_group", true, given)) return f;
  const int group = spec->group_of(given);
  if (group < 0) return FieldFailure{meta.path("given_group"), "\"" + given + "\" is not a group of " + spec->key};
  r.given_group = spec->groups[static_cast<std::size_t>(group)].name;
  return std::nullopt;
}

}  // namespace

std::variant<TestcaseLine, base::LineError> parse_testcase_line(std::string_view line, long line_number,
                                                          const AttributeTable& table) {
  base::LineError error;
  error.line = line_number;
  json doc;
  try {
    doc = json::parse(line);
  } catch (const json::parse_error& e) {
    error.message = std::string("invalid JSON: ") + e.what();
    return error;
  }
  if (!doc.is_object()) {
    error.message = expected_type("a JSON object", doc);
    return error;
  }
  TestcaseLine out;
  if (auto failure = read_id_and_response(doc, line_number, out.id, out.response)) {
    error.id = out.id;
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  error.id = out.id;
  if (auto failure = read_request(doc, table, out.request)) {
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  return out;
}

BatchStats score_testcase_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                                const base::JsonlOptions& options, const TestcaseSink& sink) {
  base::JsonlProcessor<TestcaseReport> processor;
  processor.line = [&](TestcaseScored& item) {
    auto parsed = parse_testcase_line(item.input.text, item.input.number, table);
    if (auto* error = std::get_if<base::LineError>(&parsed)) {
      item.id = error->id;
      item.error = std::move(*error);
      return;
    }
    auto& input = std::get<TestcaseLine>(parsed);
    item.id = input.id;
    item.result = analyze_testcase(input.response, input.request, table);
    item.json = dump_json_line(to_json(*item.result, input.id));
  };
  return base::process_jsonl<TestcaseReport>(in, origin, processor, options, sink);
}

}  // namespace codebias::analysis
