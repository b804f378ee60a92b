// Reading a finished (or partial) run back from its directory for the commands that judge runs
// after the fact (`codebias compare`, `codebias gate`): every stored sample, analysed again with
// this build's analyzer exactly as `codebias run` analyses it, and grouped by table cell
// (configuration × scenario × attribute) and prompt, so that two runs can be paired prompt by
// prompt and sample by sample.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/report.h"
#include "run/run_results.h"

namespace codebias::run {

// One prompt's samples within one cell, in sample-index order of the plan.
struct PromptSamples {
  std::string prompt_id;
  std::vector<int> sample_indices;               // PlannedSample::sample_index of each report
  std::vector<analysis::ResponseReport> reports;  // done samples only
};

// One table cell with its samples per prompt, prompts in plan order.
struct CellSamples {
  std::string config;
  std::string scenario;
  std::string attribute;
  std::vector<std::string> groups;  // canonical order (attribute table)
  std::vector<PromptSamples> prompts;
};

struct LoadedRun {
  std::filesystem::path dir;
  nlohmann::json provenance;
  std::vector<SampleRecord> records;
  RunResults results;              // the run's own cells, as its report shows them
  std::vector<CellSamples> cells;  // the same cells, in results.cells order, sample by sample

  LoadedRun() = default;
  // results points into records: a copy would point into the original.
  LoadedRun(const LoadedRun&) = delete;
  LoadedRun& operator=(const LoadedRun&) = delete;
  LoadedRun(LoadedRun&&) = default;
  LoadedRun& operator=(LoadedRun&&) = default;
};

// The cell label used in tables and messages: "scenario/attribute", prefixed with "config/" in
// a sweep.
std::string cell_label(const std::string& config, const std::string& scenario, const std::string& attribute);

// Opens the run in `dir` and analyses its done samples. Throws store::StoreError when there is
// no readable run there and std::invalid_argument for a test-case run (no function cells).
LoadedRun load_run(const std::filesystem::path& dir);

}  // namespace codebias::run
