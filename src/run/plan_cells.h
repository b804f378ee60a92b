// The table cells a run with these options would fill, for `codebias plan`: each cell's prompts
// (configuration × scenario × attribute, as the function task's analysis counts them) and the
// mean prompt tokens of one request.
#pragma once

#include <vector>

#include "metrics/sample_size_plan.h"
#include "run/run_options.h"

namespace codebias::run {

// Prompt tokens are estimated as one per 4 characters of the messages (OpenAI's rule of thumb for
// English text), plus 4 per message. Throws std::invalid_argument for options that select no prompt.
std::vector<metrics::PlanCell> plan_cells(const RunOptions& options);

}  // namespace codebias::run
