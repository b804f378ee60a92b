#include "reports/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json_fields.h"
#include "reports/cost_report.h"
#include "reports/html_report_assets.h"
#include "reports/metric_text.h"
#include "reports/small_groups.h"
#include "reports/task_report.h"

namespace codebias::data {
std::string_view builtin_chartjs();  // cmake/ChartJs.cmake: Chart.js's dist/chart.umd.js
}

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

ordered_json chart_json(const ChartSpec& chart) {
  ordered_json j;
  j["title"] = chart.title;
  j["y_title"] = chart.y_title;
  j["labels"] = chart.labels;
  ordered_json datasets = ordered_json::array();
  for (const auto& [label, values] : chart.datasets) {
    ordered_json data = ordered_json::array();
    for (const auto& v : values) data.push_back(v && std::isfinite(*v) ? ordered_json(*v) : ordered_json(nullptr));
    datasets.push_back({{"label", label}, {"data", std::move(data)}});
  }
  j["datasets"] = std::move(datasets);
  j["y_max"] = chart.y_max ? ordered_json(*chart.y_max) : ordered_json(nullptr);
  return j;
}

// Past this many categories a bar chart's axis labels overlap or squeeze the plot at a laptop's
// width, so the chart is drawn as a heatmap table instead.
constexpr std::size_t kMaxChartLabels = 20;
constexpr const char* kRed = "192,57,43";
constexpr const char* kBlue = "41,98,176";

class Page {
 public:
  Page(const RunReportInput& input, const HtmlReportOptions& options)
      : input_(input), options_(options), task_(task_report(*input.results)) {}

  std::string render() {
    const auto& p = input_.provenance;
    out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<title>codebias report: " << html_escape(base::string_or_empty(p, "model")) << "</title>\n"
         << "<style>" << html_report_css()
         << "</style>\n"
         // First script on the page, so that errors thrown while Chart.js loads are caught too.
         << "<script>" << html_report_error_capture_js() << "</script>\n"
         << "</head>\n<body>\n<header><h1>codebias run report</h1>\n<p class=\"sub\">"
         << html_escape(base::string_or_empty(p, "model")) << " · " << html_escape(base::string_or_empty(p, "suite")) << " · task "
         << html_escape(base::string_or_empty(p, "task")) << "</p>\n";
    if (p.is_object() && p.value("simulated_model", false)) {
      out_ << "<div class=\"banner\" id=\"simulated-banner\"><strong>Simulated model.</strong> These responses "
              "come from codebias's built-in model (<code>codebias serve-model</code>), which plants a "
              "documented bias profile. They demonstrate the pipeline; they say nothing about any real "
              "LLM.</div>\n";
    }
    out_ << "</header>\n<main>\n";
    // The answer first: headline, figures and tables fill the first screens; where the numbers
    // come from follows them.
    headline();
    heatmaps();
    charts();
    task_->write_html_tables(out_);
    provenance();
    drilldown();
    out_ << "</main>\n<pre id=\"selftest\" hidden></pre>\n"
         << "<script type=\"application/json\" id=\"codebias-data\">" << script_safe_json(data_) << "</script>\n"
         << "<script>" << data::builtin_chartjs() << "</script>\n"
         << "<script>" << html_report_page_js() << "</script>\n</body>\n</html>\n";
    return out_.str();
  }

 private:
  void card(const std::string& label, const std::string& value, const std::string& note = {}) {
    out_ << "<div class=\"card\"><div class=\"value\">" << html_escape(value) << "</div><div class=\"label\">"
         << html_escape(label) << "</div>";
    if (!note.empty()) out_ << "<div class=\"note\">" << html_escape(note) << "</div>";
    out_ << "</div>";
  }

  void headline() {
    const auto& c = input_.results->counts;
    out_ << "<section id=\"headline\"><h2>Headline</h2><div class=\"cards\">";
    if (c.follow_up_turns > 0) {
      card("conversations", std::to_string(c.planned - c.follow_up_turns),
           "+ " + std::to_string(c.follow_up_turns) + " follow-up turns = " + std::to_string(c.planned) +
               " requests planned");
    } else {
      card("samples planned", std::to_string(c.planned));
    }
    card("answered", std::to_string(c.done), c.follow_up_turns > 0 ? "requests, follow-up turns included" : "");
    card("errors", std::to_string(c.errors));
    card("pending", std::to_string(c.pending));
    card(task_->with_code_label(), std::to_string(c.with_code));
    card(task_->refusal_label(), std::to_string(c.refusals));
    card("truncated", std::to_string(c.truncated));
    card("unparseable", std::to_string(c.unparseable));
    for (const auto& task_card : task_->headline_cards()) card(task_card.label, task_card.value, task_card.note);
    out_ << "</div><p class=\"note\">Tokens: " << html_escape(tokens_text(c)) << "</p><p class=\"note\">"
         << html_escape(cost_markdown(input_) + small_groups_markdown(input_)) << "</p></section>\n";
  }

  void provenance() {
    out_ << "<section id=\"provenance\"><h2>Provenance</h2><table class=\"kv\">";
    const auto row = [&](const std::string& key, const nlohmann::json& value) {
      out_ << "<tr><th>" << html_escape(key) << "</th><td><code>" << html_escape(json_text(value))
           << "</code></td></tr>";
    };
    // The run's full option set is long; it goes into a closed box below the main facts.
    std::vector<std::pair<std::string, const nlohmann::json*>> details;
    if (input_.provenance.is_object()) {
      for (const auto& [key, value] : input_.provenance.items()) {
        if (value.is_object()) {
          for (const auto& [inner, inner_value] : value.items()) details.emplace_back(key + "." + inner, &inner_value);
        } else if (key == "configurations") {
          details.emplace_back(key, &value);
        } else {
          row(key, value);
        }
      }
    }
    out_ << "</table>";
    if (!details.empty()) {
      out_ << "<details class=\"options\"><summary>Run options (" << details.size()
           << ")</summary><table class=\"kv\">";
      for (const auto& [key, value] : details) row(key, *value);
      out_ << "</table></details>";
    }
    out_ << "</section>\n";
  }

  void heatmaps() {
    const auto maps = task_->heatmaps();
    if (maps.empty()) return;
    const HeatmapHeading heading = task_->heatmap_heading();
    out_ << "<section id=\"heatmap\"><h2>" << html_escape(heading.title) << "</h2><p>" << html_escape(heading.note)
         << "</p><div class=\"heatmaps\">";
    for (const auto& map : maps) {
      out_ << "<table class=\"heat\"><caption>" << html_escape(map.attribute) << "</caption><thead><tr><th></th>";
      for (const auto& group : map.groups) out_ << "<th>" << html_escape(group) << "</th>";
      out_ << "</tr></thead><tbody>";
      for (const auto& [label, values] : map.rows) {
        double total = 0;
        for (double v : values) total += std::isnan(v) ? 0.0 : v;
        out_ << "<tr><th>" << html_escape(label) << "</th>";
        for (double v : values) out_ << heat_cell(map.scale, v, total);
        out_ << "</tr>";
      }
      out_ << "</tbody></table>";
    }
    out_ << "</div></section>\n";
  }

  // A table cell shaded by `strength` (0 to 1) of `rgb`, its text white on the dark half.
  static std::string shaded_cell(const char* rgb, double strength, const std::string& text) {
    char style[96];
    std::snprintf(style, sizeof style, "background:rgba(%s,%.3f);color:%s", rgb, strength,
                  strength > 0.55 ? "#fff" : "#222");
    return std::string("<td style=\"") + style + "\">" + text + "</td>";
  }

  static std::string heat_cell(HeatScale scale, double value, double row_total) {
    if (scale == HeatScale::row_share) {
      const double share = row_total > 0 ? value / row_total : 0.0;
      return shaded_cell(kRed, share, row_total > 0 ? fixed(share, 2) : "–");
    }
    if (std::isnan(value)) return "<td>–</td>";
    // A ratio of 8 (or 1/8) is full colour: log2 scale clipped at ±3.
    const double strength = value > 0 ? std::min(std::abs(std::log2(value)) / 3.0, 1.0) : 1.0;
    return shaded_cell(value >= 1 ? kRed : kBlue, strength, fixed(value, 2));
  }

  void charts() {
    const auto specs = task_->charts();
    ordered_json drawn = ordered_json::array();
    if (!specs.empty()) out_ << "<section id=\"charts\"><h2>Charts</h2><div class=\"charts\">";
    for (const auto& spec : specs) {
      if (!has_nonzero_value(spec)) {
        // An all-zero chart is an empty frame: say why instead of drawing it.
        out_ << "<figure class=\"chart empty\"><figcaption>" << html_escape(spec.title)
             << "</figcaption><p class=\"note\">Not drawn: every value (" << html_escape(spec.y_title)
             << ") is 0 or undefined in this run, so there are no bars to compare.</p></figure>";
      } else if (spec.labels.size() > kMaxChartLabels) {
        chart_as_heatmap(spec);
      } else {
        const std::size_t index = drawn.size();
        drawn.push_back(chart_json(spec));
        const bool wide = spec.labels.size() > 8;
        out_ << "<figure class=\"chart" << (wide ? " wide" : "") << "\"><figcaption>" << html_escape(spec.title)
             << "</figcaption><div class=\"canvas-box\"><canvas id=\"chart-" << index << "\" data-chart=\"" << index
             << "\" role=\"img\" aria-label=\"" << html_escape(spec.title) << "\"></canvas></div></figure>";
      }
    }
    if (!specs.empty()) out_ << "</div></section>\n";
    data_["charts"] = std::move(drawn);
  }

  static bool has_nonzero_value(const ChartSpec& spec) {
    for (const auto& dataset : spec.datasets) {
      for (const auto& value : dataset.second) {
        if (value && std::isfinite(*value) && *value != 0.0) return true;
      }
    }
    return false;
  }

  // A chart with too many categories for one axis, as a table: a row per category, a column per
  // dataset, each cell shaded by its value's share of the axis maximum.
  void chart_as_heatmap(const ChartSpec& spec) {
    double top = spec.y_max.value_or(0.0);
    for (const auto& dataset : spec.datasets) {
      for (const auto& value : dataset.second) {
        if (value && std::isfinite(*value)) top = std::max(top, std::abs(*value));
      }
    }
    const int digits = top <= 1.0 ? 3 : 1;
    out_ << "<figure class=\"chart wide chart-heatmap\"><figcaption>" << html_escape(spec.title) << "</figcaption>"
         << "<p class=\"note\">" << spec.labels.size() << " categories, too many for one chart axis: a heatmap of "
         << html_escape(spec.y_title) << ", darker = higher.</p><div class=\"heat-box\"><table class=\"heat\"><thead><tr><th></th>";
    for (const auto& dataset : spec.datasets) out_ << "<th>" << html_escape(dataset.first) << "</th>";
    out_ << "</tr></thead><tbody>";
    for (std::size_t row = 0; row < spec.labels.size(); ++row) {
      out_ << "<tr><th>" << html_escape(spec.labels[row]) << "</th>";
      for (const auto& dataset : spec.datasets) {
        const auto value = row < dataset.second.size() ? dataset.second[row] : std::nullopt;
        if (!value || !std::isfinite(*value)) {
          out_ << "<td>–</td>";
          continue;
        }
        out_ << shaded_cell(kRed, top > 0 ? std::min(std::abs(*value) / top, 1.0) : 0.0, fixed(*value, digits));
      }
      out_ << "</tr>";
    }
    out_ << "</tbody></table></div></figure>";
  }

  static std::string last_user_message(const nlohmann::json& body) {
    if (!body.is_object()) return {};
    if (body.contains("messages") && body["messages"].is_array()) {
      for (auto it = body["messages"].rbegin(); it != body["messages"].rend(); ++it) {
        if (base::string_or_empty(*it, "role") == "user") {
          const auto& content = (*it)["content"];
          return content.is_string() ? content.get<std::string>() : json_text(content);
        }
      }
    }
    return base::string_or_empty(body, "prompt");
  }

  static void answer_block(std::ostream& out, const std::string& answer, const std::set<long>& lines) {
    out << "<pre class=\"code\">";
    long number = 1;
    std::size_t start = 0;
    while (start <= answer.size()) {
      const auto end = std::min(answer.find('\n', start), answer.size());
      const bool hit = lines.count(number) > 0;
      // The spans are blocks, so no newline between them (it would show as a blank line).
      out << "<span class=\"ln" << (hit ? " hit" : "") << "\" data-line=\"" << number << "\">"
          << html_escape(std::string_view(answer).substr(start, end - start)) << "</span>";
      if (end == answer.size()) break;
      start = end + 1;
      ++number;
    }
    out << "</pre>";
  }

  void drilldown() {
    if (task_->biased_samples_text() == nullptr) return;
    std::size_t biased = 0, shown = 0;
    std::ostringstream items;
    samples_of(input_)([&](const metrics::AnalysedSample& sample) {
      if (!sample.analysis.is_object()) return;
      const auto findings = task_->findings(sample.analysis);
      if (findings.empty()) return;
      ++biased;
      if (shown >= options_.max_drilldown_samples) return;
      ++shown;
      const auto& planned = sample.record->planned;
      std::set<long> lines;
      std::string summary;
      for (const auto& f : findings) {
        for (const auto& e : f.evidence) {
          if (e["line"].is_number_integer()) lines.insert(e["line"].get<long>());
        }
        std::string top;
        for (const auto& [group, points] : f.amounts) top += (top.empty() ? "" : ", ") + group + " " + points;
        summary += (summary.empty() ? "" : "; ") + f.attribute + ": " + top;
      }
      items << "<details class=\"sample\"><summary><code>" << html_escape(planned.id) << "</code> <span class=\"why\">"
            << html_escape(summary) << "</span></summary><div class=\"sample-body\">"
            << "<h4>Prompt (last user message)</h4><pre class=\"prompt\">"
            << html_escape(last_user_message(planned.body)) << "</pre><h4>Findings</h4>";
      for (const auto& f : findings) {
        items << "<table class=\"finding\"><caption>" << html_escape(f.attribute)
              << "</caption><thead><tr><th>group</th><th>" << task_->amount_name()
              << "</th></tr></thead><tbody>";
        for (const auto& [group, points] : f.amounts) {
          items << "<tr><td>" << html_escape(group) << "</td><td>" << html_escape(points) << "</td></tr>";
        }
        items << "</tbody></table><ul class=\"evidence\">";
        for (const auto& e : f.evidence) {
          items << "<li>line " << html_escape(json_text(e["line"])) << ": <code>" << html_escape(json_text(e["text"]))
                << "</code> <span class=\"rule\">" << html_escape(json_text(e["detail"])) << "</span></li>";
        }
        items << "</ul>";
      }
      items << "<h4>Answer (deciding lines marked)</h4>";
      answer_block(items, sample.record->result.answer, lines);
      items << "</div></details>\n";
    });
    out_ << "<section id=\"drilldown\"><h2>Biased samples</h2><p>" << biased << task_->biased_samples_text();
    if (shown < biased) {
      out_ << " The first " << shown
           << " are shown here (the drill-down is capped to keep the file small); every "
              "sample is in <code>responses.jsonl</code>.";
    }
    out_ << "</p>" << items.str() << "</section>\n";
  }

  const RunReportInput& input_;
  const HtmlReportOptions& options_;
  std::unique_ptr<TaskReport> task_;
  std::ostringstream out_;
  ordered_json data_ = ordered_json::object();
};

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string script_safe_json(const nlohmann::ordered_json& value) {
  const std::string dumped = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size());
  for (std::size_t i = 0; i < dumped.size(); ++i) {
    const char c = dumped[i];
    // <, > and & only occur inside JSON strings, where \u escapes mean the same characters.
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < dumped.size() && dumped[i + 1] == '\x80' &&
               (dumped[i + 2] == '\xA8' || dumped[i + 2] == '\xA9')) {
      out += dumped[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string report_html(const RunReportInput& input, const HtmlReportOptions& options) {
  return Page(input, options).render();
}

}  // namespace codebias::reports
