// The cost of a run in its reports (docs/cost.md): summary.json's "cost" and one paragraph of
// report.md and report.html, from the price stored in the provenance and the tokens stored per
// sample; and, for a run with a budget, whether it stopped there.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"

namespace codebias::reports {

// {"currency", "total", "prompt_tokens", "completion_tokens", "per_configuration": [{"config",
//  "prompt_tokens", "completion_tokens", "cost"}], "per_biased_finding", "prices": {"model",
//  "prompt_per_million", "completion_per_million", "source", "date", "file"}, "budget"}; "total"
// null (and "missing" saying why) when the model has no price.
nlohmann::ordered_json cost_json(const RunReportInput& input);

// One Markdown paragraph: the cost, per configuration and per biased finding, the prices' source
// and date, and, when the run stopped at its budget, how to complete it.
std::string cost_markdown(const RunReportInput& input);

}  // namespace codebias::reports
