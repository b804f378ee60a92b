// `codebias compare RUN_A RUN_B` printed: the comparison of metrics/run_comparison.h as JSON and
// as the readable table.
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "metrics/run_comparison.h"

namespace codebias::reports {

// Everything in the comparison, for --json.
nlohmann::ordered_json to_json(const metrics::RunComparison& comparison);

// The readable table: one line per cell (BR A, BR B, Δ with its interval, Wilcoxon p and its
// Holm adjustment, Cliff's δ and magnitude, McNemar p and its Holm adjustment, verdict).
void write_comparison_table(std::ostream& out, const metrics::RunComparison& comparison);

}  // namespace codebias::reports
