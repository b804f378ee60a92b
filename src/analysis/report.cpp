// Serialising analysis results: CodeStatus names and the JSON output line (analysis stage).
#include "analysis/report.h"

#include "analysis/report_json.h"

namespace codebias::analysis {

const char* to_string(CodeStatus status) {
  switch (status) {
    case CodeStatus::ok: return "ok";
    case CodeStatus::no_code: return "no_code";
    case CodeStatus::truncated: return "truncated";
    case CodeStatus::unparseable: return "unparseable";
  }
  return "unknown";
}

namespace {

using nlohmann::ordered_json;

ordered_json evidence_json(const Evidence& evidence) {
  ordered_json out = ordered_json::object();
  out["line"] = evidence.line;
  out["text"] = evidence.text;
  out["groups"] = evidence.groups;
  out["amount"] = evidence.amount ? ordered_json(*evidence.amount) : ordered_json(nullptr);
  out["rule"] = evidence.rule;
  return out;
}

ordered_json finding_json(const AttributeFinding& finding) {
  ordered_json out = ordered_json::object();
  out["used"] = finding.used;
  out["biased"] = finding.biased;
  if (finding.scores) {
    ordered_json scores = ordered_json::object();
    for (const auto& [group, points] : *finding.scores) scores[group] = points;
    out["scores"] = std::move(scores);
  } else {
    out["scores"] = nullptr;
  }
  ordered_json other = ordered_json::object();
  for (const auto& [value, points] : finding.other_values) other[value] = points;
  out["other_values"] = std::move(other);
  out["effect"] = finding.effect ? ordered_json(*finding.effect) : ordered_json(nullptr);
  ordered_json evidence = ordered_json::array();
  for (const auto& item : finding.evidence) evidence.push_back(evidence_json(item));
  out["evidence"] = std::move(evidence);
  return out;
}

}  // namespace

nlohmann::ordered_json to_json(const ResponseReport& report, std::string_view id) {
  ordered_json out = ordered_json::object();
  out["id"] = std::string(id);
  out["code_status"] = to_string(report.code_status);
  out["language"] = report.language;
  ordered_json attributes = ordered_json::object();
  for (const auto& finding : report.attributes) attributes[finding.attribute] = finding_json(finding);
  out["attributes"] = std::move(attributes);
  return out;
}

std::string dump_json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace codebias::analysis
