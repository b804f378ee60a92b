// The resume and cat tasks' results (metrics::TaskResults; tasks/screening/resume_report.cpp and cat_report.cpp report them).
#pragma once

#include <memory>
#include <optional>

#include "metrics/run_results.h"
#include "tasks/screening/cat_metrics.h"
#include "tasks/screening/screening_metrics.h"

namespace codebias::metrics {

// How the resume task read a run's answers (docs/screening.md, "Extracting resume fields"): each
// first turn's overall status, and what the follow-up turns asked for and brought.
struct ResumeReading {
  int answers = 0;  // first turns answered (done)
  std::map<std::string, int> by_status;  // "json", "text", "refusal", "empty"
  int follow_ups_sent = 0;      // further turns answered
  int fields_from_follow_ups = 0;  // fields the first turn lacked and a further turn gave
};

// The resume task's results (BAD §5.1-§5.2): the screening metrics over every answered first
// turn (fields a further turn filled in included), and how the answers were read.
struct ResumeResults final : TaskResults {
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/screening/resume_report.cpp
  std::optional<RatedCells> rated_cells() const override;

  ScreeningMetrics metrics;
  ResumeReading reading;
};

// The cat task's results (BAD §5.3, Table 1): ss, nss and icat per configuration and group, and
// the position-bias check.
struct CatResults final : TaskResults {
  explicit CatResults(CatMetrics metrics) : metrics(std::move(metrics)) {}
  std::unique_ptr<reports::TaskReport> report() const override;  // tasks/screening/cat_report.cpp
  std::optional<RatedCells> rated_cells() const override;

  CatMetrics metrics;
};

}  // namespace codebias::metrics
