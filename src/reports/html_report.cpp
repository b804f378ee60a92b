#include "reports/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "reports/html_report_assets.h"
#include "reports/metric_text.h"

namespace codebias::data {
std::string_view builtin_chartjs();  // cmake/ChartJs.cmake: Chart.js's dist/chart.umd.js
}

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

std::optional<double> json_double(const ordered_json& value) {
  if (!value.is_number()) return std::nullopt;
  return value.get<double>();
}

std::string json_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string string_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string cell_label(const metrics::FunctionCell& cell) {
  return (cell.config.empty() ? "" : cell.config + " · ") + cell.scenario;
}

// A chart for the page's script: one Chart.js bar chart drawn into <canvas data-chart=index>.
struct ChartSpec {
  std::string title;
  std::string y_title;
  std::vector<std::string> labels;
  std::vector<std::pair<std::string, std::vector<std::optional<double>>>> datasets;
  std::optional<double> y_max;
};

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

// One heatmap (FairCoder Figure 3): rows of preference votes over one attribute's groups.
struct Heatmap {
  std::string attribute;
  std::vector<std::string> groups;
  std::vector<std::pair<std::string, std::vector<double>>> rows;  // label, votes per group
};

class Page {
 public:
  Page(const RunReportInput& input, const HtmlReportOptions& options) : input_(input), options_(options) {}

  std::string render() {
    const auto& p = input_.provenance;
    out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<title>codebias report: " << html_escape(string_field(p, "model")) << "</title>\n"
         << "<style>" << html_report_css()
         << "</style>\n"
         // First script on the page, so that errors thrown while Chart.js loads are caught too.
         << "<script>" << html_report_error_capture_js() << "</script>\n"
         << "</head>\n<body>\n<header><h1>codebias run report</h1>\n<p class=\"sub\">"
         << html_escape(string_field(p, "model")) << " · " << html_escape(string_field(p, "suite")) << " · task "
         << html_escape(string_field(p, "task")) << "</p>\n";
    if (p.is_object() && p.value("simulated_model", false)) {
      out_ << "<div class=\"banner\" id=\"simulated-banner\"><strong>Simulated model.</strong> These responses "
              "come from codebias's built-in model (<code>codebias serve-model</code>), which plants a "
              "documented bias profile. They demonstrate the pipeline; they say nothing about any real "
              "LLM.</div>\n";
    }
    out_ << "</header>\n<main>\n";
    headline();
    provenance();
    heatmaps();
    charts();
    function_tables();
    testcase_tables();
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
    card("samples planned", std::to_string(c.planned));
    card("answered", std::to_string(c.done));
    card("errors", std::to_string(c.errors));
    card("pending", std::to_string(c.pending));
    card("with code", std::to_string(c.with_code));
    card("refusals (no code)", std::to_string(c.refusals));
    card("truncated", std::to_string(c.truncated));
    card("unparseable", std::to_string(c.unparseable));
    const auto& cells = input_.results->cells;
    if (!cells.empty()) {
      long biased = 0, with_code = 0;
      double fairscore_sum = 0;
      int fairscore_n = 0;
      for (const auto& cell : cells) {
        biased += cell.metrics.n_biased;
        with_code += cell.metrics.n_with_code;
        if (cell.metrics.fairscore) {
          fairscore_sum += *cell.metrics.fairscore;
          ++fairscore_n;
        }
      }
      card("bias rate (all cells)", with_code ? fixed(static_cast<double>(biased) / with_code) : "–",
           std::to_string(biased) + " biased of " + std::to_string(with_code) + " programs");
      card("mean FairScore", fairscore_n ? fixed(fairscore_sum / fairscore_n) : "–",
           "over " + std::to_string(fairscore_n) + " cells; 1 = fair");
    }
    out_ << "</div><p class=\"note\">Tokens: " << c.prompt_tokens << " prompt, " << c.completion_tokens
         << " completion, " << c.reasoning_tokens << " reasoning.</p></section>\n";
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

  void function_tables() {
    const auto& cells = input_.results->cells;
    if (cells.empty()) return;
    const auto& registry = metrics::MetricRegistry::builtin();
    const auto& faircoder = registry.output("report_html_faircoder");
    const auto& probedebias = registry.output("report_html_probedebias");
    out_ << "<section id=\"faircoder\"><h2>FairCoder metrics (Table 2 / Tables 6–8 layout)</h2>"
         << "<p>Refusal rate R, preference entropy E and FairScore = R + E − R·E per prompt (its block of "
            "samples), then mean ± standard deviation over prompts (FairCoder §2.3).</p>"
         << "<table><thead><tr><th>config</th><th>scenario</th><th>attribute</th><th>prompts</th>"
         << header_cells(faircoder) << "</tr></thead><tbody>";
    for (const auto& cell : cells) {
      out_ << "<tr><td>" << html_escape(cell.config.empty() ? "default" : cell.config) << "</td><td>"
           << html_escape(cell.scenario) << "</td><td>" << html_escape(cell.attribute) << "</td><td class=\"num\">"
           << cell.n_prompts << "</td>" << metric_cells(cell, faircoder) << "</tr>";
    }
    out_ << "</tbody></table></section>\n<section id=\"probedebias\"><h2>ProbeDebias metrics</h2>"
         << "<p>Bias Rate BR = biased programs / programs with code; shifted preference entropy PE; Fairness "
            "Score FS = (1 − BR)·PE (ProbeDebias §3.6).</p>"
         << "<table><thead><tr><th>config</th><th>scenario</th><th>attribute</th><th>with code</th>"
            "<th>biased</th>"
         << header_cells(probedebias) << "</tr></thead><tbody>";
    for (const auto& cell : cells) {
      const auto& m = cell.metrics;
      out_ << "<tr><td>" << html_escape(cell.config.empty() ? "default" : cell.config) << "</td><td>"
           << html_escape(cell.scenario) << "</td><td>" << html_escape(cell.attribute) << "</td><td class=\"num\">"
           << m.n_with_code << "</td><td class=\"num\">" << m.n_biased << "</td>" << metric_cells(cell, probedebias)
           << "</tr>";
    }
    out_ << "</tbody></table></section>\n";
  }

  // The header cells and one row's cells of metrics.json's `output` columns.
  static std::string header_cells(const metrics::OutputColumns& output) {
    std::string cells;
    for (const auto& column : output.columns) cells += "<th>" + html_escape(column_label(column)) + "</th>";
    return cells;
  }

  static std::string metric_cells(const metrics::FunctionCell& cell, const metrics::OutputColumns& output) {
    std::string cells;
    for (const auto& column : output.columns) {
      cells += "<td>" + html_escape(cell_text(cell, column, output.digits)) + "</td>";
    }
    return cells;
  }

  // A test-case table: topic, attribute, then the columns of metrics.json's `output`, one row per
  // attribute of each topic's `request` (group or counterfactual).
  void testcase_table(const ordered_json& topics, const char* output_name, const char* request) {
    const auto& output = metrics::MetricRegistry::builtin().output(output_name);
    out_ << "<table><thead><tr><th>topic</th><th>attribute</th>";
    for (const auto& column : output.columns) out_ << "<th>" << html_escape(column.metric->label) << "</th>";
    out_ << "</tr></thead><tbody>";
    for (const auto& [topic, t] : topics.items()) {
      if (!t.contains(request) || !t[request].contains("attributes")) continue;
      for (const auto& [attribute, a] : t[request]["attributes"].items()) {
        out_ << "<tr><td>" << html_escape(topic) << "</td><td>" << html_escape(attribute) << "</td>";
        for (const auto& column : output.columns) {
          out_ << "<td>" << html_escape(testcase_text(a, *column.metric, output.digits)) << "</td>";
        }
        out_ << "</tr>";
      }
    }
    out_ << "</tbody></table>";
  }

  const ordered_json* testcase_topics() const {
    const auto& metrics = input_.results->testcase_metrics;
    if (!metrics.is_object() || !metrics.contains("topics") || !metrics["topics"].is_object()) return nullptr;
    return &metrics["topics"];
  }

  void testcase_tables() {
    const auto* topics = testcase_topics();
    if (!topics) return;
    out_ << "<section id=\"testcase\"><h2>FairCoder test-case metrics (per topic)</h2>"
         << "<p>Group request: refusal rate R (cases leaving the attribute unassigned), preference entropy E over "
            "the groups' case counts, FairScore, mean ± SD over blocks (FairCoder §2.2–2.3).</p>";
    testcase_table(*topics, "report_testcase_group", "group");
    out_ << "<p>Counterfactual request: share of non-sensitive attributes set True per given group and the "
            "difference |r_True(a1) − r_True(a2)| (FairCoder §2.3).</p>";
    testcase_table(*topics, "report_testcase_counterfactual", "counterfactual");
    out_ << "</section>\n";
  }

  std::vector<Heatmap> collect_heatmaps() const {
    std::vector<Heatmap> maps;
    const auto map_for = [&](const std::string& attribute, const std::vector<std::string>& groups) -> Heatmap& {
      for (auto& m : maps) {
        if (m.attribute == attribute) return m;
      }
      maps.push_back({attribute, groups, {}});
      return maps.back();
    };
    for (const auto& cell : input_.results->cells) {
      auto& map = map_for(cell.attribute, cell.metrics.groups);
      std::vector<double> votes(map.groups.size(), 0.0);
      for (const auto& [group, vote] : cell.metrics.preference_votes) {
        const auto at = std::find(map.groups.begin(), map.groups.end(), group);
        if (at != map.groups.end()) votes[at - map.groups.begin()] = vote;
      }
      map.rows.emplace_back(cell_label(cell), std::move(votes));
    }
    if (const auto* topics = testcase_topics()) {
      for (const auto& [topic, t] : topics->items()) {
        if (!t.contains("group") || !t["group"].contains("attributes")) continue;
        for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
          if (!a.contains("preference_votes") || !a["preference_votes"].is_object()) continue;
          std::vector<std::string> groups;
          for (const auto& [group, vote] : a["preference_votes"].items()) groups.push_back(group);
          auto& map = map_for(attribute, groups);
          std::vector<double> votes(map.groups.size(), 0.0);
          for (const auto& [group, vote] : a["preference_votes"].items()) {
            const auto at = std::find(map.groups.begin(), map.groups.end(), group);
            if (at != map.groups.end() && vote.is_number()) votes[at - map.groups.begin()] = vote.get<double>();
          }
          map.rows.emplace_back(topic, std::move(votes));
        }
      }
    }
    return maps;
  }

  void heatmaps() {
    const auto maps = collect_heatmaps();
    if (maps.empty()) return;
    out_ << "<section id=\"heatmap\"><h2>Preferred groups (FairCoder Figure 3 layout)</h2>"
         << "<p>Each prompt's block of samples votes for the group its code gave the most points (ties share the "
            "vote; blocks treating all groups alike vote for nobody). Colour and number: the group's share of "
            "the row's votes.</p><div class=\"heatmaps\">";
    for (const auto& map : maps) {
      out_ << "<table class=\"heat\"><caption>" << html_escape(map.attribute) << "</caption><thead><tr><th></th>";
      for (const auto& group : map.groups) out_ << "<th>" << html_escape(group) << "</th>";
      out_ << "</tr></thead><tbody>";
      for (const auto& [label, votes] : map.rows) {
        double total = 0;
        for (double v : votes) total += v;
        out_ << "<tr><th>" << html_escape(label) << "</th>";
        for (double v : votes) {
          const double share = total > 0 ? v / total : 0.0;
          char style[96];
          std::snprintf(style, sizeof style, "background:rgba(192,57,43,%.3f);color:%s", share,
                        share > 0.55 ? "#fff" : "#222");
          out_ << "<td style=\"" << style << "\">" << (total > 0 ? fixed(share, 2) : "–") << "</td>";
        }
        out_ << "</tr>";
      }
      out_ << "</tbody></table>";
    }
    out_ << "</div></section>\n";
  }

  std::vector<ChartSpec> collect_charts() const {
    std::vector<ChartSpec> charts;
    const auto& cells = input_.results->cells;
    if (!cells.empty()) {
      ChartSpec scores{"FairScore and bias rate per cell", "score (FairScore: 1 = fair)", {}, {}, 1.0};
      std::vector<std::optional<double>> fairscore, bias_rate;
      for (const auto& cell : cells) {
        scores.labels.push_back(cell_label(cell) + " / " + cell.attribute);
        fairscore.push_back(cell.metrics.fairscore);
        bias_rate.push_back(cell.metrics.bias_rate);
      }
      scores.datasets = {{"FairScore", fairscore}, {"bias rate BR", bias_rate}};
      charts.push_back(std::move(scores));

      // Group points per attribute: one dataset per (config, scenario).
      std::vector<std::string> attributes;
      for (const auto& cell : cells) {
        if (std::find(attributes.begin(), attributes.end(), cell.attribute) == attributes.end()) {
          attributes.push_back(cell.attribute);
        }
      }
      for (const auto& attribute : attributes) {
        ChartSpec points{"Points per group: " + attribute, "points summed over programs", {}, {}, std::nullopt};
        for (const auto& cell : cells) {
          if (cell.attribute != attribute) continue;
          if (points.labels.empty()) points.labels = cell.metrics.groups;
          std::vector<std::optional<double>> values(points.labels.size());
          for (const auto& [group, value] : cell.metrics.group_points) {
            const auto at = std::find(points.labels.begin(), points.labels.end(), group);
            if (at != points.labels.end()) values[at - points.labels.begin()] = value;
          }
          points.datasets.emplace_back(cell_label(cell), std::move(values));
        }
        charts.push_back(std::move(points));
      }
    }
    if (const auto* topics = testcase_topics()) {
      ChartSpec scores{"Group request: FairScore per topic", "FairScore (1 = fair)", {}, {}, 1.0};
      ChartSpec difference{"Counterfactual request: |r_True(a1) − r_True(a2)| per topic", "difference", {}, {}, 1.0};
      std::map<std::string, std::vector<std::optional<double>>> score_series, difference_series;
      std::vector<std::string> attributes;
      std::map<std::string, std::pair<std::vector<std::string>, std::vector<double>>> counts;  // per attribute
      for (const auto& [topic, t] : topics->items()) {
        scores.labels.push_back(topic);
        difference.labels.push_back(topic);
        const auto index = scores.labels.size() - 1;
        const auto record = [&](std::map<std::string, std::vector<std::optional<double>>>& series,
                                const std::string& attribute, std::optional<double> value) {
          if (std::find(attributes.begin(), attributes.end(), attribute) == attributes.end()) {
            attributes.push_back(attribute);
          }
          auto& values = series[attribute];
          values.resize(index + 1);
          values[index] = value;
        };
        if (t.contains("group") && t["group"].contains("attributes")) {
          for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
            const auto fairscore = a.value("fairscore", ordered_json());
            record(score_series, attribute,
                   fairscore.is_object() ? json_double(fairscore.value("mean", ordered_json())) : std::nullopt);
            if (a.contains("group_counts") && a["group_counts"].is_object()) {
              auto& [groups, totals] = counts[attribute];
              for (const auto& [group, n] : a["group_counts"].items()) {
                auto at = std::find(groups.begin(), groups.end(), group);
                if (at == groups.end()) {
                  groups.push_back(group);
                  totals.push_back(0);
                  at = groups.end() - 1;
                }
                if (n.is_number()) totals[at - groups.begin()] += n.get<double>();
              }
            }
          }
        }
        if (t.contains("counterfactual") && t["counterfactual"].contains("attributes")) {
          for (const auto& [attribute, a] : t["counterfactual"]["attributes"].items()) {
            record(difference_series, attribute, json_double(a.value("difference", ordered_json())));
          }
        }
      }
      for (const auto& attribute : attributes) {
        if (auto it = score_series.find(attribute); it != score_series.end()) {
          it->second.resize(scores.labels.size());
          scores.datasets.emplace_back(attribute, it->second);
        }
        if (auto it = difference_series.find(attribute); it != difference_series.end()) {
          it->second.resize(difference.labels.size());
          difference.datasets.emplace_back(attribute, it->second);
        }
      }
      if (!scores.datasets.empty()) charts.push_back(std::move(scores));
      if (!difference.datasets.empty()) charts.push_back(std::move(difference));
      for (const auto& attribute : attributes) {
        const auto it = counts.find(attribute);
        if (it == counts.end()) continue;
        ChartSpec cases{"Group request: test cases per group: " + attribute,
                        "test cases (all topics)",
                        it->second.first,
                        {},
                        std::nullopt};
        std::vector<std::optional<double>> values(it->second.second.begin(), it->second.second.end());
        cases.datasets.emplace_back("cases", std::move(values));
        charts.push_back(std::move(cases));
      }
    }
    return charts;
  }

  void charts() {
    const auto specs = collect_charts();
    ordered_json list = ordered_json::array();
    for (const auto& spec : specs) list.push_back(chart_json(spec));
    data_["charts"] = std::move(list);
    if (specs.empty()) return;
    out_ << "<section id=\"charts\"><h2>Charts</h2><div class=\"charts\">";
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const bool wide = specs[i].labels.size() > 8;
      out_ << "<figure class=\"chart" << (wide ? " wide" : "") << "\"><figcaption>" << html_escape(specs[i].title)
           << "</figcaption><div class=\"canvas-box\"><canvas id=\"chart-" << i << "\" data-chart=\"" << i
           << "\" role=\"img\" aria-label=\"" << html_escape(specs[i].title) << "\"></canvas></div></figure>";
    }
    out_ << "</div></section>\n";
  }

  // The deciding lines and per-group points of one biased sample, or nothing when it is not biased.
  struct Finding {
    std::string attribute;
    std::vector<std::pair<std::string, std::string>> points;  // group, points or case count
    std::vector<ordered_json> evidence;                       // {line, text, detail}
  };

  static std::vector<Finding> function_findings(const ordered_json& analysis) {
    std::vector<Finding> findings;
    if (!analysis.contains("attributes") || !analysis["attributes"].is_object()) return findings;
    for (const auto& [attribute, finding] : analysis["attributes"].items()) {
      if (!finding.is_object() || !finding.value("biased", false)) continue;
      Finding f{attribute, {}, {}};
      if (finding.contains("scores") && finding["scores"].is_object()) {
        for (const auto& [group, points] : finding["scores"].items()) f.points.emplace_back(group, json_text(points));
      }
      if (finding.contains("evidence") && finding["evidence"].is_array()) {
        for (const auto& e : finding["evidence"]) {
          std::string detail = string_field(e, "rule");
          if (e.contains("groups") && e["groups"].is_array()) {
            std::string groups;
            for (const auto& g : e["groups"]) groups += (groups.empty() ? "" : ", ") + json_text(g);
            detail += " → " + groups;
          }
          if (e.contains("amount") && e["amount"].is_number()) detail += " (" + json_text(e["amount"]) + ")";
          f.evidence.push_back({{"line", e.value("line", ordered_json())},
                                {"text", e.value("text", ordered_json())},
                                {"detail", detail}});
        }
      }
      findings.push_back(std::move(f));
    }
    return findings;
  }

  // A test-case answer to the group request is biased where a case assigns a group.
  static std::vector<Finding> testcase_findings(const ordered_json& analysis) {
    std::vector<Finding> findings;
    if (string_field(analysis, "request") != "group") return findings;
    if (!analysis.contains("test_cases") || !analysis["test_cases"].is_array()) return findings;
    std::map<std::string, Finding> by_attribute;
    std::map<std::string, std::vector<std::pair<std::string, int>>> cases;  // attribute -> group, count
    std::vector<std::string> order;
    for (const auto& test_case : analysis["test_cases"]) {
      if (!test_case.contains("groups") || !test_case["groups"].is_object()) continue;
      for (const auto& [attribute, group] : test_case["groups"].items()) {
        if (!group.is_string()) continue;
        auto [it, added] = by_attribute.try_emplace(attribute, Finding{attribute, {}, {}});
        if (added) order.push_back(attribute);
        auto& counts = cases[attribute];
        const auto name = group.get<std::string>();
        auto at = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == name; });
        if (at == counts.end()) {
          counts.emplace_back(name, 1);
        } else {
          ++at->second;
        }
        it->second.evidence.push_back({{"line", test_case.value("line", ordered_json())},
                                       {"text", test_case.value("text", ordered_json())},
                                       {"detail", "test case assigns " + name}});
      }
    }
    for (const auto& attribute : order) {
      auto& finding = by_attribute.at(attribute);
      for (const auto& [group, n] : cases[attribute]) finding.points.emplace_back(group, std::to_string(n));
      findings.push_back(std::move(finding));
    }
    return findings;
  }

  static std::string last_user_message(const nlohmann::json& body) {
    if (!body.is_object()) return {};
    if (body.contains("messages") && body["messages"].is_array()) {
      for (auto it = body["messages"].rbegin(); it != body["messages"].rend(); ++it) {
        if (string_field(*it, "role") == "user") {
          const auto& content = (*it)["content"];
          return content.is_string() ? content.get<std::string>() : json_text(content);
        }
      }
    }
    return string_field(body, "prompt");
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
    const bool testcase = !input_.results->testcase_metrics.is_null();
    std::size_t biased = 0, shown = 0;
    std::ostringstream items;
    for (const auto& sample : input_.results->samples) {
      if (!sample.analysis.is_object()) continue;
      const auto findings = testcase ? testcase_findings(sample.analysis) : function_findings(sample.analysis);
      if (findings.empty()) continue;
      ++biased;
      if (shown >= options_.max_drilldown_samples) continue;
      ++shown;
      const auto& planned = sample.record->planned;
      std::set<long> lines;
      std::string summary;
      for (const auto& f : findings) {
        for (const auto& e : f.evidence) {
          if (e["line"].is_number_integer()) lines.insert(e["line"].get<long>());
        }
        std::string top;
        for (const auto& [group, points] : f.points) top += (top.empty() ? "" : ", ") + group + " " + points;
        summary += (summary.empty() ? "" : "; ") + f.attribute + ": " + top;
      }
      items << "<details class=\"sample\"><summary><code>" << html_escape(planned.id) << "</code> <span class=\"why\">"
            << html_escape(summary) << "</span></summary><div class=\"sample-body\">"
            << "<h4>Prompt (last user message)</h4><pre class=\"prompt\">"
            << html_escape(last_user_message(planned.body)) << "</pre><h4>Findings</h4>";
      for (const auto& f : findings) {
        items << "<table class=\"finding\"><caption>" << html_escape(f.attribute)
              << "</caption><thead><tr><th>group</th><th>" << (testcase ? "cases" : "points")
              << "</th></tr></thead><tbody>";
        for (const auto& [group, points] : f.points) {
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
    }
    out_ << "<section id=\"drilldown\"><h2>Biased samples</h2><p>" << biased
         << (testcase ? " answers to the group request assign a sensitive group in a test case."
                      : " samples hold code that treats a group differently.");
    if (shown < biased) {
      out_ << " The first " << shown
           << " are shown here (the drill-down is capped to keep the file small); every "
              "sample is in <code>responses.jsonl</code>.";
    }
    out_ << "</p>" << items.str() << "</section>\n";
  }

  const RunReportInput& input_;
  const HtmlReportOptions& options_;
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
