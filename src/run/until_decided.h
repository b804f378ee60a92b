// `codebias run --until-decided` (docs/gate.md, "Sampling until decided"): each cell's prompts
// are sent in rounds of --look-every prompts (all their samples; prompts are the units), and
// after each round the cell is looked at (metrics/until_decided.h); a decided cell gets nothing
// more. The cells' states are stored in the provenance after every look, before the next round
// is sent, so a run that is killed or stopped at its budget resumes where it was: decided cells
// stay decided and nothing is sent twice (what was sent is stored, not pending).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>

#include "generation/sample.h"
#include "run/budget.h"
#include "run/run_options.h"

namespace codebias::store {
class RunStore;
}

namespace codebias::run {

using SampleFilter = std::function<bool(const generation::PlannedSample&)>;
// Sends the pending samples the filter selects (and their follow-up turns); false when interrupted.
using SendSamples = std::function<bool(const SampleFilter&)>;

// Sends round after round until every cell is decided or has sent all its prompts, or the
// budget stops the run. Returns false when interrupted.
bool send_until_decided(store::RunStore& store, const std::filesystem::path& dir, const RunOptions& options,
                        const RunBudget& budget, const SendSamples& send, std::ostream* log);

}  // namespace codebias::run
