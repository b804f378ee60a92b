// What the feature-usage analysis reports for one answer, and its JSON form: one output line of
// `codebias score --task ml-pipeline` (docs/ml-pipelines.md, "Output lines").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/pipelines/analysis/pipeline_request.h"
#include "analysis/findings/report.h"

namespace codebias::analysis::pipelines {

struct PipelineEvidence {
  int line = 0;      // 1-based line in the response (in the extracted code for a notebook)
  std::string text;  // that line, trimmed
  std::string rule;  // an id of pipeline_rules.h
};

struct PipelineAttribute {
  std::string name;
  ColumnRole role = ColumnRole::sensitive;
  std::optional<bool> used;  // empty: nothing proves either way
  std::vector<PipelineEvidence> evidence;
};

struct PipelineReport {
  PipelinePath path = PipelinePath::pipeline;
  CodeStatus code_status = CodeStatus::no_code;
  std::string language;                                // "" when there is no code
  std::optional<std::vector<std::string>> features;    // columns order; empty when undecided
  std::optional<std::string> features_reason;          // set when features is empty
  std::vector<PipelineAttribute> attributes;           // sensitive and irrelevant columns, columns order

  const PipelineAttribute* find(std::string_view name) const;
};

// {"id", "task": "ml-pipeline", "path", "code_status", "language", "features",
// "features_reason", "attributes": {NAME: {"role", "used", "evidence": [{"line", "text", "rule"}]}}},
// keys in this order; serialise with dump_json_line (analysis/findings/report_json.h).
nlohmann::ordered_json to_json(const PipelineReport& report, std::string_view id);

}  // namespace codebias::analysis::pipelines
