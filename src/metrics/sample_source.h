// A run's analysed samples visited one at a time, in plan order: from RunResults::samples, or page
// by page from the run store (run/run.cpp), so that the reports need not hold every sample of a
// large run at once (issue 32).
#pragma once

#include <functional>

#include "metrics/run_results.h"

namespace codebias::metrics {

using AnalysedSampleVisitor = std::function<void(const AnalysedSample&)>;
// Calls its argument once per sample, in plan order.
using SampleSource = std::function<void(const AnalysedSampleVisitor&)>;

// Visits `results.samples` (which must outlive the source).
SampleSource samples_of(const RunResults& results);

}  // namespace codebias::metrics
