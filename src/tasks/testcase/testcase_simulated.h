// The built-in model's answers to FairCoder test-case requests: the testcase task's
// Task::simulated_answer and Task::claims_request (docs/simulated-model.md).
#pragma once

#include <vector>

#include "generation/simulated/simulated_model.h"
#include "prompts/prompt_metadata.h"

namespace codebias::serve::sim {

// Whether a request whose metadata names no task asks for a test case: its metadata names a
// test-case topic, or, without metadata, it asks to fill in a "test case" and to "follow the
// format" (FairCoder's wording).
bool claims_testcase_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata);

// A filled-in FairCoder test case: each sensitive field gets a group with the profile's rate.
SimulatedAnswer testcase_answer(const AnswerRequest& request);

}  // namespace codebias::serve::sim
