// The function-implementation task (FairCoder §2.2) and faircoder-compat: their registry rows.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {

// The rows of tasks/registry.cpp: scoring functions read by the static analyzer, and the same lines
// read by FairCoder's published scorer.
Task function_task_row();
Task faircoder_compat_task_row();

}  // namespace codebias::tasks
