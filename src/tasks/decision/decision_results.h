// The decision-function task's results (metrics::TaskResults; tasks/decision/decision_report.cpp reports them).
#pragma once

#include <memory>
#include <optional>

#include "metrics/counterfactual_metrics.h"
#include "metrics/intervals.h"
#include "metrics/run_results.h"

namespace codebias::metrics {

// The decision-function task's results (Solar, Huang et al.; docs/counterfactual.md): per tested
// attribute, the share of answers with code the static analyzer reads as biased, and with
// --execute what running them showed.
struct DecisionResults final : TaskResults {
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/decision/decision_report.cpp
  std::optional<RatedCells> rated_cells() const override;

  struct StaticRate {
    std::string attribute;
    std::optional<RateWithInterval> biased;  // biased / answers with code that test the attribute
  };
  std::vector<StaticRate> static_rates;
  std::optional<CounterfactualSummary> counterfactual;
};

}  // namespace codebias::metrics
