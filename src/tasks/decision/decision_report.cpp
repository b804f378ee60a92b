// The decision-function task's report sections (Solar, Huang et al.; docs/counterfactual.md): the
// static bias rate per tested attribute and, with --execute, the counterfactual-execution section.
#include <ostream>

#include "reports/counterfactual_report.h"
#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "tasks/decision/decision_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

constexpr const char* kStaticNote =
    "Static bias rate: answers whose code the analyzer reads as giving some group a different outcome (a returned "
    "boolean, a ternary, any/all over attribute tests, points, overrides) / answers with code that test the "
    "attribute; 95% Wilson intervals.";

class DecisionReport final : public TaskReport {
 public:
  explicit DecisionReport(const metrics::DecisionResults& results) : results_(results) {}

  void add_to_summary(ordered_json& summary) const override {
    ordered_json rates = ordered_json::object();
    for (const auto& rate : results_.static_rates) {
      rates[rate.attribute] = rate.biased ? ordered_json{{"rate", rate.biased->rate},
                                                         {"ci95", {rate.biased->ci95.lower, rate.biased->ci95.upper}},
                                                         {"biased", rate.biased->numerator},
                                                         {"with_code", rate.biased->denominator}}
                                          : ordered_json(nullptr);
    }
    summary["static_bias_rates"] = std::move(rates);
    if (results_.counterfactual) summary["counterfactual"] = counterfactual_json(*results_.counterfactual);
  }

  std::string metrics_csv(const ordered_json& /*config_costs*/) const override {
    std::string csv = "attribute,static_bias_rate,static_ci95_lower,static_ci95_upper,bias_score,bias_score_ci95_lower,"
                      "bias_score_ci95_upper\n";
    for (const auto& rate : results_.static_rates) {
      csv += csv_cell(rate.attribute);
      const auto cells = [&](const std::optional<metrics::RateWithInterval>& r) {
        csv += "," + csv_number(r ? std::optional(r->rate) : std::nullopt, 4) + "," +
               csv_number(r ? std::optional(r->ci95.lower) : std::nullopt, 4) + "," +
               csv_number(r ? std::optional(r->ci95.upper) : std::nullopt, 4);
      };
      cells(rate.biased);
      cells(dynamic_score(rate.attribute));
      csv += "\n";
    }
    return csv;
  }

  void write_markdown(std::ostream& out) const override {
    out << "\n" << base::render(document(), base::DocumentFormat::markdown);
  }

  // The static reading's highest bias rate (every run has one) and, with --execute, the share of
  // executed functions whose outcome changes with some attribute.
  std::vector<HeadlineCard> headline_cards() const override {
    std::vector<HeadlineCard> cards;
    const metrics::DecisionResults::StaticRate* highest = nullptr;
    for (const auto& rate : results_.static_rates) {
      if (rate.biased && (highest == nullptr || rate.biased->rate > highest->biased->rate)) highest = &rate;
    }
    if (highest != nullptr) {
      cards.push_back({"highest static bias rate", fixed(highest->biased->rate),
                       highest->attribute + ": " + std::to_string(highest->biased->numerator) + " of " +
                           std::to_string(highest->biased->denominator) + " answers; " +
                           std::to_string(results_.static_rates.size()) + " attributes tested"});
    }
    if (results_.counterfactual && results_.counterfactual->any_change) {
      const auto& any = *results_.counterfactual->any_change;
      cards.push_back({"code bias score (execution)", fixed(any.rate),
                       std::to_string(any.numerator) + " of " + std::to_string(any.denominator) +
                           " executed functions change with some attribute"});
    }
    return cards;
  }

  std::vector<Heatmap> heatmaps() const override { return {}; }

  std::vector<ChartSpec> charts() const override {
    ChartSpec chart{"Bias rate per attribute: static reading and execution", "share of answers", {}, {}, 1.0};
    std::vector<std::optional<double>> static_side, dynamic_side;
    for (const auto& rate : results_.static_rates) {
      chart.labels.push_back(rate.attribute);
      static_side.push_back(rate.biased ? std::optional(rate.biased->rate) : std::nullopt);
      const auto score = dynamic_score(rate.attribute);
      dynamic_side.push_back(score ? std::optional(score->rate) : std::nullopt);
    }
    chart.datasets.emplace_back("static bias rate", std::move(static_side));
    if (results_.counterfactual) chart.datasets.emplace_back("bias score (execution)", std::move(dynamic_side));
    return {chart};
  }

  void write_html_tables(std::ostream& out) const override {
    out << "<section id=\"decisions\">";
    write_html(out, document(), 0);
    out << "</section>\n";
  }

  std::vector<SampleFinding> findings(const ordered_json& analysis) const override { return score_contract_findings(analysis); }
  const char* amount_name() const override { return "outcome"; }
  const char* biased_samples_text() const override { return " samples hold a decision that treats a group differently."; }

 private:
  std::optional<metrics::RateWithInterval> dynamic_score(const std::string& attribute) const {
    if (!results_.counterfactual) return std::nullopt;
    for (const auto& score : results_.counterfactual->scores)
      if (score.attribute == attribute) return score.bias_score;
    return std::nullopt;
  }

  base::Document document() const {
    base::Document doc;
    doc.heading(2, "Decision functions: static reading");
    doc.paragraph(kStaticNote);
    base::Table table{{"attribute", "static bias rate 95% CI (biased/with code)"}, {true, false}, {}};
    for (const auto& rate : results_.static_rates) table.rows.push_back({rate.attribute, rate_text(rate.biased)});
    doc.table(std::move(table));
    if (results_.counterfactual) doc.append(counterfactual_document(*results_.counterfactual));
    return doc;
  }

  const metrics::DecisionResults& results_;
};

}  // namespace

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> DecisionResults::report() const {
  return std::make_unique<reports::DecisionReport>(*this);
}

std::optional<RatedCells> DecisionResults::rated_cells() const {
  RatedCells out{"answers with code", "n", {}};
  for (const auto& rate : static_rates) {
    if (rate.biased) out.cells.push_back({rate.attribute, rate.biased->denominator, std::nullopt});
  }
  return out;
}

}  // namespace codebias::metrics
