// The unit-test-generation task's part of a suite file ("testcase"; docs/suites.md), parsed by its task: the
// registry row's suite part (tasks/task.h), read back with Suite::part<suites::TestcaseTask>().
#pragma once

#include "suites/suite.h"

namespace codebias::tasks {

extern const suites::TaskPartParser kTestcaseSuitePart;

}  // namespace codebias::tasks
