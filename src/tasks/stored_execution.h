// Execution outcomes kept with their samples in the run store (store/run_store.h, table
// `executions`), so that `codebias report` on a `run --execute` rebuilds the run's reports without
// running any program again (tasks stage). An outcome is stored whole: what the task's analysis
// reads of it comes back exactly, so a rebuilt report is byte-identical to the run's.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/findings/outcomes.h"
#include "tasks/pipelines/pipeline_execution.h"

namespace codebias::tasks {

// The outcomes an analysis may reuse, and where it leaves those it had to execute.
struct StoredExecutions {
  // Outcomes stored by an earlier analysis of the run, by sample id; null: none.
  const std::map<std::string, nlohmann::json>* stored = nullptr;
  // Receives each outcome this analysis executed, by sample id (the run stores them); null: dropped.
  std::map<std::string, nlohmann::json>* executed = nullptr;

  // The stored outcome of the sample, or null.
  const nlohmann::json* find(const std::string& sample_id) const;
  void keep(const std::string& sample_id, nlohmann::json outcome) const;
};

// A counterfactual execution (function and decision tasks) as stored, and back. Reading throws
// std::invalid_argument naming the sample and the field when the stored outcome is not one.
nlohmann::json stored_outcome(const analysis::ResponseExecution& execution);
analysis::ResponseExecution response_execution_from(const nlohmann::json& outcome, const std::string& sample_id);

// An ML pipeline's execution (ml-pipeline task) as stored, and back (throws the same way).
nlohmann::json stored_outcome(const quality::PipelineExecution& execution);
quality::PipelineExecution pipeline_execution_from(const nlohmann::json& outcome, const std::string& sample_id);

}  // namespace codebias::tasks
