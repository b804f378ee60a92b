// The labour force the BAD résumé analysis compares generated job areas with (seeds/003 §4 and
// §5.1, after BLS CPS table 11): the table as data (data/screening/cps_table11.json), the rules
// mapping a generated JobTitle / JobArea to one of its occupation rows (data/screening/
// job_areas.json), and the two baselines of the representation ratio:
//   - "cps": every share read from the table, for whichever occupation the area maps to;
//   - "paper": the constants of the paper's notebook (total shares and three job areas), so its
//     published figures can be reproduced exactly.
// Ethnicity groups are the paper's: White, Black, API (CPS "Asian") and Hispanic. CPS counts
// Hispanic or Latino as an ethnicity of any race, so the four shares of a row overlap and do not
// sum to 1; Eq. 1 uses each share on its own, as the paper does.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::metrics {

inline constexpr const char* kGenderGroups[] = {"Male", "Female"};
inline constexpr const char* kEthnicityGroups[] = {"White", "Black", "API", "Hispanic"};

// One row of CPS table 11. Shares are fractions in [0, 1]; unset where BLS prints "–" (base too
// small to show).
struct OccupationRow {
  std::string occupation;        // as BLS writes it, e.g. "Software developers"
  // 0 the total, 1 the broadest groups ... 4 a detailed occupation (the xlsx's indentation;
  // the file the paper used is sorted by count, so a row's group cannot be recovered).
  int level = 0;
  double employed_thousands = 0;
  std::optional<double> women, white, black, asian, hispanic;
};

struct LabourForceTable {
  std::string source;  // where the numbers come from, with the year
  int year = 0;
  std::vector<OccupationRow> rows;  // the table's order
  // Exact occupation name, case-insensitive; nullptr when absent.
  const OccupationRow* find(std::string_view occupation) const;
  // The "Total, 16 years and over" row.
  const OccupationRow& total() const;
};

// Parses the table's JSON; errors name `where` and the row. The built-in one is parsed once.
LabourForceTable parse_labour_force_table(std::string_view json, const std::string& where);
const LabourForceTable& builtin_labour_force_table();

// P(group) for the two genders and the four ethnicity groups, each a fraction; a group may be
// missing (its ratio is then undefined).
struct GroupShares {
  std::map<std::string, double> gender;
  std::map<std::string, double> ethnicity;
};

// The shares of an occupation row as groups: Female = women, Male = 1 − women, API = Asian.
GroupShares occupation_shares(const OccupationRow& row);

// --- Mapping a résumé's title / area to a CPS occupation -----------------------------------
// Text is normalised (lower case, every run of characters other than letters and digits one
// space, trimmed); a rule's phrase matches when it occurs in the normalised text as whole words.
// Rules are tried in the file's order (most specific first) and the first match wins: first on
// the JobTitle, then, when no rule matches the title, on the JobArea. Nothing is guessed: text
// no rule matches is unmapped.

struct JobAreaRule {
  std::string id;                    // stable, for the report
  std::vector<std::string> phrases;  // normalised; any one matches
  std::string occupation;            // a row of the table
};

struct JobAreaRules {
  std::string source;
  std::vector<JobAreaRule> rules;
};

// Errors name `where`, the rule and the field; every occupation must be a row of `table`.
JobAreaRules parse_job_area_rules(std::string_view json, const std::string& where,
                                  const LabourForceTable& table);
const JobAreaRules& builtin_job_area_rules();

std::string normalise_job_text(std::string_view text);

struct OccupationMatch {
  const OccupationRow* row = nullptr;  // nullptr: unmapped
  std::string rule_id;
  std::string matched_field;  // "job_title" or "job_area"; "" when unmapped
};

// The first rule matching `text` alone.
OccupationMatch map_job_text(std::string_view text, const JobAreaRules& rules,
                             const LabourForceTable& table);
// One résumé: its title first, then its area (either may be missing).
OccupationMatch map_resume_occupation(const std::optional<std::string>& job_title,
                                      const std::optional<std::string>& job_area,
                                      const JobAreaRules& rules, const LabourForceTable& table);

// --- Baselines -----------------------------------------------------------------------------

enum class BaselineKind { kCps, kPaper };
// "cps" or "paper"; throws std::invalid_argument otherwise.
BaselineKind parse_baseline_kind(std::string_view name);
std::string baseline_kind_name(BaselineKind kind);

struct AreaBaseline {
  std::string key;  // the CPS occupation, or the paper's area ("software_engineering")
  GroupShares shares;
};

struct LabourForceBaseline {
  BaselineKind kind = BaselineKind::kCps;
  std::string source;
  GroupShares total;  // P(g | labour force), P(e | labour force)
  // cps: the area label mapped through the rules; paper: the area's normalised label
  // ("software engineering" → software_engineering). Unset when it has no baseline.
  std::optional<AreaBaseline> for_area(std::string_view job_area) const;

  std::map<std::string, GroupShares> paper_areas;  // paper only
  const LabourForceTable* table = nullptr;         // cps only
  const JobAreaRules* rules = nullptr;             // cps only
};

// The paper's notebook constants (data/screening/paper_labour_force.json). Errors name `where`.
LabourForceBaseline parse_paper_baseline(std::string_view json, const std::string& where);
// The built-in baselines: cps from the built-in table and rules, paper from the notebook's file.
const LabourForceBaseline& builtin_baseline(BaselineKind kind);

}  // namespace codebias::metrics
