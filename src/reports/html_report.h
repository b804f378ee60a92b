// The run report as one self-contained HTML file (`codebias report --format html`): provenance,
// headline numbers, the papers' tables, a preferred-group heatmap (FairCoder Figure 3 style),
// Chart.js charts, and a drill-down into every biased sample with its deciding lines marked.
//
// Contract:
// - Viewing needs no network: Chart.js (npm, pinned; cmake/ChartJs.cmake) is inlined, and the
//   file loads nothing else.
// - Every text that comes from the run (answers, prompts, provenance, group names) is escaped:
//   HTML text through entity escaping, chart data as JSON with <, > and & written as \u escapes,
//   so an answer holding `</script><script>...` stays text.
// - Opened with the URL fragment #selftest, the page writes a JSON verdict into
//   <pre id="selftest">: {"errors": [...] (window errors, rejections, console.error), "canvases":
//   [{"id", "nonblank": painted pixels, "labels", "plot_height", "space_per_label", "rotation",
//   "labels_overlap": the x axis's labels overlap by the layout rule in the page script}],
//   "details": drill-down entries, "drilldown_expands": the first entry grows and shows its content
//   when opened, "heatmap_charts", "empty_chart_notes", "collapsed_tables": how many charts were
//   drawn as heatmaps or replaced by a note, and how many long tables are collapsed}.
//   tests/browser/ reads it with --dump-dom.
// - Readable at any size: a chart with more than 20 categories is drawn as a heatmap table, a chart
//   whose values are all 0 is replaced by a note, a plot keeps at least 180 px of height, and a
//   table of more than 25 rows is collapsed behind its summary with the full table as a CSV link.
#pragma once

#include <cstddef>
#include <string>

#include "reports/run_report.h"

namespace codebias::reports {

struct HtmlReportOptions {
  // Biased samples shown in the drill-down; the page says how many more there were.
  std::size_t max_drilldown_samples = 500;
};

std::string report_html(const RunReportInput& input, const HtmlReportOptions& options = {});

// `text` with &, <, >, " and ' replaced by entities: safe in element text and quoted attributes.
std::string html_escape(std::string_view text);

// JSON for a <script type="application/json"> block: `value` dumped with <, >, & and the line
// separators U+2028/U+2029 as \u escapes (invalid UTF-8 replaced), so no `</script>` can appear.
std::string script_safe_json(const nlohmann::ordered_json& value);

}  // namespace codebias::reports
