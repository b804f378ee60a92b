#include "metrics/propagation.h"

namespace codebias::metrics {
void PropagationCounts::add(bool trace_biased, bool code_biased) {
  if (trace_biased) {
    ++(code_biased ? biased_trace_biased_code : biased_trace_unbiased_code);
  } else {
    ++(code_biased ? unbiased_trace_biased_code : unbiased_trace_unbiased_code);
  }
}

Propagation summarize_propagation(const std::string& detector, const PropagationCounts& counts,
                                  int programs_without_trace) {
  Propagation p;
  p.detector = detector;
  p.counts = counts;
  p.programs_without_trace = programs_without_trace;
  p.biased_trace_share = rate_with_interval(counts.biased_traces(), counts.total());
  p.biased_code_given_biased = rate_with_interval(counts.biased_trace_biased_code, counts.biased_traces());
  p.biased_code_given_unbiased = rate_with_interval(counts.unbiased_trace_biased_code, counts.unbiased_traces());
  return p;
}

}  // namespace codebias::metrics
