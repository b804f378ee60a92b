// Further turns of a conversation (run stage): after an answer, a task may ask the model again
// (tasks::Task::next_turn; the resume task asks for the fields a resume left out, BAD §4.2). Each
// further turn is one more planned sample (ids and turn numbers: generation/sample.h), stored
// like any other, so a killed run resumes in the
// middle of a conversation and the report sees every turn.
#pragma once

#include <vector>

#include "generation/sample.h"
#include "metrics/run_results.h"
#include "tasks/task.h"

namespace codebias::run {

// The sample that sends `turn` after `record`'s answer: the same request with the answer as an
// assistant message and the turn's message as a user message appended, the turn's metadata keys
// added to the record's with "turn" (the record's + 1) and "follows" (the record's id). Prompt id,
// sample index, seed and configuration are the record's. Throws std::invalid_argument for a
// request without "messages" (a /v1/completions prompt has no turns).
generation::PlannedSample follow_up_sample(const metrics::SampleRecord& record, const tasks::NextTurn& turn);

// The further turns the stored samples call for that are not planned yet, in the order of the
// samples they follow.
std::vector<generation::PlannedSample> unplanned_follow_ups(const std::vector<metrics::SampleRecord>& records,
                                                            const tasks::Task& task);

}  // namespace codebias::run
