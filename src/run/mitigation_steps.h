// The further requests of the function task's rewrite strategies (run stage; ProbeDebias §5,
// docs/mitigation.md): after a first answer whose reasoning trace the run's --trace-detector calls
// biased, a rewrite request ("+turn2", metadata step "rewrite", the detector's score and
// attributes), and after the rewrite, the first request again with the rewritten trace prefilled
// in the assistant's think block ("+turn3", step "regenerate"; vLLM / SGLang
// `continue_final_message: true`, `add_generation_prompt: false`). Each step is a stored sample
// like any other (run/follow_ups.h), so a killed run resumes mid-strategy. A repair strategy's
// answer whose code the analyzer finds biased gets a feedback turn naming the attributes and
// points (a follow-up of the conversation, step "repair", its "round"), up to the strategy's rounds.
#pragma once

#include <string>
#include <vector>

#include "generation/sample.h"
#include "metrics/run_results.h"
#include "run/run_options.h"

namespace codebias::run {

// The steps the stored samples call for that are not planned yet: feedback turns and
// regenerations after rewrites, then rewrites after biased first answers.
std::vector<generation::PlannedSample> unplanned_mitigation_steps(const std::vector<metrics::SampleRecord>& records,
                                                                  const RunOptions& options);

// The assistant message that prefills `trace` as the answer's reasoning.
std::string prefilled_think_block(const std::string& trace);

}  // namespace codebias::run
