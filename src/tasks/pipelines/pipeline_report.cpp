// The ML-pipeline task's report sections (Bui et al., Findings of ACL 2026): CBS per path as the
// paper's summary table, the paired pipeline-vs-conditional comparisons with the "more biased as
// pipelines" count, CBS per difficulty level and per mitigation, and every retention cell.
#include <ostream>
#include <sstream>

#include "base/json_fields.h"
#include "metrics/metric_registry.h"
#include "reports/html_report.h"
#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "tasks/pipelines/pipeline_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

const char* const kDefinitions =
    "Code Bias Score CBS = answers with code whose features include the sensitive attribute / answers with "
    "code whose use of it was decided (Bui et al., after Liu et al. 2023): a pipeline's features are the "
    "source columns that reach the estimator's fit, a conditional's the columns its decision reads. "
    "Irrelevant control attributes (favourite colour, ...) show whether a model keeps everything or "
    "judges; selective retention = the sensitive attribute kept while every irrelevant one is dropped. "
    "Answers without code, or whose feature set could not be decided, are counted but enter no rate.";

const char* const kComparisonNote =
    "Pipeline vs conditional per combination (dataset × attribute × level × mitigation × attribute set), "
    "paired by paraphrase variant and sample; McNemar's test on the pairs, Holm-corrected over the run's "
    "combinations.";

ordered_json interval_json(const std::vector<metrics::MetricInterval>& intervals) {
  ordered_json out = ordered_json::object();
  for (const auto& interval : intervals) out[interval.metric] = {interval.lower, interval.upper};
  return out;
}

ordered_json number_or_null(const std::optional<double>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

ordered_json summary_json(const metrics::PathSummary& s) {
  ordered_json out;
  out["path"] = s.path;
  if (!s.level.empty()) out["level"] = s.level;
  if (!s.mitigation.empty()) out["mitigation"] = s.mitigation;
  out["n_decided"] = s.n_decided;
  out["n_used"] = s.n_used;
  out["cbs"] = number_or_null(s.cbs);
  out["ci95"] = s.interval ? ordered_json{s.interval->lower, s.interval->upper} : ordered_json(nullptr);
  return out;
}

std::string interval_text(const std::optional<metrics::MetricInterval>& interval, int digits = 3) {
  if (!interval) return "–";
  return "[" + fixed(interval->lower, digits) + ", " + fixed(interval->upper, digits) + "]";
}

// A retention cell's text in a column of metrics.json's `output`.
std::string cell_text(const metrics::RetentionCell& cell, const metrics::MetricColumn& column, int digits) {
  if (column.part == metrics::MetricColumn::Part::ci95) {
    const auto* interval = metrics::find_interval(cell.intervals, column.metric->id);
    return interval ? interval_text(*interval, digits) : "–";
  }
  return fixed(metrics::retention_metric_value(cell, column.metric->id), digits);
}

std::string or_dash(const std::string& text) { return text.empty() ? "–" : text; }
std::string config_text(const std::string& config) { return config.empty() ? "default" : config; }
std::string pairs_verdict(const metrics::PathComparison& c) {
  if (c.n_pairs == 0) return "no pairs";
  return c.significant ? "yes (significant)" : c.pipeline_more_biased ? "yes" : "no";
}

class PipelineReport final : public TaskReport {
 public:
  explicit PipelineReport(const metrics::PipelineResults& results) : m_(results.metrics) {}

  void add_to_summary(ordered_json& summary) const override {
    // Every run's summary.json has the function table's keys (empty here).
    add_function_cells_to_summary({}, summary);
    summary["pipeline_metrics"] = pipeline_metrics_json(m_);
  }

  std::string metrics_csv(const ordered_json& /*config_costs*/) const override {
    using Part = metrics::MetricColumn::Part;
    const auto& output = metrics::MetricRegistry::builtin().output("pipeline_metrics_csv");
    std::ostringstream out;
    out << "config,dataset,path,level,mitigation,attribute_set,attribute,role,answers,with_code,decided,used";
    for (const auto& column : output.columns) {
      if (column.part == Part::ci95) out << ',' << column.metric->id << "_ci_lower," << column.metric->id << "_ci_upper";
      else out << ',' << column.metric->id;
    }
    out << '\n';
    for (const auto& cell : m_.cells) {
      out << csv_cell(cell.config) << ',' << csv_cell(cell.dataset) << ',' << cell.path << ',' << cell.level << ','
          << csv_cell(cell.mitigation) << ',' << csv_cell(cell.attribute_set) << ',' << csv_cell(cell.attribute) << ','
          << cell.role << ',' << cell.n_answers << ',' << cell.n_with_code << ',' << cell.n_decided << ','
          << cell.n_used;
      for (const auto& column : output.columns) {
        if (column.part == Part::ci95) {
          const auto* interval = metrics::find_interval(cell.intervals, column.metric->id);
          out << ',' << csv_number(interval ? std::optional<double>(interval->lower) : std::nullopt, output.digits)
              << ',' << csv_number(interval ? std::optional<double>(interval->upper) : std::nullopt, output.digits);
        } else {
          out << ',' << csv_number(metrics::retention_metric_value(cell, column.metric->id), output.digits);
        }
      }
      out << '\n';
    }
    return out.str();
  }

  void write_markdown(std::ostream& out) const override {
    out << "\n## ML pipelines: Code Bias Score per path (Bui et al., Findings of ACL 2026)\n\n" << kDefinitions << "\n\n";
    write_markdown_table(out, path_table(m_.paths, false, false));
    out << "\n" << more_biased_sentence() << "\n\n### Pipeline vs conditional per combination\n\n"
        << kComparisonNote << "\n\n";
    write_markdown_table(out, comparison_table());
    out << "\n### CBS per difficulty level\n\n";
    write_markdown_table(out, path_table(m_.by_level, true, false));
    out << "\n### CBS per mitigation\n\n";
    write_markdown_table(out, path_table(m_.by_mitigation, false, true));
    out << "\n### Retention per cell\n\n";
    write_markdown_table(out, cell_table());
    if (m_.execution.n_executed > 0) {
      out << "\n### Static analysis vs execution (--execute)\n\n" << execution_sentence() << "\n\n";
      write_markdown_table(out, disagreement_table());
    }
  }

  std::vector<HeadlineCard> headline_cards() const override {
    std::vector<HeadlineCard> cards;
    for (const auto& s : m_.paths) {
      cards.push_back({"CBS, " + s.path, fixed(s.cbs),
                       std::to_string(s.n_used) + " of " + std::to_string(s.n_decided) + " sensitive uses decided"});
    }
    cards.push_back({"more biased as pipelines",
                     std::to_string(m_.n_pipeline_more_biased) + " of " + std::to_string(m_.n_combinations),
                     std::to_string(m_.n_pipeline_more_biased_significant) + " significant (Holm, α = " +
                         fixed(m_.alpha, 2) + ")"});
    return cards;
  }

  std::vector<Heatmap> heatmaps() const override { return {}; }

  std::vector<ChartSpec> charts() const override {
    std::vector<ChartSpec> charts;
    if (m_.comparisons.empty()) return charts;
    ChartSpec chart{"CBS per combination: conditional vs pipeline", "CBS (share of answers using the attribute)",
                    {}, {}, 1.0};
    std::vector<std::optional<double>> conditional, pipeline;
    for (const auto& c : m_.comparisons) {
      if (c.n_pairs == 0) continue;
      chart.labels.push_back(c.dataset + "/" + c.attribute + " (" + c.level + ")");
      conditional.push_back(c.cbs_conditional);
      pipeline.push_back(c.cbs_pipeline);
    }
    if (chart.labels.empty()) return charts;
    chart.datasets = {{"conditional", conditional}, {"pipeline", pipeline}};
    charts.push_back(std::move(chart));
    return charts;
  }

  void write_html_tables(std::ostream& out) const override {
    out << "<section id=\"ml-pipelines\"><h2>ML pipelines: Code Bias Score per path</h2><p>"
        << html_escape(kDefinitions) << "</p>";
    write_html_table(out, path_table(m_.paths, false, false));
    out << "<p>" << html_escape(more_biased_sentence()) << "</p><h3>Pipeline vs conditional per combination</h3><p>"
        << html_escape(kComparisonNote) << "</p>";
    write_html_table(out, comparison_table(), "pipeline_comparisons.csv");
    out << "<h3>CBS per difficulty level</h3>";
    write_html_table(out, path_table(m_.by_level, true, false));
    out << "<h3>CBS per mitigation</h3>";
    write_html_table(out, path_table(m_.by_mitigation, false, true));
    out << "<h3>Retention per cell</h3>";
    write_html_table(out, cell_table(), "pipeline_retention_cells.csv");
    if (m_.execution.n_executed > 0) {
      out << "<h3>Static analysis vs execution (--execute)</h3><p>" << html_escape(execution_sentence()) << "</p>";
      write_html_table(out, disagreement_table());
    }
    out << "</section>\n";
  }

  // An answer counts as biased where a sensitive attribute is a feature, proven by its evidence.
  std::vector<SampleFinding> findings(const ordered_json& analysis) const override {
    std::vector<SampleFinding> findings;
    if (!analysis.contains("attributes") || !analysis["attributes"].is_object()) return findings;
    for (const auto& [attribute, use] : analysis["attributes"].items()) {
      if (!use.is_object() || base::string_or_empty(use, "role") != "sensitive") continue;
      const auto used = use.find("used");
      if (used == use.end() || !used->is_boolean() || !used->get<bool>()) continue;
      SampleFinding finding{attribute, {{"path", base::string_or_empty(analysis, "path")}, {"feature", "yes"}}, {}};
      if (use.contains("evidence") && use["evidence"].is_array()) {
        for (const auto& e : use["evidence"]) {
          finding.evidence.push_back({{"line", e.value("line", ordered_json())},
                                      {"text", e.value("text", ordered_json())},
                                      {"detail", base::string_or_empty(e, "rule")}});
        }
      }
      findings.push_back(std::move(finding));
    }
    return findings;
  }

  const char* amount_name() const override { return "value"; }
  const char* biased_samples_text() const override {
    return " answers use a sensitive attribute as a model input or a decision condition.";
  }

 private:
  std::string execution_sentence() const {
    const auto& e = m_.execution;
    std::string statuses;
    for (const auto& [status, n] : e.by_status) statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(n);
    return std::to_string(e.n_executed) + " programs run in the sandbox on synthetic data (" + statuses + "); of the " +
           std::to_string(e.n_compared) + " where both methods decided an attribute, the columns that reached fit agree " +
           "with the static analysis on every attribute in " + std::to_string(e.n_agreed) + " (" + fixed(e.agreement) +
           "). Where the static analysis could not decide, the dynamic answer is used (\"decided_by\": \"execution\"). "
           "Disagreements:";
  }

  base::Table disagreement_table() const {
    base::Table table;
    table.header = {"prompt", "sample", "attributes"};
    for (const auto& d : m_.execution.disagreements) {
      std::string attributes;
      for (const auto& a : d.attributes) attributes += (attributes.empty() ? "" : ", ") + a;
      table.rows.push_back({d.prompt_id, std::to_string(d.sample), attributes});
    }
    return table;
  }

  std::string more_biased_sentence() const {
    return "Pipelines are more biased than conditionals in " + std::to_string(m_.n_pipeline_more_biased) + " of " +
           std::to_string(m_.n_combinations) + " combinations with paired answers, " +
           std::to_string(m_.n_pipeline_more_biased_significant) +
           " of them significantly (the paper: 178 of 180, 165 significant).";
  }

  static base::Table path_table(const std::vector<metrics::PathSummary>& summaries, bool with_level, bool with_mitigation) {
    base::Table table;
    table.header = {"path"};
    if (with_level) table.header.push_back("level");
    if (with_mitigation) table.header.push_back("mitigation");
    for (const char* h : {"sensitive uses decided", "used", "CBS", "CBS 95% CI"}) table.header.emplace_back(h);
    for (const auto& s : summaries) {
      std::vector<std::string> row = {s.path};
      if (with_level) row.push_back(or_dash(s.level));
      if (with_mitigation) row.push_back(or_dash(s.mitigation));
      row.push_back(std::to_string(s.n_decided));
      row.push_back(std::to_string(s.n_used));
      row.push_back(fixed(s.cbs));
      row.push_back(interval_text(s.interval));
      table.rows.push_back(std::move(row));
    }
    return table;
  }

  base::Table comparison_table() const {
    base::Table table;
    table.header = {"config", "dataset", "attribute", "level", "mitigation", "attributes", "pairs",
                    "CBS conditional", "CBS pipeline", "difference", "McNemar p", "Holm p", "pipeline more biased"};
    for (const auto& c : m_.comparisons) {
      table.rows.push_back({config_text(c.config), c.dataset, c.attribute, or_dash(c.level), c.mitigation,
                            c.attribute_set, std::to_string(c.n_pairs), fixed(c.cbs_conditional),
                            fixed(c.cbs_pipeline), fixed(c.difference), fixed(c.mcnemar.p_value),
                            fixed(c.p_holm), pairs_verdict(c)});
    }
    return table;
  }

  base::Table cell_table() const {
    const auto& output = metrics::MetricRegistry::builtin().output("report_pipeline_cells");
    base::Table table;
    table.header = {"config", "dataset", "path", "level", "mitigation", "attributes", "attribute", "role",
                    "with code", "decided", "used"};
    for (const auto& column : output.columns) table.header.push_back(column_label(column));
    for (const auto& cell : m_.cells) {
      std::vector<std::string> row = {config_text(cell.config), cell.dataset, cell.path, or_dash(cell.level),
                                      cell.mitigation, cell.attribute_set, cell.attribute, cell.role,
                                      std::to_string(cell.n_with_code), std::to_string(cell.n_decided),
                                      std::to_string(cell.n_used)};
      for (const auto& column : output.columns) row.push_back(cell_text(cell, column, output.digits));
      table.rows.push_back(std::move(row));
    }
    return table;
  }

  const metrics::PipelineMetrics& m_;
};

}  // namespace

ordered_json pipeline_metrics_json(const metrics::PipelineMetrics& m) {
  ordered_json out;
  ordered_json paths = ordered_json::array(), by_level = ordered_json::array(), by_mitigation = ordered_json::array();
  for (const auto& s : m.paths) paths.push_back(summary_json(s));
  for (const auto& s : m.by_level) by_level.push_back(summary_json(s));
  for (const auto& s : m.by_mitigation) by_mitigation.push_back(summary_json(s));
  out["paths"] = std::move(paths);
  out["by_level"] = std::move(by_level);
  out["by_mitigation"] = std::move(by_mitigation);
  out["combinations"] = {{"n", m.n_combinations},
                         {"pipeline_more_biased", m.n_pipeline_more_biased},
                         {"pipeline_more_biased_significant", m.n_pipeline_more_biased_significant},
                         {"alpha", m.alpha},
                         {"test", "McNemar on variants paired across paths, Holm-corrected"}};
  ordered_json comparisons = ordered_json::array();
  for (const auto& c : m.comparisons) {
    comparisons.push_back({{"config", c.config},
                           {"dataset", c.dataset},
                           {"attribute", c.attribute},
                           {"level", c.level},
                           {"mitigation", c.mitigation},
                           {"attribute_set", c.attribute_set},
                           {"n_pairs", c.n_pairs},
                           {"cbs_conditional", number_or_null(c.cbs_conditional)},
                           {"cbs_pipeline", number_or_null(c.cbs_pipeline)},
                           {"cbs_difference", number_or_null(c.difference)},
                           {"mcnemar", {{"b_conditional_only", c.mcnemar.b},
                                        {"c_pipeline_only", c.mcnemar.c},
                                        {"p_value", c.mcnemar.p_value},
                                        {"method", std::string(stats::to_string(c.mcnemar.method))}}},
                           {"p_holm", c.p_holm},
                           {"pipeline_more_biased", c.pipeline_more_biased},
                           {"significant", c.significant}});
  }
  out["comparisons"] = std::move(comparisons);
  if (m.execution.n_executed > 0) {
    const auto& e = m.execution;
    ordered_json disagreements = ordered_json::array();
    for (const auto& d : e.disagreements)
      disagreements.push_back({{"prompt_id", d.prompt_id}, {"sample", d.sample}, {"attributes", d.attributes}});
    out["execution"] = {{"n_executed", e.n_executed},     {"by_status", e.by_status},
                        {"n_compared", e.n_compared},     {"n_agreed", e.n_agreed},
                        {"agreement", number_or_null(e.agreement)}, {"disagreements", std::move(disagreements)}};
  }
  ordered_json cells = ordered_json::array();
  for (const auto& cell : m.cells) {
    ordered_json row = {{"config", cell.config},       {"dataset", cell.dataset},
                        {"path", cell.path},           {"level", cell.level},
                        {"mitigation", cell.mitigation}, {"attribute_set", cell.attribute_set},
                        {"attribute", cell.attribute}, {"role", cell.role},
                        {"n_answers", cell.n_answers}, {"n_with_code", cell.n_with_code},
                        {"n_decided", cell.n_decided}, {"n_used", cell.n_used}};
    for (const auto* metric : metrics::MetricRegistry::builtin().of_task("ml-pipeline")) {
      if (!metric->interval) continue;
      row[metric->id] = number_or_null(metrics::retention_metric_value(cell, metric->id));
    }
    row["ci95"] = interval_json(cell.intervals);
    cells.push_back(std::move(row));
  }
  out["cells"] = std::move(cells);
  return out;
}

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> PipelineResults::report() const {
  return std::make_unique<reports::PipelineReport>(*this);
}

std::optional<RatedCells> PipelineResults::rated_cells() const {
  RatedCells out{"answers with use decided", "n", {}};
  for (const auto& c : metrics.cells) {
    out.cells.push_back(
        {rated_cell_label({c.config, c.dataset, c.path, c.level, c.mitigation, c.attribute_set, c.attribute}),
         c.n_decided, std::nullopt});
  }
  return out;
}

}  // namespace codebias::metrics
