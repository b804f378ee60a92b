// The ML-pipeline task's results (metrics::TaskResults; tasks/pipelines/pipeline_report.cpp reports them).
#pragma once

#include <memory>
#include <optional>

#include "metrics/run_results.h"
#include "tasks/pipelines/pipeline_metrics.h"

namespace codebias::metrics {

// The ML-pipeline task's results: feature retention per cell and the pipeline-vs-conditional
// comparisons (tasks/pipelines/pipeline_metrics.h).
struct PipelineResults final : TaskResults {
  explicit PipelineResults(PipelineMetrics metrics) : metrics(std::move(metrics)) {}
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/pipelines/pipeline_report.cpp
  std::optional<RatedCells> rated_cells() const override;

  PipelineMetrics metrics;
};

}  // namespace codebias::metrics

namespace codebias::reports {

// summary.json's "pipeline_metrics" (also `codebias score --task ml-pipeline --summary-json`);
// tasks/pipelines/pipeline_report.cpp.
nlohmann::ordered_json pipeline_metrics_json(const metrics::PipelineMetrics& metrics);

}  // namespace codebias::reports
