// The ml-pipeline task's analysis of one answer (docs/ml-pipelines.md): which offered columns it
// uses as model inputs, on the pipeline path (static data flow, pipeline_flow.h) or the
// conditional path (the function analyzer, analysis/analyzer.h).
#pragma once

#include <string_view>

#include "analysis/pipelines/pipeline_report.h"
#include "analysis/pipelines/pipeline_request.h"

namespace codebias::analysis::pipelines {

// Never throws on any response; work is bounded.
PipelineReport analyze_pipeline(std::string_view response, const PipelineRequest& request);

}  // namespace codebias::analysis::pipelines
