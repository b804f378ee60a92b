// The text of the report files' table cells: a metric in report.md and report.html (one cell per
// column of metrics.json's outputs, "–" for an undefined value), CSV and Markdown cells, and JSON
// values read back as text. Markdown and HTML escape metric text themselves.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/text_document.h"
#include "metrics/metric_registry.h"
#include "metrics/run_results.h"

namespace codebias::reports {

std::string fixed(std::optional<double> value, int digits = 3);
// A p-value with 3 decimals, "<0.001" below that.
std::string p_value_text(double p);
std::string mean_sd(std::optional<double> mean, std::optional<double> sd, int digits = 3);
// The preferred group, "tie: a b" when groups share the top vote, "none" without votes.
std::string preferred_text(const metrics::AttributeMetrics& m);

// A share as "0.250 [0.100, 0.500] (5/20)"; "–" when undefined.
std::string rate_text(const std::optional<metrics::RateWithInterval>& rate);

// The column's header: the metric's label, "<label> 95% CI" for its interval.
std::string column_label(const metrics::MetricColumn& column);
// A function-task cell's value in that column: mean ± sd for a metric with a spread, the
// interval as "[lower, upper]".
std::string cell_text(const metrics::FunctionCell& cell, const metrics::MetricColumn& column, int digits);
// A test-case metric read from its attribute object in testcase_metrics (tasks/testcase/testcase_metrics.h):
// {"mean", "sd"} objects as mean ± sd, groups per name as "group value, ...", a group or "none".
std::string testcase_text(const nlohmann::ordered_json& attribute, const metrics::MetricSpec& metric, int digits);

// The header cells and the rule of a report.md table's metric columns (after the leading columns
// the caller writes).
std::string markdown_header(const metrics::OutputColumns& output);
std::string markdown_rule(const metrics::OutputColumns& output);
using base::markdown_cell;

// `text` as one CSV cell, quoted when it holds a comma, quote or newline.
std::string csv_cell(const std::string& text);
// A number with `digits` decimals; "" when undefined.
std::string csv_number(const std::optional<double>& value, int digits);

// A table as report.md and report.html show it (cells escaped by the writer).
void write_markdown_table(std::ostream& out, const base::Table& table);
// A table of more than 25 rows is collapsed (<details>) behind a line with its size and a link
// that saves it as `csv_name`: the caller's summary above it stays the first thing read.
void write_html_table(std::ostream& out, const base::Table& table, std::string_view csv_name = "table.csv");
// A document (base/text_document.h) as HTML: headings shifted down by `heading_offset` levels.
void write_html(std::ostream& out, const base::Document& document, int heading_offset);

std::optional<double> json_double(const nlohmann::ordered_json& value);
// A string as itself, anything else as compact JSON (invalid UTF-8 replaced).
std::string json_text(const nlohmann::json& value);

}  // namespace codebias::reports
