// The scorer of answers that are functions, shared by the tasks whose answers the static analyzer
// reads (function, decision) and by faircoder-compat (FairCoder's published line scorer).
#pragma once

#include <memory>

#include "tasks/task.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_function_scorer(const ScoreSettings& settings);
std::unique_ptr<Scorer> make_faircoder_compat_scorer(const ScoreSettings& settings);

}  // namespace codebias::tasks
