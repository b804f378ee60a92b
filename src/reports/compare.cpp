#include "reports/compare.h"

#include <cstdio>
#include <ostream>

#include "metrics/metric_registry.h"

namespace codebias::reports {
namespace {

using metrics::CellComparison;
using metrics::Interval;
using metrics::RunComparison;

nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json interval_json(const std::optional<Interval>& interval) {
  if (!interval) return nullptr;
  return {{"estimate", interval->estimate}, {"lower", interval->lower}, {"upper", interval->upper}};
}

// A run's metrics over the paired prompts: the counts, then the columns metrics.json lists for
// compare_json.
nlohmann::ordered_json metrics_json(const metrics::AttributeMetrics& m) {
  nlohmann::ordered_json out = {{"n", m.n}, {"n_with_code", m.n_with_code}, {"n_biased", m.n_biased}};
  for (const auto& column : metrics::MetricRegistry::builtin().output("compare_json").columns) {
    out[column.metric->id] = metrics::metric_json(m, column.metric->id);
  }
  return out;
}

nlohmann::ordered_json vote_columns(const metrics::AttributeMetrics& m) {
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (const auto& [group, count] : m.preference_votes) columns.push_back(group);
  columns.push_back("no preference");
  return columns;
}

nlohmann::ordered_json effect_json(const std::optional<metrics::SignedEffect>& effect) {
  if (!effect) return nullptr;
  return {{"reference_group", effect->reference_group}, {"estimate", effect->estimate}, {"lower", effect->lower},
          {"upper", effect->upper},   {"scored", effect->scored},  {"direction", effect->describe()}};
}

std::string effect_text(const metrics::SignedEffect& effect) {
  char text[96];
  std::snprintf(text, sizeof text, " (%+.3f [%+.3f, %+.3f] toward %s, n=%d)", effect.estimate, effect.lower,
                effect.upper, effect.reference_group.c_str(), effect.scored);
  return effect.describe() + text;
}

nlohmann::ordered_json cell_json(const CellComparison& cell) {
  nlohmann::ordered_json out;
  out["cell"] = cell.label();
  out["config"] = cell.config;
  out["scenario"] = cell.scenario;
  out["attribute"] = cell.attribute;
  out["prompts"] = {{"a", cell.prompts_a}, {"b", cell.prompts_b}, {"paired", cell.prompts_paired},
                    {"ranked", cell.prompts_ranked}};
  out["samples_paired"] = cell.samples_paired;
  out["signed_effect"] = {{"a", effect_json(cell.effect_a)},
                          {"b", effect_json(cell.effect_b)},
                          {"direction_changed", cell.direction_changed()}};
  out["a"] = metrics_json(cell.metrics_a);
  out["b"] = metrics_json(cell.metrics_b);
  out["bootstrap"] = {{"bias_rate_a", interval_json(cell.bias_rate_a)},
                      {"bias_rate_b", interval_json(cell.bias_rate_b)},
                      {"bias_rate_difference", interval_json(cell.bias_rate_difference)},
                      {"fairscore_a", interval_json(cell.fairscore_a)},
                      {"fairscore_b", interval_json(cell.fairscore_b)},
                      {"fairscore_difference", interval_json(cell.fairscore_difference)}};
  if (cell.wilcoxon) {
    const auto& w = *cell.wilcoxon;
    out["wilcoxon"] = {{"statistic", w.statistic}, {"w_plus", w.w_plus},     {"w_minus", w.w_minus},
                       {"n_used", w.n_used},       {"n_zero", w.n_zero},     {"z", w.z},
                       {"p_value", w.p_value},     {"p_holm", optional_number(cell.wilcoxon_p_holm)},
                       {"method", std::string(stats::to_string(w.method))}};
  } else {
    out["wilcoxon"] = nullptr;
  }
  if (cell.cliffs_delta) {
    out["cliffs_delta"] = {{"delta", cell.cliffs_delta->delta},
                           {"magnitude", std::string(stats::to_string(cell.cliffs_delta->magnitude))}};
  } else {
    out["cliffs_delta"] = nullptr;
  }
  if (cell.mcnemar) {
    const auto& m = *cell.mcnemar;
    out["mcnemar"] = {{"b_biased_in_a_only", m.b}, {"c_biased_in_b_only", m.c},
                      {"statistic", m.statistic},  {"p_value", m.p_value},
                      {"p_holm", optional_number(cell.mcnemar_p_holm)},
                      {"method", std::string(stats::to_string(m.method))}};
  } else {
    out["mcnemar"] = nullptr;
  }
  if (cell.votes_chi_squared) {
    const auto& c = *cell.votes_chi_squared;
    out["preference_votes_chi_squared"] = {{"columns", vote_columns(cell.metrics_a)},
                                           {"statistic", c.statistic},
                                           {"dof", c.dof},
                                           {"p_value", c.p_value},
                                           {"cramers_v", c.cramers_v},
                                           {"low_expected_count", c.low_expected_count}};
  } else {
    out["preference_votes_chi_squared"] = {{"not_run", cell.votes_chi_squared_note}};
  }
  out["significant"] = cell.significant;
  out["b_worse"] = cell.b_worse();
  return out;
}

std::string format_number(const std::optional<double>& value, const char* format = "%.3f") {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, *value);
  return text;
}

std::string format_p(const std::optional<double>& p) {
  if (!p) return "-";
  if (*p < 0.001) return "<0.001";
  return format_number(p, "%.3f");
}

std::string verdict(const CellComparison& cell) {
  if (!cell.wilcoxon && !cell.mcnemar) return "untested";
  if (!cell.significant) return "not significant";
  return cell.b_worse() ? "significant (B higher)" : "significant (B lower)";
}

}  // namespace

nlohmann::ordered_json to_json(const RunComparison& comparison) {
  nlohmann::ordered_json out;
  out["run_a"] = comparison.run_a;
  out["run_b"] = comparison.run_b;
  out["alpha"] = comparison.options.alpha;
  out["bootstrap"] = {{"resamples", comparison.options.bootstrap.resamples},
                      {"confidence", comparison.options.bootstrap.confidence},
                      {"seed", comparison.options.bootstrap.seed},
                      {"unit", "paired prompt"}};
  out["multiple_comparisons"] = "Holm over every Wilcoxon and McNemar p-value of the table";
  out["difference"] = "B - A";
  out["prompts"] = {{"a", comparison.prompts_a}, {"b", comparison.prompts_b}, {"shared", comparison.prompts_shared}};
  out["warnings"] = comparison.warnings;
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const auto& cell : comparison.cells) cells.push_back(cell_json(cell));
  out["cells"] = std::move(cells);
  return out;
}

void write_comparison_table(std::ostream& out, const RunComparison& comparison) {
  out << "A: " << comparison.run_a << "\nB: " << comparison.run_b << "\n";
  out << "prompts shared: " << comparison.prompts_shared << " (A " << comparison.prompts_a << ", B "
      << comparison.prompts_b << "); differences are B - A; " << comparison.options.bootstrap.confidence * 100
      << "% cluster-bootstrap intervals over prompts; Holm over the table; alpha " << comparison.options.alpha
      << "\n\n";
  char line[512];
  // The tests compare the bias rate; its label comes from metrics.json.
  const std::string& rate = metrics::MetricRegistry::builtin().find("bias_rate")->label;
  std::snprintf(line, sizeof line, "%-28s %7s %6s %6s %-24s %8s %8s %-17s %8s %8s  %s\n", "cell", "prompts",
                (rate + " A").c_str(), (rate + " B").c_str(), ("delta " + rate + " [CI]").c_str(), "Wilc p", "Holm p",
                "Cliff's delta", "McN p", "Holm p", "verdict");
  out << line;
  for (const auto& cell : comparison.cells) {
    std::string delta = "-";
    if (cell.bias_rate_difference) {
      const auto& d = *cell.bias_rate_difference;
      char text[64];
      std::snprintf(text, sizeof text, "%+.3f [%+.3f, %+.3f]", d.estimate, d.lower, d.upper);
      delta = text;
    }
    std::string cliffs = "-";
    if (cell.cliffs_delta) {
      cliffs = format_number(cell.cliffs_delta->delta, "%+.3f") + " " +
               std::string(stats::to_string(cell.cliffs_delta->magnitude));
    }
    const std::string wilcoxon_p = cell.wilcoxon ? format_p(cell.wilcoxon->p_value) : "-";
    const std::string mcnemar_p = cell.mcnemar ? format_p(cell.mcnemar->p_value) : "-";
    std::snprintf(line, sizeof line, "%-28s %7d %6s %6s %-24s %8s %8s %-17s %8s %8s  %s\n", cell.label().c_str(),
                  cell.prompts_paired, format_number(cell.metrics_a.bias_rate).c_str(),
                  format_number(cell.metrics_b.bias_rate).c_str(), delta.c_str(), wilcoxon_p.c_str(),
                  format_p(cell.wilcoxon_p_holm).c_str(), cliffs.c_str(), mcnemar_p.c_str(),
                  format_p(cell.mcnemar_p_holm).c_str(), verdict(cell).c_str());
    out << line;
  }
  // A flip of the favoured group is its own finding: the bias rates alone may not move.
  std::string findings;
  for (const auto& cell : comparison.cells) {
    if (!cell.direction_changed()) continue;
    findings += "direction changed: cell " + cell.label() + ": A " + effect_text(*cell.effect_a) + "; B " +
                effect_text(*cell.effect_b) + "\n";
  }
  if (!findings.empty()) out << '\n' << findings;
}

}  // namespace codebias::reports
