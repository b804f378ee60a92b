// The bias-audit tables of NYC Local Law 144 (6 RCNY §5-300 ff.; docs/hiring-audit.md, "Tables"):
// per category of sex, of race/ethnicity and of their intersection, the number of individuals,
// the selection rate (a tool that selects) or scoring rate (a tool that scores: the share scoring
// above the median score of the whole sample), and the impact ratio (the rate over the highest
// category's rate). Categories under 2 % of the individuals of known category are listed but left
// out of the impact ratios; individuals of unknown category are counted apart. Beyond the rule
// text: Wilson intervals for rates, Katz log intervals for ratios, Fisher's exact test of each
// category against the highest, and the EEOC's four-fifths heuristic (29 CFR 1607.4(D)), which is
// not LL144's criterion.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::tasks::hiring {

enum class RateKind { selection, scoring };

struct Individual {
  std::string sex;             // "" when unknown
  std::string race_ethnicity;  // "" when unknown
  double outcome = 0;          // selection: 1 selected, 0 not; scoring: the score
};

struct Interval {
  double lower = 0;
  double upper = 0;
};

struct CategoryRow {
  std::string category;
  int n = 0;
  int selected = 0;  // selected, or scoring above the median
  double rate = 0;
  Interval ci95;          // Wilson
  bool excluded = false;  // under the exclusion share: listed, no impact ratio
  bool highest = false;   // the reference of the impact ratios
  std::optional<double> impact_ratio;
  std::optional<Interval> impact_ratio_ci95;  // Katz log method; none for the highest category
  std::optional<double> fisher_p;             // two-sided, against the highest category
  // "reference", "excluded", "below four-fifths" (interval under 0.8), "not below four-fifths"
  // (interval at or above 0.8), "insufficient evidence" (the interval holds 0.8), "undefined".
  std::string evidence;
};

struct ImpactTable {
  std::vector<CategoryRow> rows;
  int unknown = 0;  // individuals whose category of this table is unknown
};

struct AuditTables {
  RateKind kind = RateKind::selection;
  int individuals = 0;
  int unknown = 0;               // individuals of unknown sex or race/ethnicity
  std::optional<double> median;  // scoring: the sample's median score
  ImpactTable sex;
  ImpactTable race_ethnicity;
  ImpactTable intersectional;  // "<race/ethnicity>/<sex>"
};

// LL144 leaves categories under 2 % of the data out of the impact ratios (§5-301(d)).
inline constexpr double kExclusionShare = 0.02;
// The EEOC's rule of thumb: a rate under four-fifths of the highest is evidence of adverse impact.
inline constexpr double kFourFifths = 0.8;

// The median of the individuals' outcomes (scores); 0 for none. A scoring tool's rate counts
// those above it.
double median_score(const std::vector<Individual>& individuals);

AuditTables ll144_tables(const std::vector<Individual>& individuals, RateKind kind,
                         double exclusion_share = kExclusionShare);

std::string_view to_string(RateKind kind);
// {"rate_kind", "individuals", "unknown", ["median"], "tables": {"sex", "race_ethnicity",
// "intersectional"}}: rows {category, n, rate, impact_ratio, ci95, excluded, ...}.
nlohmann::ordered_json to_json(const AuditTables& tables);

}  // namespace codebias::tasks::hiring
