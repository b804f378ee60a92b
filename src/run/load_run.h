// Reading a finished (or partial) run back from its directory for the commands that judge runs
// after the fact (`codebias compare`, `codebias gate`): every stored sample, analysed again with
// this build's analyzer exactly as `codebias run` analyses it, and grouped by table cell
// (configuration × scenario × attribute) and prompt (metrics::LoadedRun).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "metrics/run_results.h"
#include "store/store_error.h"

namespace codebias::store {
class RunStore;
}

namespace codebias::run {

// Opens the run in `dir` and analyses its done samples. Throws store::StoreError when there is
// no readable run there and std::invalid_argument for a test-case run (no function cells).
metrics::LoadedRun load_run(const std::filesystem::path& dir);
// The same from a store already open (a run looking at itself while it samples).
metrics::LoadedRun load_run(const store::RunStore& store, const std::filesystem::path& dir);


}  // namespace codebias::run
