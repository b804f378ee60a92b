// A run's answers in the `codebias score` input format, so that the tools that read that format
// (`codebias score`, `codebias quality`) take a run directory as well as a JSONL file.
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "store/run_store.h"

namespace codebias::run {

// One line per answered function-task sample, in plan order:
// {"id", "response", "scenario", "function", "attributes"}.
void write_score_input(const store::RunStore& store, const analysis::AttributeTable& table, std::ostream& out);

}  // namespace codebias::run
