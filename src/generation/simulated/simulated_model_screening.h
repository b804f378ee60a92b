// The simulated model's answers to the candidate-screening prompts (metadata task "resume" or
// "cat"; docs/simulated-model.md, "Candidate screening"): resumes with a planted association
// between the name's group and the job area, and CAT choices with a planted stereotype rate and
// position preference. Internal to the simulated model; tests call these directly.
#pragma once

#include <cstdint>

#include "generation/simulated/simulated_model_answer.h"

namespace codebias::serve::sim {

// A resume for the metadata's person, or (metadata "turn" >= 2 with "missing_fields") the missing
// fields of the first turn's resume as JSON; `seed` is the answer's, task.first_turn_seed the
// first turn's (a follow-up draws the same person from it).
Answer resume_answer(const ScreeningProfile& profile, const Task& task, std::uint64_t seed);

// One choice among the metadata's options (shown order), rendered in one of the profile's formats.
Answer cat_answer(const ScreeningProfile& profile, const Task& task, std::uint64_t seed);

}  // namespace codebias::serve::sim
