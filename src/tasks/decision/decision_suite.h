// The decision-function task's part of a suite file ("decisions"; docs/suites.md), parsed by its task: the registry
// row's suite part (tasks/task.h), read back with Suite::part<suites::DecisionsPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::tasks {

extern const suites::TaskPartParser kDecisionsSuitePart;

}  // namespace codebias::tasks
