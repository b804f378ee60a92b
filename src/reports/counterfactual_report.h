// The counterfactual-execution section of every report (docs/counterfactual.md): Solar's bias
// scores, the static × execution agreement and the disagreements with both readings. Written
// once as a document, rendered as text (`codebias score --execute --summary`), Markdown
// (report.md) and HTML (report.html); the same numbers as JSON for summary.json and --summary-json.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "base/text_document.h"
#include "metrics/counterfactual_metrics.h"

namespace codebias::reports {

// Level-2 heading "Counterfactual execution", its tables, and at most `max_disagreements`
// disagreements (all of them counted in the table of kinds).
base::Document counterfactual_document(const metrics::CounterfactualSummary& summary, std::size_t max_disagreements = 20);

nlohmann::ordered_json counterfactual_json(const metrics::CounterfactualSummary& summary);

}  // namespace codebias::reports
