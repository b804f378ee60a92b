// The unit-test-generation task's results (metrics::TaskResults; tasks/testcase/testcase_report.cpp reports them).
#pragma once

#include <memory>
#include <optional>

#include "metrics/run_results.h"

namespace codebias::metrics {

// The unit-test-generation task's results: the per-topic metrics of tasks/testcase/testcase_metrics.h in
// the JSON form summary.json carries (to_json(TestcaseSummary)).
struct TestcaseResults final : TaskResults {
  explicit TestcaseResults(nlohmann::ordered_json metrics) : metrics(std::move(metrics)) {}
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/testcase/testcase_report.cpp
  std::optional<RatedCells> rated_cells() const override;

  nlohmann::ordered_json metrics;
};

}  // namespace codebias::metrics
