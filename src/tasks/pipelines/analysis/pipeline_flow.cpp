#include "tasks/pipelines/analysis/pipeline_flow.h"

#include <string>

#include "tasks/pipelines/analysis/flow_interpreter.h"

namespace codebias::analysis::pipelines {

FlowResult analyze_pipeline_flow(std::span<const CodeUnit> units, const PipelineRequest& request) {
  if (request.columns.size() > kMaxColumns) {
    FlowResult result;
    result.columns.resize(request.columns.size());
    result.reason = "more than " + std::to_string(kMaxColumns) + " columns";
    return result;
  }
  return flow::Flow(request).run(units);
}

}  // namespace codebias::analysis::pipelines
