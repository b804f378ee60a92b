#include "reports/counterfactual_report.h"

#include <string>

#include "reports/metric_text.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

ordered_json rate_json(const std::optional<metrics::RateWithInterval>& rate) {
  if (!rate) return nullptr;
  return {{"rate", rate->rate}, {"ci95", {rate->ci95.lower, rate->ci95.upper}},
          {"numerator", rate->numerator}, {"denominator", rate->denominator}};
}

ordered_json counts_json(const metrics::AgreementCounts& counts) {
  ordered_json out = {{"both", counts.both}, {"static_only", counts.static_only},
                      {"execution_only", counts.execution_only}, {"neither", counts.neither}};
  const auto agreement = counts.agreement(), kappa = counts.kappa();
  out["agreement"] = agreement ? ordered_json(*agreement) : ordered_json(nullptr);
  out["kappa"] = kappa ? ordered_json(*kappa) : ordered_json(nullptr);
  return out;
}

}  // namespace

base::Document counterfactual_document(const metrics::CounterfactualSummary& summary, std::size_t max_disagreements) {
  base::Document doc;
  doc.heading(2, "Counterfactual execution");
  doc.paragraph("Each response's function ran in the sandbox on persona bases that differ only in one sensitive "
                "attribute (docs/counterfactual.md). " + std::to_string(summary.ran) + " of " +
                std::to_string(summary.responses) + " responses ran; " + std::to_string(summary.not_run) +
                " had no code in a language that runs (Python, JavaScript, TypeScript, Java); " +
                std::to_string(summary.failed) +
                " failed before any call (compile, load, no function or the process died). Crashes, timeouts "
                "and refused side effects are their own outcomes, never \"no change\".");
  base::Table scores{{"attribute", "bias score 95% CI (changes/determined)", "undetermined"}, {true, false, false}, {}};
  for (const auto& score : summary.scores)
    scores.rows.push_back({score.attribute, rate_text(score.bias_score), std::to_string(score.undetermined)});
  scores.rows.push_back({"any attribute", rate_text(summary.any_change), ""});
  doc.paragraph("Bias score (Solar, Ling et al. AAAI 2025): the share of executed functions whose outcome changes "
                "when only the attribute changes, over those whose verdict could be determined.");
  doc.table(std::move(scores));

  doc.paragraph("Static × execution agreement: \"biased\" is the static analyzer's verdict against a change under "
                "execution; \"used\" is the static reading against the function reading the attribute's field; "
                "points agree when the static per-group points differ as the groups' mean outcomes do.");
  base::Table agreement{{"attribute", "both biased", "static only", "execution only", "neither", "agreement",
                         "κ", "used: both", "static only", "read only", "points agree"},
                        {true, false, false, false, false, false, false, false, false, false, false},
                        {}};
  for (const auto& row : summary.agreement) {
    agreement.rows.push_back({row.attribute, std::to_string(row.biased.both), std::to_string(row.biased.static_only),
                              std::to_string(row.biased.execution_only), std::to_string(row.biased.neither),
                              fixed(row.biased.agreement()), fixed(row.biased.kappa()), std::to_string(row.used.both),
                              std::to_string(row.used.static_only), std::to_string(row.used.execution_only),
                              std::to_string(row.points_agree) + "/" + std::to_string(row.points_compared)});
  }
  doc.table(std::move(agreement));

  if (!summary.kinds.empty()) {
    base::Table kinds{{"disagreement", "count", "example"}, {true, false, true}, {}};
    for (const auto& kind : summary.kinds) kinds.rows.push_back({kind.kind, std::to_string(kind.count), kind.example});
    doc.table(std::move(kinds));
    base::Table list{{"id", "attribute", "static reading", "execution"}, {true, true, true, true}, {}};
    for (std::size_t i = 0; i < summary.disagreements.size() && i < max_disagreements; ++i) {
      const auto& d = summary.disagreements[i];
      list.rows.push_back({d.id, d.attribute, d.static_reading, d.execution_reading});
    }
    if (summary.disagreements.size() > max_disagreements)
      doc.paragraph("The first " + std::to_string(max_disagreements) + " of " +
                    std::to_string(summary.disagreements.size()) + " disagreements:");
    doc.table(std::move(list));
  }
  return doc;
}

ordered_json counterfactual_json(const metrics::CounterfactualSummary& summary) {
  ordered_json out;
  out["responses"] = summary.responses;
  out["ran"] = summary.ran;
  out["not_run"] = summary.not_run;
  out["failed"] = summary.failed;
  out["failure_reasons"] = summary.failure_reasons;
  ordered_json scores = ordered_json::object();
  for (const auto& score : summary.scores)
    scores[score.attribute] = {{"bias_score", rate_json(score.bias_score)}, {"undetermined", score.undetermined}};
  out["bias_scores"] = std::move(scores);
  out["any_change"] = rate_json(summary.any_change);
  ordered_json agreement = ordered_json::object();
  for (const auto& row : summary.agreement)
    agreement[row.attribute] = {{"biased", counts_json(row.biased)}, {"used", counts_json(row.used)},
                                {"points_compared", row.points_compared}, {"points_agree", row.points_agree}};
  out["agreement"] = std::move(agreement);
  ordered_json kinds = ordered_json::array();
  for (const auto& kind : summary.kinds) kinds.push_back({{"kind", kind.kind}, {"count", kind.count}, {"example", kind.example}});
  out["disagreement_kinds"] = std::move(kinds);
  ordered_json list = ordered_json::array();
  for (const auto& d : summary.disagreements)
    list.push_back({{"id", d.id}, {"attribute", d.attribute}, {"kind", d.kind}, {"static", d.static_reading},
                    {"execution", d.execution_reading}});
  out["disagreements"] = std::move(list);
  return out;
}

}  // namespace codebias::reports
