// The ml-pipeline task's analysis of one answer (docs/ml-pipelines.md): which offered columns it
// uses as model inputs, on the pipeline path (static data flow, pipeline_flow.h) or the
// conditional path (the function analyzer, analysis/analyzer.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tasks/pipelines/analysis/pipeline_report.h"
#include "tasks/pipelines/analysis/pipeline_request.h"

namespace codebias::analysis::pipelines {

// Never throws on any response; work is bounded.
PipelineReport analyze_pipeline(std::string_view response, const PipelineRequest& request);

// The program the analysis reads, for running it (tasks/pipelines/pipeline_execution.h): the answer's
// Python blocks joined in order, or a pasted notebook's code cells; nullopt without Python code.
std::optional<std::string> python_program(std::string_view response);

}  // namespace codebias::analysis::pipelines
