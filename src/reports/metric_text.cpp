#include "reports/metric_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "base/json_fields.h"
#include "reports/html_report.h"

namespace codebias::reports {

std::string rate_text(const std::optional<metrics::RateWithInterval>& rate) {
  if (!rate) return "–";
  return fixed(rate->rate) + " [" + fixed(rate->ci95.lower) + ", " + fixed(rate->ci95.upper) + "] (" +
         std::to_string(rate->numerator) + "/" + std::to_string(rate->denominator) + ")";
}

std::optional<double> json_double(const nlohmann::ordered_json& value) {
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

std::string json_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string markdown_header(const metrics::OutputColumns& output) {
  std::string header;
  for (const auto& column : output.columns) header += " " + column_label(column) + " |";
  return header;
}

std::string markdown_rule(const metrics::OutputColumns& output) {
  std::string rule;
  for (std::size_t i = 0; i < output.columns.size(); ++i) rule += "---|";
  return rule;
}

void write_markdown_table(std::ostream& out, const base::Table& table) { out << base::markdown_table(table); }

namespace {

// Past this many rows a table buries what follows it: it is collapsed behind its summary line.
constexpr std::size_t kMaxOpenTableRows = 25;

std::string table_csv(const base::Table& table) {
  std::string csv;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) csv += (i ? "," : "") + csv_cell(cells[i]);
    csv += "\n";
  };
  line(table.header);
  for (const auto& row : table.rows) line(row);
  return csv;
}

// `text` for a data: URL, every byte outside letters and digits percent-encoded.
std::string percent_encoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 2);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte)) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

void write_open_html_table(std::ostream& out, const base::Table& table) {
  out << "<table><thead><tr>";
  for (const auto& h : table.header) out << "<th>" << html_escape(h) << "</th>";
  out << "</tr></thead><tbody>";
  for (const auto& row : table.rows) {
    out << "<tr>";
    for (const auto& c : row) out << "<td>" << html_escape(c) << "</td>";
    out << "</tr>";
  }
  out << "</tbody></table>";
}

}  // namespace

void write_html_table(std::ostream& out, const base::Table& table, std::string_view csv_name) {
  if (table.rows.size() <= kMaxOpenTableRows) {
    write_open_html_table(out, table);
    return;
  }
  out << "<details class=\"long-table\"><summary>All " << table.rows.size() << " rows (" << table.header.size()
      << " columns) · <a download=\"" << html_escape(csv_name) << "\" href=\"data:text/csv;charset=utf-8,"
      << percent_encoded(table_csv(table)) << "\">" << html_escape(csv_name) << "</a></summary>";
  write_open_html_table(out, table);
  out << "</details>";
}

void write_html(std::ostream& out, const base::Document& document, int heading_offset) {
  bool in_list = false;
  for (const auto& block : document.blocks()) {
    const bool item = block.kind == base::DocumentBlock::Kind::item;
    if (in_list && !item) out << "</ul>";
    if (!in_list && item) out << "<ul>";
    in_list = item;
    switch (block.kind) {
      case base::DocumentBlock::Kind::heading: {
        const int level = std::min(block.level + heading_offset, 6);
        out << "<h" << level << ">" << html_escape(block.text) << "</h" << level << ">";
        break;
      }
      case base::DocumentBlock::Kind::paragraph:
        out << "<p>" << html_escape(block.text) << "</p>";
        break;
      case base::DocumentBlock::Kind::item:
        out << "<li>" << html_escape(block.text) << "</li>";
        break;
      case base::DocumentBlock::Kind::table:
        write_html_table(out, block.table);
        break;
    }
  }
  if (in_list) out << "</ul>";
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_number(const std::optional<double>& value, int digits) {
  if (!value || !std::isfinite(*value)) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, *value);
  return text;
}

std::string fixed(std::optional<double> value, int digits) {
  if (!value || !std::isfinite(*value)) return "–";
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, *value);
  return text;
}

std::string p_value_text(double p) { return p < 0.001 ? "<0.001" : fixed(p); }

std::string mean_sd(std::optional<double> mean, std::optional<double> sd, int digits) {
  if (!mean) return "–";
  return sd ? fixed(mean, digits) + " ± " + fixed(sd, digits) : fixed(mean, digits);
}

std::string preferred_text(const metrics::AttributeMetrics& m) {
  if (m.preferred_group) return *m.preferred_group;
  if (m.preferred_groups.empty()) return "none";
  std::string tie = "tie:";
  for (const auto& g : m.preferred_groups) tie += " " + g;
  return tie;
}

std::string column_label(const metrics::MetricColumn& column) {
  return column.part == metrics::MetricColumn::Part::ci95 ? column.metric->label + " 95% CI" : column.metric->label;
}

std::string cell_text(const metrics::FunctionCell& cell, const metrics::MetricColumn& column, int digits) {
  const auto& metric = *column.metric;
  using Part = metrics::MetricColumn::Part;
  if (column.part == Part::ci95) {
    const auto* interval = metrics::find_interval(cell.intervals, metric.id);
    if (!interval) return "–";
    char text[64];
    std::snprintf(text, sizeof text, "[%.*f, %.*f]", digits, interval->lower, digits, interval->upper);
    return text;
  }
  if (column.part == Part::sd) return fixed(metrics::metric_value(cell.metrics, metric.id, Part::sd), digits);
  if (metric.value == metrics::MetricValue::group) return preferred_text(cell.metrics);
  const auto value = metrics::metric_value(cell.metrics, metric.id);
  return metric.spread ? mean_sd(value, metrics::metric_value(cell.metrics, metric.id, Part::sd), digits)
                       : fixed(value, digits);
}

std::string testcase_text(const nlohmann::ordered_json& attribute, const metrics::MetricSpec& metric, int digits) {
  const auto it = attribute.find(metric.json_key);
  if (it == attribute.end()) return metric.value == metrics::MetricValue::group ? "none" : "–";
  const auto& value = *it;
  switch (metric.value) {
    case metrics::MetricValue::group: return value.is_string() ? value.get<std::string>() : std::string("none");
    case metrics::MetricValue::per_group: {
      std::string shares;
      if (!value.is_object()) return shares;
      for (const auto& [group, share] : value.items()) {
        shares += (shares.empty() ? "" : ", ") + group + " " + fixed(json_double(share), digits);
      }
      return shares;
    }
    default:
      if (metric.spread) {
        if (!value.is_object()) return "–";
        return mean_sd(json_double(value.value("mean", nlohmann::ordered_json())),
                       json_double(value.value("sd", nlohmann::ordered_json())), digits);
      }
      return fixed(json_double(value), digits);
  }
}

}  // namespace codebias::reports
