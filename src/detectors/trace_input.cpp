#include "detectors/trace_input.h"

#include <nlohmann/json.hpp>

#include "analysis/line_metadata.h"
#include "base/reasoning_split.h"

namespace codebias::detectors {
namespace {

using analysis::FieldFailure;
using nlohmann::json;

std::optional<FieldFailure> read_trace(const json& doc, long line_number, const analysis::AttributeTable& table, Trace& trace) {
  auto id = doc.find("id");
  if (id == doc.end() || id->is_null()) trace.id = std::to_string(line_number);
  else if (id->is_string()) trace.id = id->get<std::string>();
  else if (id->is_number_integer()) trace.id = std::to_string(id->get<long long>());
  else return FieldFailure{"id", analysis::expected_type("a string", *id)};

  const analysis::LineMetadata meta(doc);
  const bool has_reasoning = doc.contains("reasoning") && !doc["reasoning"].is_null();
  const bool has_response = doc.contains("response") && !doc["response"].is_null();
  if (has_reasoning && has_response) return FieldFailure{"response", "give either reasoning or response, not both"};
  if (!has_reasoning && !has_response) return FieldFailure{"reasoning", "missing (give reasoning, or a whole response)"};
  const char* key = has_reasoning ? "reasoning" : "response";
  if (!doc[key].is_string()) return FieldFailure{key, analysis::expected_type("a string", doc[key])};
  const std::string text = doc[key].get<std::string>();
  // A whole response: its trace as generation splits it off (every <think> block).
  trace.reasoning = has_reasoning ? text : split_reasoning(text, {ThinkTags::every_block, false}).reasoning;

  if (auto failure = analysis::read_string(meta, "scenario", false, trace.scenario)) return failure;
  if (!trace.scenario.empty() && trace.scenario != "job" && trace.scenario != "edu" && trace.scenario != "med")
    return FieldFailure{meta.path("scenario"), "expected \"job\", \"edu\" or \"med\", got \"" + trace.scenario + "\""};
  std::vector<std::string> attributes;
  if (auto failure = analysis::read_strings(meta, "attributes", false, attributes)) return failure;
  for (const std::string& name : attributes) {
    const analysis::AttributeSpec* spec = table.find(name);
    if (spec == nullptr) return FieldFailure{meta.path("attributes"), "unknown attribute \"" + name + "\""};
    trace.attributes.push_back(spec->key);
  }
  return std::nullopt;
}

template <class Out, class Read>
std::variant<Out, base::LineError> parse_line(std::string_view line, long line_number, Read&& read) {
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
    error.message = analysis::expected_type("a JSON object", doc);
    return error;
  }
  Out out;
  if (auto failure = read(doc, out)) {
    error.field = failure->field;
    error.message = failure->message;
    if (doc.contains("id") && (doc["id"].is_string() || doc["id"].is_number_integer()))
      error.id = doc["id"].is_string() ? doc["id"].get<std::string>() : std::to_string(doc["id"].get<long long>());
    return error;
  }
  return out;
}

}  // namespace

std::variant<Trace, base::LineError> parse_trace_line(std::string_view line, long line_number,
                                                      const analysis::AttributeTable& table) {
  return parse_line<Trace>(line, line_number, [&](const json& doc, Trace& trace) { return read_trace(doc, line_number, table, trace); });
}

std::variant<LabelledTrace, base::LineError> parse_labelled_line(std::string_view line, long line_number,
                                                                 const analysis::AttributeTable& table) {
  return parse_line<LabelledTrace>(line, line_number, [&](const json& doc, LabelledTrace& out) -> std::optional<FieldFailure> {
    if (auto failure = read_trace(doc, line_number, table, out.trace)) return failure;
    const analysis::LineMetadata meta(doc);
    std::string label;
    if (auto failure = analysis::read_string(meta, "label", true, label)) return failure;
    if (label != "biased" && label != "unbiased")
      return FieldFailure{meta.path("label"), "expected \"biased\" or \"unbiased\", got \"" + label + "\""};
    out.biased = label == "biased";
    if (auto failure = analysis::read_string(meta, "model", false, out.model)) return failure;
    return analysis::read_string(meta, "source", false, out.source);
  });
}

std::vector<LabelledTrace> read_labelled_traces(std::istream& in, std::string_view origin,
                                                const analysis::AttributeTable& table) {
  std::vector<LabelledTrace> traces;
  base::LineReader reader(in);
  base::Line line;
  while (reader.next(line)) {
    if (line.too_long) {
      base::LineError error;
      error.line = line.number;
      error.message = base::too_long_message(line, base::kDefaultMaxLineBytes);
      throw base::InputError(origin, std::move(error));
    }
    if (base::is_blank(line.text)) continue;
    auto parsed = parse_labelled_line(line.text, line.number, table);
    if (auto* error = std::get_if<base::LineError>(&parsed)) throw base::InputError(origin, std::move(*error));
    traces.push_back(std::move(std::get<LabelledTrace>(parsed)));
  }
  return traces;
}

}  // namespace codebias::detectors
