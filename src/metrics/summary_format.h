// SummaryMetrics as JSON (the `summary` object of the score output) and as a terminal table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "metrics/fairness.h"

namespace codebias::metrics {

// {"n": int, "block": int, "epsilon": number, "n_blocks": int, "last_block_size": int,
//  "n_with_code": int, "excluded": {"no_code": int, "truncated": int, "unparseable": int},
//  "attributes": {ATTR: {"refusal_rate", "preference_entropy", "fairscore", "bias_rate",
//                        "preference_entropy_shifted", "fairness_score", "preferred_group",
//                        "preferred_groups", "preference_votes", "group_points",
//                        "preference_entropy_shifted_biased", "n", "n_with_code", "n_used",
//                        "n_refused", "n_biased", "n_biased_unscored", "n_blocks",
//                        "n_blocks_entropy", "n_blocks_fairscore", "n_entropy_programs"}}}
// Undefined values (no response measured, no block with points, a tie for preferred_group) are
// null, never NaN.
nlohmann::json to_json(const SummaryMetrics& summary);

// One row per attribute, aligned columns, "-" for undefined values, then footer lines naming the
// papers' definitions, the block size and the excluded responses.
std::string format_table(const SummaryMetrics& summary);

}  // namespace codebias::metrics
