// A run's answers in the `codebias score` input format, so that the tools that read that format
// (`codebias score`, `codebias quality`) take a run directory as well as a JSONL file.
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "store/run_store.h"

namespace codebias::run {

// The analyzer's options for a sample, from its prompt's metadata: scenario, the function the
// prompt asked for, and the sensitive attributes it offered (names such as "income level (high,
// medium, low)" are read as "income level"; names that are no sensitive attribute are skipped).
analysis::AnalyzeOptions analyze_options_for(const nlohmann::json& metadata,
                                             const analysis::AttributeTable& table);

// One line per answered function-task sample, in plan order:
// {"id", "response", "scenario", "function", "attributes"}.
void write_score_input(const store::RunStore& store, const analysis::AttributeTable& table, std::ostream& out);

}  // namespace codebias::run
