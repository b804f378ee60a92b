// The unit-test-generation task's analysis of a run's stored samples (its registry row's
// analyse_run): each done sample read with the test-case analyzer, and the per-topic metrics.
#pragma once

#include <vector>

#include "attributes/attributes.h"
#include "metrics/run_results.h"
#include "tasks/task.h"

namespace codebias::tasks {

// The per-topic metrics are computed over blocks of `block` samples of one prompt. For counts, a
// test-case answer's "code" is its test cases: ok = with code, refusal = refusal, no test case or
// unparseable = unparseable.
metrics::RunResults analyse_testcase_run(const std::vector<metrics::SampleRecord>& records,
                                         const analysis::AttributeTable& table, int block);

// The same with the registry's signature (tasks/task.h: analyse_run).
metrics::RunResults analyse_testcase_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings);

}  // namespace codebias::tasks
