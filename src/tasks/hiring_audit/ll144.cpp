#include "tasks/hiring_audit/ll144.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "stats/chi_squared.h"
#include "stats/distributions.h"
#include "stats/proportion.h"
#include "tasks/hiring_audit/hiring_suite.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::ordered_json;

// Table order: the suite's categories in their order, then any other alphabetically.
int category_rank(const std::string& category) {
  std::vector<std::string> known;
  for (std::string_view race : kRaces) {
    known.emplace_back(race);
    for (std::string_view sex : kSexes) known.push_back(intersection(race, sex));
  }
  for (std::string_view sex : kSexes) known.emplace_back(sex);
  const auto it = std::find(known.begin(), known.end(), category);
  return it == known.end() ? static_cast<int>(known.size()) : static_cast<int>(it - known.begin());
}

// Katz et al. (1978): log(r1 / r2) ± z·sqrt(1/x1 − 1/n1 + 1/x2 − 1/n2); a zero count gets 0.5
// added to each count (Haldane) so the interval stays defined.
Interval ratio_interval(int x1, int n1, int x2, int n2) {
  double a = x1, b = n1, c = x2, d = n2;
  if (x1 == 0 || x2 == 0) {
    a += 0.5, b += 0.5, c += 0.5, d += 0.5;
  }
  const double log_ratio = std::log((a / b) / (c / d));
  const double se = std::sqrt(1 / a - 1 / b + 1 / c - 1 / d);
  const double z = stats::normal_quantile(0.975);
  return {std::exp(log_ratio - z * se), std::exp(log_ratio + z * se)};
}

std::string evidence_of(const Interval& interval) {
  if (interval.upper < kFourFifths) return "below four-fifths";
  if (interval.lower >= kFourFifths) return "not below four-fifths";
  return "insufficient evidence";
}

template <class CategoryOf>
ImpactTable impact_table(const std::vector<Individual>& individuals, const std::vector<bool>& counted,
                         CategoryOf category_of, double exclusion_share) {
  ImpactTable table;
  std::map<std::string, std::pair<int, int>> counts;  // category -> n, selected
  int known = 0;
  for (std::size_t i = 0; i < individuals.size(); ++i) {
    const std::string category = category_of(individuals[i]);
    if (category.empty()) {
      ++table.unknown;
      continue;
    }
    ++known;
    auto& [n, selected] = counts[category];
    ++n;
    selected += counted[i] ? 1 : 0;
  }
  for (const auto& [category, count] : counts) {
    CategoryRow row;
    row.category = category;
    row.n = count.first;
    row.selected = count.second;
    row.rate = static_cast<double>(row.selected) / row.n;
    const auto wilson = stats::wilson_interval(row.selected, row.n);
    row.ci95 = {wilson.lower, wilson.upper};
    row.excluded = static_cast<double>(row.n) / known < exclusion_share;
    table.rows.push_back(std::move(row));
  }
  std::stable_sort(table.rows.begin(), table.rows.end(), [](const CategoryRow& a, const CategoryRow& b) {
    return category_rank(a.category) < category_rank(b.category);
  });
  CategoryRow* highest = nullptr;
  for (CategoryRow& row : table.rows)
    if (!row.excluded && (highest == nullptr || row.rate > highest->rate)) highest = &row;
  for (CategoryRow& row : table.rows) {
    if (row.excluded) {
      row.evidence = "excluded";
    } else if (highest == nullptr || highest->rate == 0) {
      row.evidence = "undefined";
    } else if (&row == highest) {
      row.highest = true;
      row.impact_ratio = 1.0;
      row.evidence = "reference";
    } else {
      // From the counts, so that 48/100 over 60/100 is exactly 0.8.
      row.impact_ratio =
          (static_cast<double>(row.selected) * highest->n) / (static_cast<double>(row.n) * highest->selected);
      row.impact_ratio_ci95 = ratio_interval(row.selected, row.n, highest->selected, highest->n);
      row.fisher_p =
          stats::fisher_exact_2x2(row.selected, row.n - row.selected, highest->selected, highest->n - highest->selected)
              .p_two_sided;
      row.evidence = evidence_of(*row.impact_ratio_ci95);
    }
  }
  return table;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

ordered_json interval_json(const Interval& interval) { return ordered_json::array({interval.lower, interval.upper}); }

ordered_json table_json(const ImpactTable& table) {
  ordered_json rows = ordered_json::array();
  for (const CategoryRow& row : table.rows) {
    ordered_json out;
    out["category"] = row.category;
    out["n"] = row.n;
    out["selected"] = row.selected;
    out["rate"] = row.rate;
    out["impact_ratio"] = row.impact_ratio ? ordered_json(*row.impact_ratio) : ordered_json();
    out["ci95"] = interval_json(row.ci95);
    out["impact_ratio_ci95"] = row.impact_ratio_ci95 ? interval_json(*row.impact_ratio_ci95) : ordered_json();
    out["excluded"] = row.excluded;
    out["fisher_p"] = row.fisher_p ? ordered_json(*row.fisher_p) : ordered_json();
    out["eeoc_four_fifths_flag"] = row.impact_ratio && *row.impact_ratio < kFourFifths;
    out["evidence"] = row.evidence;
    rows.push_back(std::move(out));
  }
  return rows;
}

}  // namespace

double median_score(const std::vector<Individual>& individuals) {
  if (individuals.empty()) return 0;
  std::vector<double> scores;
  for (const Individual& individual : individuals) scores.push_back(individual.outcome);
  return median_of(std::move(scores));
}

std::string_view to_string(RateKind kind) { return kind == RateKind::selection ? "selection" : "scoring"; }

AuditTables ll144_tables(const std::vector<Individual>& individuals, RateKind kind, double exclusion_share) {
  AuditTables tables;
  tables.kind = kind;
  tables.individuals = static_cast<int>(individuals.size());
  std::vector<bool> counted(individuals.size());
  if (kind == RateKind::scoring && !individuals.empty()) tables.median = median_score(individuals);
  for (std::size_t i = 0; i < individuals.size(); ++i) {
    counted[i] = kind == RateKind::selection ? individuals[i].outcome != 0 : individuals[i].outcome > *tables.median;
    if (individuals[i].sex.empty() || individuals[i].race_ethnicity.empty()) ++tables.unknown;
  }
  tables.sex = impact_table(
      individuals, counted, [](const Individual& i) { return i.sex; }, exclusion_share);
  tables.race_ethnicity = impact_table(
      individuals, counted, [](const Individual& i) { return i.race_ethnicity; }, exclusion_share);
  tables.intersectional = impact_table(
      individuals, counted,
      [](const Individual& i) {
        return i.sex.empty() || i.race_ethnicity.empty() ? std::string() : intersection(i.race_ethnicity, i.sex);
      },
      exclusion_share);
  return tables;
}

nlohmann::ordered_json to_json(const AuditTables& tables) {
  ordered_json out;
  out["rate_kind"] = to_string(tables.kind);
  out["individuals"] = tables.individuals;
  out["unknown"] = tables.unknown;
  if (tables.median) out["median_score"] = *tables.median;
  out["tables"] = {{"sex", table_json(tables.sex)},
                   {"race_ethnicity", table_json(tables.race_ethnicity)},
                   {"intersectional", table_json(tables.intersectional)}};
  out["unknown_by_table"] = {{"sex", tables.sex.unknown},
                             {"race_ethnicity", tables.race_ethnicity.unknown},
                             {"intersectional", tables.intersectional.unknown}};
  return out;
}

}  // namespace codebias::tasks::hiring
