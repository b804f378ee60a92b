// A run's answers in the `codebias score` input format, so that the tools that read that format
// (`codebias score`, `codebias quality`) take a run directory as well as a JSONL file.
#pragma once

#include <filesystem>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "store/run_store.h"

namespace codebias::run {

// One line per answered conversation whose answer is a program, in plan order (its answer as the
// run's analysis reads it: tasks/run_analysis.h, conversation_answers): {"id", "response",
// "scenario", "function", "attributes", "domains" (a decision prompt's), "config"}. Throws store::StoreError when run_dir holds no run.
void write_score_input(const std::filesystem::path& run_dir, const analysis::AttributeTable& table, std::ostream& out);

}  // namespace codebias::run
