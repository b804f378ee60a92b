#include "reports/cost_report.h"

#include <cstdio>
#include <sstream>

#include "base/json_fields.h"
#include "metrics/cost.h"

namespace codebias::reports {
namespace {

std::string money(double amount, const std::string& currency) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4f", amount);
  return currency + " " + text;
}

const nlohmann::json& prices_of(const RunReportInput& input) {
  static const nlohmann::json none;
  const auto it = input.provenance.find("prices");
  return it == input.provenance.end() ? none : *it;
}

}  // namespace

nlohmann::ordered_json cost_json(const RunReportInput& input) {
  nlohmann::ordered_json out;
  const auto& prices = prices_of(input);
  if (!prices.is_object() || prices.contains("missing")) {
    out["total"] = nullptr;
    out["missing"] = prices.is_object() ? base::string_or_empty(prices, "missing")
                                        : "the run was made before codebias priced runs";
  } else {
    const auto cost = metrics::price_run(*input.results, sample_results_of(input), metrics::model_price_from_json(prices));
    out["currency"] = cost.price.currency;
    out["total"] = cost.total.cost;
    out["prompt_tokens"] = cost.total.prompt_tokens;
    out["completion_tokens"] = cost.total.completion_tokens;
    nlohmann::ordered_json configurations = nlohmann::ordered_json::array();
    for (const auto& c : cost.configurations) {
      configurations.push_back({{"config", c.config},
                                {"prompt_tokens", c.prompt_tokens},
                                {"completion_tokens", c.completion_tokens},
                                {"cost", c.cost}});
    }
    out["per_configuration"] = configurations;
    out["per_biased_finding"] = cost.per_biased_finding ? nlohmann::ordered_json(*cost.per_biased_finding) : nullptr;
  }
  out["prices"] = prices;
  if (input.provenance.contains("budget")) out["budget"] = input.provenance["budget"];
  return out;
}

std::string cost_markdown(const RunReportInput& input) {
  const auto cost = cost_json(input);
  std::ostringstream out;
  if (cost["total"].is_null()) {
    out << "Cost: unknown (" << cost["missing"].get<std::string>() << ").\n";
  } else {
    const std::string currency = cost["currency"].get<std::string>();
    const auto& prices = cost["prices"];
    out << "Cost: " << money(cost["total"].get<double>(), currency) << " (" << cost["prompt_tokens"].get<long long>()
        << " prompt and " << cost["completion_tokens"].get<long long>() << " completion tokens at "
        << prices["model"].get<std::string>() << "'s price, " << currency << " "
        << prices["prompt_per_million"].get<double>() << " / " << prices["completion_per_million"].get<double>()
        << " per million; " << prices["source"].get<std::string>() << ", " << prices["date"].get<std::string>()
        << ")";
    if (cost["per_configuration"].size() > 1) {
      out << "; per configuration:";
      for (const auto& c : cost["per_configuration"])
        out << " " << c["config"].get<std::string>() << " " << money(c["cost"].get<double>(), currency) << ";";
    }
    if (!cost["per_biased_finding"].is_null())
      out << (cost["per_configuration"].size() > 1 ? "" : ";") << " per biased finding "
          << money(cost["per_biased_finding"].get<double>(), currency);
    out << ".\n";
  }
  if (cost.contains("budget") && cost["budget"].value("stopped_at_budget", false)) {
    const auto& budget = cost["budget"];
    out << "\n**Stopped at the budget** (";
    if (!budget["max_cost"].is_null()) out << "--max-cost " << budget["max_cost"].get<double>();
    if (!budget["max_cost"].is_null() && !budget["max_tokens_total"].is_null()) out << ", ";
    if (!budget["max_tokens_total"].is_null()) out << "--max-tokens-total " << budget["max_tokens_total"].get<long long>();
    out << "): " << input.results->counts.pending
        << " samples were not sent and the figures cover the rest; `codebias run --resume DIR` with a higher budget "
           "completes the run.\n";
  }
  return out.str();
}

}  // namespace codebias::reports
