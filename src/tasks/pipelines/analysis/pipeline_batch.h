// The engine of `codebias score --task ml-pipeline`: JSONL lines {"id", "response", "metadata":
// {...}} (or the metadata keys at the top level; docs/ml-pipelines.md) in, one report line per
// input line out, in input order.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <variant>

#include "analysis/batch.h"
#include "tasks/pipelines/analysis/pipeline_report.h"
#include "tasks/pipelines/analysis/pipeline_request.h"
#include "base/jsonl_engine.h"

namespace codebias::analysis::pipelines {

struct PipelineLine {
  std::string id;  // the line number when the line has none
  std::string response;
  PipelineRequest request;
  // The prompt metadata the request was read from (the "metadata" object, or the line without
  // its response): dataset, level, mitigation, ... for the task's summary.
  nlohmann::json metadata;
};

// One analysed line: the report and the metadata it is grouped by.
struct PipelineResult {
  PipelineReport report;
  nlohmann::json metadata;
};

// Never throws on bad input: every problem is a base::LineError naming the field ("metadata.KEY"
// when it was looked up under "metadata"). Checks: path "conditional" | "pipeline"; target a
// non-empty string; target_values, when given, strings or numbers; columns a non-empty array (at most
// kMaxColumns) of {"name", "role", "type"} with known roles and types, names unique and not the
// target; function, when given, a string; task, when given, "ml-pipeline".
std::variant<PipelineLine, base::LineError> parse_pipeline_line(std::string_view line, long line_number);

using PipelineScored = base::JsonlItem<PipelineResult>;
using PipelineSink = std::function<void(PipelineScored&)>;

// Analyses every non-blank line of `in` (`origin` names it in errors) on the JSONL engine and
// hands each result to `sink` in input order. Without keep_going the first bad line throws
// base::InputError (after the sink saw every line before it); with it, a bad line becomes an
// error_json_line.
BatchStats score_pipeline_jsonl(std::istream& in, std::string_view origin, const base::JsonlOptions& options,
                                const PipelineSink& sink);

}  // namespace codebias::analysis::pipelines
