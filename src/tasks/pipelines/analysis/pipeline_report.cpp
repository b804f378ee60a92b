#include "tasks/pipelines/analysis/pipeline_report.h"

namespace codebias::analysis::pipelines {

const PipelineAttribute* PipelineReport::find(std::string_view name) const {
  for (const PipelineAttribute& attribute : attributes)
    if (attribute.name == name) return &attribute;
  return nullptr;
}

nlohmann::ordered_json to_json(const PipelineReport& report, std::string_view id) {
  using ojson = nlohmann::ordered_json;
  ojson out;
  out["id"] = std::string(id);
  out["task"] = "ml-pipeline";
  out["path"] = to_string(report.path);
  out["code_status"] = to_string(report.code_status);
  out["language"] = report.language;
  out["features"] = report.features ? ojson(*report.features) : ojson(nullptr);
  out["features_reason"] = report.features_reason ? ojson(*report.features_reason) : ojson(nullptr);
  ojson attributes = ojson::object();
  for (const PipelineAttribute& attribute : report.attributes) {
    ojson entry;
    entry["role"] = to_string(attribute.role);
    entry["used"] = attribute.used ? ojson(*attribute.used) : ojson(nullptr);
    ojson evidence = ojson::array();
    for (const PipelineEvidence& e : attribute.evidence)
      evidence.push_back(ojson{{"line", e.line}, {"text", e.text}, {"rule", e.rule}});
    entry["evidence"] = std::move(evidence);
    attributes[attribute.name] = std::move(entry);
  }
  out["attributes"] = std::move(attributes);
  return out;
}

}  // namespace codebias::analysis::pipelines
