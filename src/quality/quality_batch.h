// `codebias quality`: a JSONL stream of responses (the `codebias score` input format) in, one line
// per response with its pass@1 outcome and/or pylint quality out, plus the totals. Runs on the
// JSONL engine (base/jsonl_engine.h), so memory stays bounded whatever the input size.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/batch.h"
#include "quality/pass_at_1.h"
#include "quality/pylint_score.h"

namespace codebias::quality {

struct QualityOptions {
  bool run_pass_at_1 = false;
  bool run_pylint = false;
  PassOptions pass;
  PylintOptions pylint;
  analysis::AnalyzeOptions defaults;  // scenario / attributes for lines that give none
  unsigned jobs = 0;                  // parallel sandboxes; 0: one per core
  std::size_t chunk_lines = 200;      // lines read and evaluated together
  bool keep_going = false;            // false: throw base::InputError at the first bad line
};

// What one well-formed line gave: its request, and the outcomes that were asked for.
struct QualityResult {
  analysis::ScoreRequest request;
  std::optional<PassResult> pass;
  std::optional<QualityScore> quality;
};

// One line in input order: `result` when the line was read, `error` for a bad input line (only
// reaches the sink with keep_going).
using QualityLine = base::JsonlItem<QualityResult>;

struct QualitySummary {
  long samples = 0;
  long errors = 0;
  // pass@1: `run` = passed + failed is the denominator; not_run samples are outside it.
  long passed = 0;
  long failed = 0;
  long not_run = 0;
  long timeouts = 0;
  long memory_exceeded = 0;
  std::map<std::string, long> crash_types;
  std::map<std::string, long> not_run_reasons;
  std::map<std::string, long> isolation;
  // quality
  long scored = 0;
  long not_scored = 0;
  double quality_total = 0;
  std::map<std::string, long> not_scored_reasons;

  std::optional<double> pass_at_1() const;     // passed / (passed + failed); unset when nothing ran
  std::optional<double> mean_quality() const;  // over scored samples; unset when none
  void add(const QualityLine& line);
  nlohmann::json to_json(bool with_pass, bool with_quality) const;
};

using QualityLineSink = std::function<void(const QualityLine&)>;

// The output object of one evaluated line: {"id", "pass_at_1"?: {...}, "quality"?: {...}}.
nlohmann::json quality_line_json(const std::string& id, const std::optional<PassResult>& pass,
                                 const std::optional<QualityScore>& quality);

// Evaluates every non-blank line of `in` (`origin` names it in errors); the sink sees lines in
// input order on the calling thread. Throws base::InputError on a bad line without
// keep_going, std::runtime_error when python or pylint cannot be started.
QualitySummary evaluate_quality_jsonl(std::istream& in, std::string_view origin,
                                      const analysis::AttributeTable& table, const QualityOptions& options,
                                      const QualityLineSink& sink);

}  // namespace codebias::quality
