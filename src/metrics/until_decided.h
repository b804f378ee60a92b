// `codebias run --until-decided`: a cell (configuration × scenario × attribute) is sampled in
// rounds of prompts, and after each round its bias rate's always-valid interval (the confidence
// sequence of metrics/cell_evidence.h, fixed in advance to be tightest at the cell's planned
// prompts, so that looking after every round keeps its error) is held to the gate's
// --max-bias-rate: the cell is decided once the whole interval lies above the threshold or at or
// below it. The state of every cell lives in the run's provenance ("until_decided"), so a resumed
// run keeps what was decided. docs/gate.md, "Sampling until decided".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/cell_evidence.h"

namespace codebias::metrics {

// A cell's verdict after a look: "exceeds" (interval above the threshold), "within" (at or
// below it), or "" (straddles it).
std::string sequential_verdict(const SequentialEvidence& evidence, double max_bias_rate);

// One look at a cell: its evidence and verdict, written into the cell's state
// {"looks", "prompts", "samples", "max_prompts", "max_samples", "estimate", "lower", "upper",
//  "verdict", "stopped"}: "stopped" is "decided early" once the verdict is settled, "ran to the
// maximum" when the last round was looked at without one, and null while the cell is sampled.
void record_look(nlohmann::json& cell_state, const std::vector<PromptTally>& tallies, double max_bias_rate,
                 double confidence, bool last_round);

// True once a cell's state says it is stopped (decided or at its maximum).
bool cell_stopped(const nlohmann::json& cell_state);

// report.md's paragraph for a run sampled until decided: per cell, decided early after how many
// prompts, samples and looks (with the interval), or ran to the maximum. "" for other runs.
std::string until_decided_markdown(const nlohmann::json& provenance);

}  // namespace codebias::metrics
