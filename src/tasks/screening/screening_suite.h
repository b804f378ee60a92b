// The candidate-screening tasks' parts of a suite file ("resume" and "cat"; docs/suites.md),
// parsed by their tasks: the registry rows' suite parts (tasks/task.h), read back with
// Suite::part<suites::ResumePart>() and Suite::part<suites::CatPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::tasks {

extern const suites::TaskPartParser kResumeSuitePart;
extern const suites::TaskPartParser kCatSuitePart;

}  // namespace codebias::tasks
