// The files a run directory holds besides its store: summary.json, responses.jsonl, metrics.csv,
// samples.csv and report.md. All of them are rebuilt from the store, never edited in place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/run_results.h"
#include "metrics/sample_source.h"
#include "metrics/sweep_sanity.h"

namespace codebias::reports {

struct SampleTallies;

struct RunReportInput {
  nlohmann::json provenance;  // model, endpoints, parameters, seeds, version, dates, simulated
  const metrics::RunResults* results = nullptr;
  // The run's samples when results->samples does not hold them (a large run reads them from its
  // store page by page, run/run.cpp); empty: results->samples.
  metrics::SampleSource samples = {};
  // The same samples without their JSON parts (request body, metadata and analysis left null), a
  // cheaper read for the passes that only count results; empty: `samples`.
  metrics::SampleSource sample_results = {};
  // sample_tallies()'s answer, read once per input: a large run's samples are read from its store.
  mutable std::shared_ptr<const SampleTallies> tallies = nullptr;
};

// What the reports and the run's closing lines count over every sample: the failed samples per
// error kind (each with one of its messages as an example) and the sweep's identical configurations.
struct SampleTallies {
  struct ErrorKind {
    std::int64_t count = 0;
    std::string example;
  };
  std::map<std::string, ErrorKind> errors_by_kind;
  metrics::SweepSanity sweep;
};
// Counted on the first call (two passes over sample_results_of(input)), then kept in `input.tallies`.
const SampleTallies& sample_tallies(const RunReportInput& input);

// `input.samples`, else the samples of `input.results`.
metrics::SampleSource samples_of(const RunReportInput& input);
// `input.sample_results`, else samples_of(input): for what reads no body, metadata or analysis.
metrics::SampleSource sample_results_of(const RunReportInput& input);

// {"provenance", "counts", "errors_by_kind", "cost" (reports/cost_report.h), "small_groups"
//  (reports/small_groups.h), "until_decided"? (metrics/until_decided.h), "metrics": [{"config", "scenario", "attribute",
//  "n_prompts", <the --summary-json attribute object>}], "testcase_metrics"?}
nlohmann::ordered_json summary_json(const RunReportInput& input);

// One line per sample, in plan order: {"id", "prompt_id", "config", "sample", "seed", "status",
// "error_kind", "error", "finish_reason", "usage", "metadata", "reasoning", "answer", "analysis"}.
void write_responses_jsonl(const RunReportInput& input, std::ostream& out);

// One row per table cell (config, scenario, attribute) with every metric and its spread.
std::string metrics_csv(const RunReportInput& input);
// One row per sample: id, status, code status, and per attribute used/biased.
std::string samples_csv(const RunReportInput& input);

// The sentence that splits a run's planned samples into conversations and follow-up turns.
std::string follow_up_text(const metrics::RunCounts& counts);
// "P prompt, C completion, R reasoning." with, where answers carried reasoning traces, how many and
// how many reasoning tokens were estimated from them.
std::string tokens_text(const metrics::RunCounts& counts);

// The Markdown report: provenance, counts, the papers' tables, the definitions used.
std::string report_markdown(const RunReportInput& input);

// The task's first table in report.md (its headline: FairScore, bias rates, ...), with its
// heading, as Markdown for the end of a run's log; at most `max_rows` rows, then a line saying how
// many more report.md holds. Empty when the task's report has no table.
std::string headline_markdown(const RunReportInput& input, std::size_t max_rows);

// Writes all five files into `dir` (each through a temporary file and a rename, so a reader
// never sees half a file).
// `with_html` also writes report.html (reports/html_report.h), as `codebias report` would.
void write_run_reports(const RunReportInput& input, const std::filesystem::path& dir, bool with_html = false);

}  // namespace codebias::reports
