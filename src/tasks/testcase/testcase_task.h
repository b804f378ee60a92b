// FairCoder's unit-test generation task: its scorer and registry row.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {

std::unique_ptr<Scorer> make_testcase_scorer(const ScoreSettings& settings);
// The row of tasks/registry.cpp.
Task testcase_task_row();

}  // namespace codebias::tasks
