// The built-in model's answers to the candidate-screening prompts (the resume and cat tasks'
// Task::simulated_answer; docs/simulated-model.md, "Candidate screening"): resumes with a planted
// association between the name's group and the job area, and CAT choices with a planted stereotype
// rate and position preference. From the profile's `screening`.
#pragma once

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

// A resume for the metadata's person, or (metadata "turn" >= 2 with "missing_fields") the missing
// fields of the first turn's resume as JSON: a follow-up draws the same person from the request's
// first_turn_seed.
SimulatedAnswer resume_answer(const AnswerRequest& request);

// One choice among the metadata's options (shown order), rendered in one of the profile's formats.
SimulatedAnswer cat_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
