// What a task contributes to a run's report files. The files' shared parts (provenance, sample
// counts, responses.jsonl, samples.csv, the HTML page around the sections) are written by
// run_report.cpp and html_report.cpp; everything about the task's metrics comes from its
// TaskReport, which the task's results make (metrics::TaskResults::report, defined with each
// task's report code: function_report.cpp, testcase_report.cpp, tasks/hiring_audit/...).
// Formatting only: the numbers are computed in metrics/.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/run_results.h"

namespace codebias::reports {

// One number of the HTML page's headline.
struct HeadlineCard {
  std::string label;
  std::string value;
  std::string note;
};

// How a heatmap's numbers are shown: as shares of their row's total (FairCoder's preference
// votes), or as ratios to parity (1 = as expected; BAD's representation ratio), coloured on a
// log scale, over-representation red and under-representation blue.
enum class HeatScale { row_share, ratio };

// One heatmap of the HTML page: rows of numbers over one attribute's groups (FairCoder Figure 3:
// preference votes; BAD Figures 3-4: representation ratios). NaN: undefined.
struct Heatmap {
  std::string attribute;
  std::vector<std::string> groups;
  std::vector<std::pair<std::string, std::vector<double>>> rows;  // label, a number per group
  HeatScale scale = HeatScale::row_share;
};

// The heading and the sentence above a report's heatmaps.
struct HeatmapHeading {
  std::string title;
  std::string note;
};

// One Chart.js bar chart of the HTML page.
struct ChartSpec {
  std::string title;
  std::string y_title;
  std::vector<std::string> labels;
  std::vector<std::pair<std::string, std::vector<std::optional<double>>>> datasets;
  std::optional<double> y_max;
};

// Why one sample counts as biased, for the HTML drill-down: the per-group amounts and the
// deciding lines.
struct SampleFinding {
  std::string attribute;
  std::vector<std::pair<std::string, std::string>> amounts;  // group, its points or case count
  std::vector<nlohmann::ordered_json> evidence;              // {line, text, detail}
};

class TaskReport {
 public:
  virtual ~TaskReport() = default;

  // summary.json: the task's keys, after "provenance", "counts" and "errors_by_kind".
  virtual void add_to_summary(nlohmann::ordered_json& summary) const = 0;
  // metrics.csv, header included; `config_costs` is reports/cost_report.h's "per_configuration"
  // (null when the run is not priced), for a task whose rows carry their configuration's cost.
  virtual std::string metrics_csv(const nlohmann::ordered_json& config_costs) const = 0;
  // report.md: the task's sections, between the sample counts and "How to read this".
  virtual void write_markdown(std::ostream& out) const = 0;

  // report.html, in page order: headline numbers after the counts, heatmaps, charts, tables.
  virtual std::vector<HeadlineCard> headline_cards() const = 0;
  virtual std::vector<Heatmap> heatmaps() const = 0;
  // FairCoder's preference-vote heading unless the task shows other numbers.
  virtual HeatmapHeading heatmap_heading() const;
  // report.md's closing "How to read this" paragraph: what the sample counts mean for the task.
  virtual std::string how_to_read() const;
  // What the counts' `with_code` holds for the task, as the reports label it ("with code" for
  // code; a résumé or a choice is not code).
  virtual const char* with_code_label() const { return "with code"; }
  // What the counts' `refusals` are for the task ("refusals (no code)" for code).
  virtual const char* refusal_label() const { return "refusals (no code)"; }
  virtual std::vector<ChartSpec> charts() const = 0;
  // CSV files written next to metrics.csv: {file name, content}.
  virtual std::vector<std::pair<std::string, std::string>> extra_csv_files() const { return {}; }
  virtual void write_html_tables(std::ostream& out) const = 0;

  // The drill-down: a sample's findings (none when it is not biased), what the amounts are
  // ("points", "cases") and the sentence that counts the biased samples; nullptr for a task
  // whose bias is not a property of one sample (no drill-down).
  virtual std::vector<SampleFinding> findings(const nlohmann::ordered_json& analysis) const = 0;
  virtual const char* amount_name() const = 0;
  virtual const char* biased_samples_text() const = 0;
};

// Parts the task reports share (function_report.cpp).
// The heatmap of `attribute` in `maps`, added with `groups` as its columns when there is none yet.
Heatmap& heatmap_for(std::vector<Heatmap>& maps, const std::string& attribute, const std::vector<std::string>& groups);
// summary.json's "metrics" (one object per cell: its --summary-json attribute object and "ci95")
// and "ci95_method".
void add_function_cells_to_summary(const std::vector<metrics::FunctionCell>& cells, nlohmann::ordered_json& summary);
// metrics.csv: one row per cell with every metric of metrics.json's `metrics_csv` and its spread,
// then its configuration's tokens and cost from `config_costs` (reports/cost_report.h's
// "per_configuration"; empty cells when null: the run is not priced).
std::string function_metrics_csv(const std::vector<metrics::FunctionCell>& cells,
                                 const nlohmann::ordered_json& config_costs = nullptr);
// A hiring-audit design's title: the design, and its configuration in brackets when it has one.
std::string audit_design_title(const nlohmann::ordered_json& design);
// One chart per design of a hiring audit (summary.json's "audit", from a hiring-audit run or a
// function run's code audit): each intersectional category's impact ratio, its 95 % interval and
// the 0.8 line labelled as the EEOC heuristic.
std::vector<ChartSpec> impact_ratio_charts(const nlohmann::ordered_json& audit);

// The drill-down of a score-contract object (analysis/findings/report_json.h): each biased finding's
// per-group points and evidence lines.
std::vector<SampleFinding> score_contract_findings(const nlohmann::ordered_json& analysis);

// The report of the results' task (its TaskResults::report). Throws std::logic_error when no task
// has analysed the run.
std::unique_ptr<TaskReport> task_report(const metrics::RunResults& results);

}  // namespace codebias::reports
