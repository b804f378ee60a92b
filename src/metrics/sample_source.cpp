#include "metrics/sample_source.h"

namespace codebias::metrics {

SampleSource samples_of(const RunResults& results) {
  return [&results](const AnalysedSampleVisitor& visit) {
    for (const auto& sample : results.samples) visit(sample);
  };
}

}  // namespace codebias::metrics
