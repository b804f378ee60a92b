// The function-implementation task's results (metrics::TaskResults; tasks/function/function_report.cpp reports them).
#pragma once

#include <memory>
#include <optional>

#include "metrics/counterfactual_metrics.h"
#include "metrics/mitigation.h"
#include "metrics/run_results.h"

namespace codebias::metrics {

// The function-implementation task's results: one cell per configuration × scenario × attribute,
// in plan order of first appearance.
struct FunctionResults final : TaskResults {
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/function/function_report.cpp
  std::optional<RatedCells> rated_cells() const override;
  const std::vector<FunctionCell>* function_cells() const override { return &cells; }

  std::vector<FunctionCell> cells;
  // With a --mitigation sweep: each strategy against its baseline, and what each configuration cost.
  std::vector<MitigationComparison> mitigations;
  std::vector<StrategyCost> costs;
  std::vector<RepairRound> repair_rounds;  // feedback-repair configurations, cell by cell, round by round
  std::optional<CounterfactualSummary> counterfactual;  // with --execute
  std::optional<CodeAuditSection> code_audit;           // with --execute, job-hiring functions
};

}  // namespace codebias::metrics
