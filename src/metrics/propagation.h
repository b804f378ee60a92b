// Bias propagation from reasoning to code (ProbeDebias §4.2, "RQ2", Figure 4): each program with
// code and a reasoning trace falls in one of four classes — biased thinking → biased code (BT→BC),
// BT→UC, UT→BC, UT→UC — by a reasoning-bias detector's verdict on the trace (detectors/) and the
// code analyzer's verdict on the program, for one sensitive attribute. Figure 4 prints the share
// of biased traces and, per trace class, the share of biased code; both are here with Wilson
// intervals.
#pragma once

#include <optional>
#include <string>

#include "metrics/rate.h"

namespace codebias::metrics {

struct PropagationCounts {
  int biased_trace_biased_code = 0;      // BT→BC
  int biased_trace_unbiased_code = 0;    // BT→UC
  int unbiased_trace_biased_code = 0;    // UT→BC
  int unbiased_trace_unbiased_code = 0;  // UT→UC

  void add(bool trace_biased, bool code_biased);
  int biased_traces() const { return biased_trace_biased_code + biased_trace_unbiased_code; }
  int unbiased_traces() const { return unbiased_trace_biased_code + unbiased_trace_unbiased_code; }
  int total() const { return biased_traces() + unbiased_traces(); }
};

struct Propagation {
  std::string detector;           // the trace side's detector ("keywords", ...)
  PropagationCounts counts;       // programs with code and a trace
  int programs_without_trace = 0; // programs with code whose answer carried no trace: in no class
  std::optional<RateWithInterval> biased_trace_share;          // BT / all classified (Figure 4's "BT %")
  std::optional<RateWithInterval> biased_code_given_biased;    // P(BC | BT)
  std::optional<RateWithInterval> biased_code_given_unbiased;  // P(BC | UT)
};

// The shares of `counts` (intervals at 95 %).
Propagation summarize_propagation(const std::string& detector, const PropagationCounts& counts,
                                  int programs_without_trace);

}  // namespace codebias::metrics
