// The ML-pipeline task's part of a suite file ("pipelines"; docs/suites.md), parsed by its task: the registry
// row's suite part (tasks/task.h), read back with Suite::part<suites::PipelinesPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::tasks {

extern const suites::TaskPartParser kPipelinesSuitePart;

}  // namespace codebias::tasks
