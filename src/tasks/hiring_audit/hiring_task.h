// The hiring-audit task's registry functions (tasks/registry.cpp; docs/hiring-audit.md): its
// `codebias score` pass and its run analysis. Its prompts come from hiring_prompts.h and the
// built-in model's answers from hiring_simulated.h.
#pragma once

#include <memory>
#include <vector>

#include "tasks/hiring_audit/hiring_prompts.h"
#include "tasks/hiring_audit/hiring_simulated.h"
#include "tasks/task.h"

namespace codebias::tasks {

// Lines with "response" and the prompt's metadata ("design", "candidates"; under "metadata" or at
// the top level); takes no --execute, --scenario, --attribute or --block.
std::unique_ptr<Scorer> make_hiring_scorer(const ScoreSettings& settings);

// Every done sample read, and the audit (hiring_audit.h) in the results' report.
metrics::RunResults analyse_hiring_samples(const std::vector<metrics::SampleRecord>& records,
                                           const RunAnalysisSettings& settings);

// The row of tasks/registry.cpp.
Task hiring_audit_task_row();

}  // namespace codebias::tasks
