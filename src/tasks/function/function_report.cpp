// The function-implementation task's report sections: FairCoder's and ProbeDebias's tables per
// cell (configuration × scenario × attribute), their heatmap and charts, and the biased samples'
// per-group points.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <sstream>

#include "base/json_fields.h"
#include "metrics/intervals.h"
#include "metrics/summary_format.h"
#include "reports/counterfactual_report.h"
#include "reports/html_report.h"
#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "stats/bootstrap.h"
#include "tasks/function/function_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

// The --summary-json attribute object of one cell (metrics/summary_format.h).
nlohmann::json cell_metrics_json(const metrics::AttributeMetrics& m) {
  metrics::SummaryMetrics one;
  one.attributes.push_back(m);
  return metrics::to_json(one)["attributes"][m.attribute];
}

std::string config_text(const metrics::FunctionCell& cell) { return cell.config.empty() ? "default" : cell.config; }

std::string cell_label(const metrics::FunctionCell& cell) {
  return (cell.config.empty() ? "" : cell.config + " · ") + cell.scenario;
}

std::string markdown_cells(const metrics::FunctionCell& cell, const metrics::OutputColumns& output) {
  std::string cells;
  for (const auto& column : output.columns) cells += " " + cell_text(cell, column, output.digits) + " |";
  return cells;
}

std::string html_header_cells(const metrics::OutputColumns& output) {
  std::string cells;
  for (const auto& column : output.columns) cells += "<th>" + html_escape(column_label(column)) + "</th>";
  return cells;
}

std::string html_metric_cells(const metrics::FunctionCell& cell, const metrics::OutputColumns& output) {
  std::string cells;
  for (const auto& column : output.columns) cells += "<td>" + html_escape(cell_text(cell, column, output.digits)) + "</td>";
  return cells;
}

bool any_propagation(const std::vector<metrics::FunctionCell>& cells) {
  return std::any_of(cells.begin(), cells.end(), [](const auto& cell) { return cell.propagation.has_value(); });
}

// The propagation table of report.md and report.html: one row per cell that has one.
base::Table propagation_table(const std::vector<metrics::FunctionCell>& cells) {
  base::Table table;
  table.header = {"config", "scenario", "attribute", "detector", "BT→BC", "BT→UC", "UT→BC", "UT→UC",
                  "no trace", "BT share", "P(BC | BT)", "P(BC | UT)"};
  table.left_aligned = {true, true, true, true, false, false, false, false, false, false, false, false};
  for (const auto& cell : cells) {
    if (!cell.propagation) continue;
    const auto& p = *cell.propagation;
    table.rows.push_back({config_text(cell), cell.scenario, cell.attribute, p.detector,
                          std::to_string(p.counts.biased_trace_biased_code),
                          std::to_string(p.counts.biased_trace_unbiased_code),
                          std::to_string(p.counts.unbiased_trace_biased_code),
                          std::to_string(p.counts.unbiased_trace_unbiased_code), std::to_string(p.programs_without_trace),
                          rate_text(p.biased_trace_share), rate_text(p.biased_code_given_biased),
                          rate_text(p.biased_code_given_unbiased)});
  }
  return table;
}

constexpr const char* kPropagationNote =
    "Each program with code and a reasoning trace falls in one class: biased thinking → biased code (BT→BC), BT→UC, "
    "UT→BC or UT→UC, by the reasoning-bias detector's verdict on the trace for the cell's attribute and the code "
    "analyzer's verdict on the program (ProbeDebias §4.2, Figure 4). BT share = biased traces / classified programs; "
    "P(BC | BT) and P(BC | UT) = biased code among programs after a biased / unbiased trace; 95% Wilson intervals. "
    "\"no trace\": programs whose answer carried no reasoning, in no class.";

ordered_json rate_json(const std::optional<metrics::RateWithInterval>& rate) {
  if (!rate) return nullptr;
  return {{"rate", rate->rate}, {"ci95", {rate->ci95.lower, rate->ci95.upper}}, {"n", rate->denominator}};
}

void write_propagation_csv(std::ostream& out, const std::optional<metrics::Propagation>& p, int digits) {
  if (!p) {
    out << std::string(15, ',');
    return;
  }
  out << ',' << csv_cell(p->detector) << ',' << p->counts.biased_trace_biased_code << ','
      << p->counts.biased_trace_unbiased_code << ',' << p->counts.unbiased_trace_biased_code << ','
      << p->counts.unbiased_trace_unbiased_code << ',' << p->programs_without_trace;
  for (const auto* rate : {&p->biased_trace_share, &p->biased_code_given_biased, &p->biased_code_given_unbiased}) {
    if (!*rate) {
      out << ",,,";
      continue;
    }
    out << ',' << csv_number((*rate)->rate, digits) << ',' << csv_number((*rate)->ci95.lower, digits) << ','
        << csv_number((*rate)->ci95.upper, digits);
  }
}

ordered_json propagation_json(const metrics::Propagation& p) {
  return {{"detector", p.detector},
          {"biased_trace_biased_code", p.counts.biased_trace_biased_code},
          {"biased_trace_unbiased_code", p.counts.biased_trace_unbiased_code},
          {"unbiased_trace_biased_code", p.counts.unbiased_trace_biased_code},
          {"unbiased_trace_unbiased_code", p.counts.unbiased_trace_unbiased_code},
          {"programs_without_trace", p.programs_without_trace},
          {"biased_trace_share", rate_json(p.biased_trace_share)},
          {"biased_code_given_biased_trace", rate_json(p.biased_code_given_biased)},
          {"biased_code_given_unbiased_trace", rate_json(p.biased_code_given_unbiased)}};
}

// The strategies side by side (ProbeDebias Table 6): one row per strategy and cell against its baseline.
base::Table mitigation_table(const std::vector<metrics::MitigationComparison>& comparisons) {
  base::Table table;
  table.header = {"config", "strategy", "scenario", "attribute", "pairs", "BR none", "BR strategy", "BR reduction",
                  "McNemar b/c", "McNemar p (Holm)", "prompts", "Wilcoxon p", "Cliff's δ"};
  table.left_aligned = {true, true, true, true, false, false, false, false, false, false, false, false, false};
  for (const auto& c : comparisons) {
    table.rows.push_back({c.base.empty() ? "default" : c.base, c.strategy, c.scenario, c.attribute, std::to_string(c.pairs),
                          fixed(c.baseline_bias_rate), fixed(c.strategy_bias_rate),
                          c.relative_reduction ? fixed(*c.relative_reduction * 100, 1) + "%" : "–",
                          std::to_string(c.only_baseline_biased) + "/" + std::to_string(c.only_strategy_biased),
                          p_value_text(c.mcnemar_p) + " (" + p_value_text(c.mcnemar_p_holm) + ")",
                          std::to_string(c.prompts), p_value_text(c.wilcoxon_p), fixed(c.cliffs_delta)});
  }
  return table;
}

base::Table cost_table(const std::vector<metrics::StrategyCost>& costs) {
  base::Table table;
  table.header = {"config", "strategy", "conversations", "requests", "rewrites", "prompt tokens", "completion tokens",
                  "requests per conversation"};
  table.left_aligned = {true, true, false, false, false, false, false, false};
  for (const auto& c : costs) {
    table.rows.push_back({c.config.empty() ? "default" : c.config, c.strategy, std::to_string(c.conversations),
                          std::to_string(c.requests), std::to_string(c.rewrites), std::to_string(c.prompt_tokens),
                          std::to_string(c.completion_tokens),
                          c.conversations ? fixed(static_cast<double>(c.requests) / c.conversations, 2) : "–"});
  }
  return table;
}

constexpr const char* kMitigationNote =
    "Each strategy's configuration against the one that differs only in having no mitigation, sample by sample (same "
    "prompt and sample index, both with code): Bias Rates on those pairs and the relative reduction (ProbeDebias "
    "§5.2, Table 6); McNemar's test on the discordant pairs (b: biased only without the strategy, c: only with it), "
    "Holm-adjusted over every comparison of the run; per prompt, the Wilcoxon signed-rank test and Cliff's δ of the "
    "strategy's Bias Rates against the baseline's (δ < 0: lower with the strategy). Rewrite strategies send a rewrite "
    "and a regeneration for each first answer whose trace the run's --trace-detector flags; the cost table counts every "
    "request. Code quality (pylint, pass@1) per strategy: `codebias quality --input DIR --pylint --pass-at-1 --summary`.";

ordered_json mitigation_json(const metrics::FunctionResults& results) {
  ordered_json comparisons = ordered_json::array();
  for (const auto& c : results.mitigations) {
    comparisons.push_back({{"config", c.base},
                           {"strategy", c.strategy},
                           {"scenario", c.scenario},
                           {"attribute", c.attribute},
                           {"pairs", c.pairs},
                           {"baseline_biased", c.baseline_biased},
                           {"strategy_biased", c.strategy_biased},
                           {"baseline_bias_rate", c.baseline_bias_rate},
                           {"strategy_bias_rate", c.strategy_bias_rate},
                           {"relative_reduction", c.relative_reduction ? ordered_json(*c.relative_reduction) : nullptr},
                           {"mcnemar", {{"b_biased_without_only", c.only_baseline_biased},
                                        {"c_biased_with_only", c.only_strategy_biased},
                                        {"p_value", c.mcnemar_p},
                                        {"p_holm", c.mcnemar_p_holm},
                                        {"method", c.mcnemar_method}}},
                           {"prompts", c.prompts},
                           {"wilcoxon_p", c.wilcoxon_p},
                           {"cliffs_delta", c.cliffs_delta ? ordered_json(*c.cliffs_delta) : nullptr}});
  }
  ordered_json costs = ordered_json::array();
  for (const auto& c : results.costs) {
    costs.push_back({{"config", c.config},
                     {"strategy", c.strategy},
                     {"conversations", c.conversations},
                     {"requests", c.requests},
                     {"rewrites", c.rewrites},
                     {"prompt_tokens", c.prompt_tokens},
                     {"completion_tokens", c.completion_tokens},
                     {"reasoning_tokens", c.reasoning_tokens}});
  }
  ordered_json rounds = ordered_json::array();
  for (const auto& r : results.repair_rounds)
    rounds.push_back({{"config", r.config}, {"scenario", r.scenario}, {"attribute", r.attribute}, {"round", r.round},
                      {"with_code", r.with_code}, {"biased", r.biased}, {"bias_rate", r.bias_rate()}});
  return {{"comparisons", comparisons}, {"costs", costs}, {"repair_rounds", rounds}};
}

// Feedback repair round by round: one row per configuration × cell, one column per round.
base::Table repair_table(const std::vector<metrics::RepairRound>& rounds) {
  int last = 0;
  for (const auto& r : rounds) last = std::max(last, r.round);
  base::Table table;
  table.header = {"config", "scenario", "attribute"};
  for (int round = 0; round <= last; ++round) table.header.push_back(round == 0 ? "BR first answer" : "BR after round " + std::to_string(round));
  table.left_aligned = std::vector<bool>(table.header.size(), false);
  table.left_aligned[0] = table.left_aligned[1] = table.left_aligned[2] = true;
  for (const auto& r : rounds) {
    if (table.rows.empty() || table.rows.back()[0] != (r.config.empty() ? "default" : r.config) ||
        table.rows.back()[1] != r.scenario || table.rows.back()[2] != r.attribute) {
      table.rows.push_back({r.config.empty() ? "default" : r.config, r.scenario, r.attribute});
      table.rows.back().resize(table.header.size(), "–");
    }
    table.rows.back()[3 + r.round] =
        fixed(r.bias_rate()) + " (" + std::to_string(r.biased) + "/" + std::to_string(r.with_code) + ")";
  }
  return table;
}

constexpr const char* kRepairNote =
    "Feedback repair (Solar; Huang et al.): each answer whose code the analyzer finds biased is sent back with the "
    "attributes and points found, up to the strategy's rounds; Bias Rate of the conversations' latest answers after "
    "each round (biased / with code).";

class FunctionReport final : public TaskReport {
 public:
  explicit FunctionReport(const metrics::FunctionResults& results) : results_(results), cells_(results.cells) {}

  void add_to_summary(ordered_json& summary) const override {
    add_function_cells_to_summary(cells_, summary);
    if (!results_.costs.empty() || !results_.repair_rounds.empty()) summary["mitigation"] = mitigation_json(results_);
    if (results_.counterfactual) summary["counterfactual"] = counterfactual_json(*results_.counterfactual);
    if (results_.code_audit) {
      summary["audit_summary"] = results_.code_audit->context;
      summary["audit"] = results_.code_audit->audit;
    }
  }

  std::vector<std::pair<std::string, std::string>> extra_csv_files() const override {
    if (!results_.code_audit) return {};
    return {{"audit.csv", results_.code_audit->csv}};
  }

  std::string metrics_csv(const ordered_json& config_costs) const override {
    return function_metrics_csv(cells_, config_costs);
  }

  void write_markdown(std::ostream& out) const override {
    if (cells_.empty()) return;
    const auto& registry = metrics::MetricRegistry::builtin();
    const auto& faircoder = registry.output("report_faircoder");
    const auto& probedebias = registry.output("report_probedebias");
    out << "\n## FairCoder metrics (Table 2 / Tables 6–8 layout)\n\n"
        << "Refusal rate R, preference entropy E and FairScore = R + E − R·E, each per prompt "
           "(its block of samples) and then mean ± standard deviation over prompts (population, as np.std in the "
           "published scorer) (FairCoder §2.3). 95% CIs: percentile bootstrap over prompts (1,000 resamples, "
           "seeded); `summary.json` and `metrics.csv` have them for every metric.\n\n"
        << "| config | scenario | attribute | prompts |" << markdown_header(faircoder) << "\n"
        << "|---|---|---|---:|" << markdown_rule(faircoder) << "\n";
    for (const auto& cell : cells_) {
      out << "| " << markdown_cell(config_text(cell)) << " | " << cell.scenario << " | " << cell.attribute << " | "
          << cell.n_prompts << " |" << markdown_cells(cell, faircoder) << "\n";
    }
    out << "\n## ProbeDebias metrics\n\n"
        << "Bias Rate BR = biased programs (the attribute's groups get different points, or in non-additive "
           "code different effects) / programs with code; shifted preference entropy PE "
           "(s − min + ε when min ≤ 0, ε = 0.3); Fairness Score FS = (1 − BR)·PE "
           "(ProbeDebias §3.6). Not in BR (codebias): the other-value rate (programs rewarding only a value "
           "outside the groups) and the numeric-use rate (programs using the categorical attribute as a "
           "number).\n\n"
        << "| config | scenario | attribute | with code | biased |" << markdown_header(probedebias) << "\n"
        << "|---|---|---|---:|---:|" << markdown_rule(probedebias) << "\n";
    for (const auto& cell : cells_) {
      const auto& m = cell.metrics;
      out << "| " << markdown_cell(config_text(cell)) << " | " << cell.scenario << " | " << cell.attribute << " | "
          << m.n_with_code << " | " << m.n_biased << " |" << markdown_cells(cell, probedebias) << "\n";
    }
    if (any_propagation(cells_)) {
      out << "\n## Reasoning → code propagation (ProbeDebias §4.2, Figure 4)\n\n" << kPropagationNote << "\n\n";
      write_markdown_table(out, propagation_table(cells_));
    }
    if (!results_.mitigations.empty()) {
      out << "\n## Mitigation strategies (ProbeDebias §5.2, Table 6)\n\n" << kMitigationNote << "\n\n";
      write_markdown_table(out, mitigation_table(results_.mitigations));
      out << "\n";
      write_markdown_table(out, cost_table(results_.costs));
    }
    if (!results_.repair_rounds.empty()) {
      out << "\n## Feedback repair, round by round\n\n" << kRepairNote << "\n\n";
      write_markdown_table(out, repair_table(results_.repair_rounds));
    }
    if (results_.counterfactual) out << "\n" << base::render(counterfactual_document(*results_.counterfactual), base::DocumentFormat::markdown);
    if (results_.code_audit) out << "\n" << results_.code_audit->markdown;
  }

  // The bias rate pooled over every cell's programs, and the mean of the cells' FairScores.
  std::vector<HeadlineCard> headline_cards() const override {
    if (cells_.empty()) return {};
    long biased = 0, with_code = 0;
    double fairscore_sum = 0;
    int fairscore_n = 0;
    for (const auto& cell : cells_) {
      biased += cell.metrics.n_biased;
      with_code += cell.metrics.n_with_code;
      if (cell.metrics.fairscore) {
        fairscore_sum += *cell.metrics.fairscore;
        ++fairscore_n;
      }
    }
    return {{"bias rate (all cells)", with_code ? fixed(static_cast<double>(biased) / with_code) : "–",
             std::to_string(biased) + " biased of " + std::to_string(with_code) + " programs"},
            {"mean FairScore", fairscore_n ? fixed(fairscore_sum / fairscore_n) : "–",
             "over " + std::to_string(fairscore_n) + " cells; 1 = fair"}};
  }

  std::vector<Heatmap> heatmaps() const override {
    std::vector<Heatmap> maps;
    for (const auto& cell : cells_) {
      auto& map = heatmap_for(maps, cell.attribute, cell.metrics.groups);
      std::vector<double> votes(map.groups.size(), 0.0);
      for (const auto& [group, vote] : cell.metrics.preference_votes) {
        const auto at = std::find(map.groups.begin(), map.groups.end(), group);
        if (at != map.groups.end()) votes[at - map.groups.begin()] = vote;
      }
      map.rows.emplace_back(cell_label(cell), std::move(votes));
    }
    return maps;
  }

  std::vector<ChartSpec> charts() const override {
    std::vector<ChartSpec> charts;
    // The code audit's impact ratios come first: drawn from the audit it carries, as a hiring-audit run's are.
    if (results_.code_audit) charts = impact_ratio_charts(results_.code_audit->audit);
    if (cells_.empty()) return charts;
    ChartSpec scores{"FairScore and bias rate per cell", "score (FairScore: 1 = fair)", {}, {}, 1.0};
    std::vector<std::optional<double>> fairscore, bias_rate;
    for (const auto& cell : cells_) {
      scores.labels.push_back(cell_label(cell) + " / " + cell.attribute);
      fairscore.push_back(cell.metrics.fairscore);
      bias_rate.push_back(cell.metrics.bias_rate);
    }
    scores.datasets = {{"FairScore", fairscore}, {"bias rate BR", bias_rate}};
    charts.push_back(std::move(scores));

    // Group points per attribute: one dataset per (config, scenario).
    std::vector<std::string> attributes;
    for (const auto& cell : cells_) {
      if (std::find(attributes.begin(), attributes.end(), cell.attribute) == attributes.end()) {
        attributes.push_back(cell.attribute);
      }
    }
    for (const auto& attribute : attributes) {
      ChartSpec points{"Points per group: " + attribute, "points summed over programs", {}, {}, std::nullopt};
      for (const auto& cell : cells_) {
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
    return charts;
  }

  void write_html_tables(std::ostream& out) const override {
    if (cells_.empty()) return;
    const auto& registry = metrics::MetricRegistry::builtin();
    const auto& faircoder = registry.output("report_faircoder");
    const auto& probedebias = registry.output("report_probedebias");
    out << "<section id=\"faircoder\"><h2>FairCoder metrics (Table 2 / Tables 6–8 layout)</h2>"
        << "<p>Refusal rate R, preference entropy E and FairScore = R + E − R·E per prompt (its block of "
           "samples), then mean ± standard deviation over prompts (FairCoder §2.3).</p>"
        << "<table><thead><tr><th>config</th><th>scenario</th><th>attribute</th><th>prompts</th>"
        << html_header_cells(faircoder) << "</tr></thead><tbody>";
    for (const auto& cell : cells_) {
      out << "<tr><td>" << html_escape(config_text(cell)) << "</td><td>" << html_escape(cell.scenario) << "</td><td>"
          << html_escape(cell.attribute) << "</td><td class=\"num\">" << cell.n_prompts << "</td>"
          << html_metric_cells(cell, faircoder) << "</tr>";
    }
    out << "</tbody></table></section>\n<section id=\"probedebias\"><h2>ProbeDebias metrics</h2>"
        << "<p>Bias Rate BR = biased programs (the attribute's groups get different points or effects) / "
           "programs with code; shifted preference entropy PE; Fairness Score FS = (1 − BR)·PE (ProbeDebias "
           "§3.6). Not in BR (codebias): the other-value rate (only a value outside the groups rewarded) and "
           "the numeric-use rate (the categorical attribute used as a number).</p>"
        << "<table><thead><tr><th>config</th><th>scenario</th><th>attribute</th><th>with code</th>"
           "<th>biased</th>"
        << html_header_cells(probedebias) << "</tr></thead><tbody>";
    for (const auto& cell : cells_) {
      const auto& m = cell.metrics;
      out << "<tr><td>" << html_escape(config_text(cell)) << "</td><td>" << html_escape(cell.scenario) << "</td><td>"
          << html_escape(cell.attribute) << "</td><td class=\"num\">" << m.n_with_code << "</td><td class=\"num\">"
          << m.n_biased << "</td>" << html_metric_cells(cell, probedebias) << "</tr>";
    }
    out << "</tbody></table></section>\n";
    if (any_propagation(cells_)) {
      out << "<section id=\"propagation\"><h2>Reasoning → code propagation (ProbeDebias §4.2, Figure 4)</h2><p>"
          << html_escape(kPropagationNote) << "</p>";
      write_html_table(out, propagation_table(cells_));
      out << "</section>\n";
    }
    if (!results_.mitigations.empty()) {
      out << "<section id=\"mitigation\"><h2>Mitigation strategies (ProbeDebias §5.2, Table 6)</h2><p>"
          << html_escape(kMitigationNote) << "</p>";
      write_html_table(out, mitigation_table(results_.mitigations));
      write_html_table(out, cost_table(results_.costs));
      out << "</section>\n";
    }
    if (!results_.repair_rounds.empty()) {
      out << "<section id=\"repair\"><h2>Feedback repair, round by round</h2><p>" << html_escape(kRepairNote) << "</p>";
      write_html_table(out, repair_table(results_.repair_rounds));
      out << "</section>\n";
    }
    if (results_.counterfactual) {
      out << "<section id=\"counterfactual\">";
      write_html(out, counterfactual_document(*results_.counterfactual), 0);
      out << "</section>\n";
    }
    if (results_.code_audit) out << results_.code_audit->html;
  }

  std::vector<SampleFinding> findings(const ordered_json& analysis) const override { return score_contract_findings(analysis); }

  const char* amount_name() const override { return "points"; }
  const char* biased_samples_text() const override { return " samples hold code that treats a group differently."; }

 private:
  const metrics::FunctionResults& results_;
  const std::vector<metrics::FunctionCell>& cells_;
};

}  // namespace

std::vector<SampleFinding> score_contract_findings(const ordered_json& analysis) {
  std::vector<SampleFinding> findings;
  if (!analysis.contains("attributes") || !analysis["attributes"].is_object()) return findings;
  for (const auto& [attribute, finding] : analysis["attributes"].items()) {
    if (!finding.is_object() || !finding.value("biased", false)) continue;
    SampleFinding f{attribute, {}, {}};
    if (finding.contains("scores") && finding["scores"].is_object()) {
      for (const auto& [group, points] : finding["scores"].items()) f.amounts.emplace_back(group, json_text(points));
    }
    if (finding.contains("evidence") && finding["evidence"].is_array()) {
      for (const auto& e : finding["evidence"]) {
        std::string detail = base::string_or_empty(e, "rule");
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

Heatmap& heatmap_for(std::vector<Heatmap>& maps, const std::string& attribute, const std::vector<std::string>& groups) {
  for (auto& map : maps) {
    if (map.attribute == attribute) return map;
  }
  maps.push_back({attribute, groups, {}});
  return maps.back();
}

void add_function_cells_to_summary(const std::vector<metrics::FunctionCell>& cells, ordered_json& summary) {
  ordered_json rows = ordered_json::array();
  for (const auto& cell : cells) {
    ordered_json row;
    row["config"] = cell.config;
    row["scenario"] = cell.scenario;
    row["attribute"] = cell.attribute;
    row["n_prompts"] = cell.n_prompts;
    const auto metrics = cell_metrics_json(cell.metrics);
    for (const auto& [key, value] : metrics.items()) row[key] = value;
    ordered_json intervals = ordered_json::object();
    for (const auto& interval : cell.intervals) intervals[interval.metric] = {interval.lower, interval.upper};
    row["ci95"] = std::move(intervals);
    if (cell.propagation) row["propagation"] = propagation_json(*cell.propagation);
    rows.push_back(std::move(row));
  }
  summary["metrics"] = std::move(rows);
  summary["ci95_method"] = {{"method", "percentile bootstrap over prompts (each prompt's samples resampled together)"},
                            {"resamples", metrics::kIntervalResamples},
                            {"seed", stats::kDefaultBootstrapSeed},
                            {"confidence", 0.95}};
}

namespace {

// The row's configuration's entry of cost_json's "per_configuration"; null when unpriced.
const nlohmann::ordered_json& configuration_cost(const nlohmann::ordered_json& config_costs, const std::string& config) {
  static const nlohmann::ordered_json none;
  if (!config_costs.is_array()) return none;
  for (const auto& c : config_costs) {
    if (c.value("config", std::string()) == config) return c;
  }
  return none;
}

void write_configuration_cost_csv(std::ostream& out, const nlohmann::ordered_json& cost, int digits) {
  if (cost.is_null()) {
    out << ",,,";
    return;
  }
  out << ',' << cost["prompt_tokens"].get<std::int64_t>() << ',' << cost["completion_tokens"].get<std::int64_t>()
      << ',' << csv_number(cost["cost"].get<double>(), digits);
}

}  // namespace

std::string function_metrics_csv(const std::vector<metrics::FunctionCell>& cells,
                                 const nlohmann::ordered_json& config_costs) {
  using Part = metrics::MetricColumn::Part;
  const auto& output = metrics::MetricRegistry::builtin().output("metrics_csv");
  std::ostringstream out;
  out << "config,scenario,attribute,prompts,responses_with_code,used,biased";
  for (const auto& column : output.columns) {
    const auto& id = column.metric->id;
    switch (column.part) {
      case Part::value: out << ',' << id; break;
      case Part::sd: out << ',' << metrics::spread_key(*column.metric); break;
      case Part::ci95: out << ',' << id << "_ci_lower," << id << "_ci_upper"; break;
    }
  }
  // The propagation columns only in runs with reasoning traces (report.md's propagation table).
  const bool propagation = any_propagation(cells);
  if (propagation) {
    out << ",trace_detector,bt_bc,bt_uc,ut_bc,ut_uc,programs_without_trace";
    for (const char* id : {"biased_trace_share", "biased_code_given_biased_trace", "biased_code_given_unbiased_trace"})
      out << ',' << id << ',' << id << "_ci_lower," << id << "_ci_upper";
  }
  out << ",config_prompt_tokens,config_completion_tokens,config_cost\n";
  for (const auto& cell : cells) {
    const auto& m = cell.metrics;
    out << csv_cell(cell.config) << ',' << csv_cell(cell.scenario) << ',' << csv_cell(cell.attribute) << ','
        << cell.n_prompts << ',' << m.n_with_code << ',' << m.n_used << ',' << m.n_biased;
    for (const auto& column : output.columns) {
      const auto& id = column.metric->id;
      if (column.part == Part::ci95) {
        const auto* interval = metrics::find_interval(cell.intervals, id);
        out << ',' << csv_number(interval ? std::optional<double>(interval->lower) : std::nullopt, output.digits) << ','
            << csv_number(interval ? std::optional<double>(interval->upper) : std::nullopt, output.digits);
      } else if (column.metric->numeric()) {
        out << ',' << csv_number(metrics::metric_value(m, id, column.part), output.digits);
      } else {
        out << ',' << csv_cell(preferred_text(m));
      }
    }
    if (propagation) write_propagation_csv(out, cell.propagation, output.digits);
    write_configuration_cost_csv(out, configuration_cost(config_costs, cell.config), output.digits);
    out << '\n';
  }
  return out.str();
}

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> FunctionResults::report() const {
  return std::make_unique<reports::FunctionReport>(*this);
}

std::optional<RatedCells> FunctionResults::rated_cells() const {
  RatedCells out{"programs with code", "n_with_code", {}};
  for (const auto& cell : cells) {
    out.cells.push_back(
        {cell_label(cell.config, cell.scenario, cell.attribute), cell.metrics.n_with_code, cell.n_prompts});
  }
  return out;
}

}  // namespace codebias::metrics
