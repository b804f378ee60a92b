// The BAD résumé metrics (seeds/003 §5.1 and §5.2; docs/screening.md, "Labour-force comparison
// and statistics"), over résumés generated for names that signal gender × ethnicity:
//   - extraction: per field, how many résumés have it (a missing field is counted, not guessed);
//   - job areas per gender, per ethnicity and per gender × ethnicity, and the shares §5.1 quotes
//     (P(area | group) against P(area | rest), e.g. 54 % of males vs 20 % of females in Software
//     Engineering);
//   - the representation ratio of Eq. 1, P(g | area)·P(e | area) / (P(g | lf)·P(e | lf)), for the
//     résumés (where "lf" is the run's own name composition: names are balanced by design) and
//     for the labour-force baseline of the area, side by side; and the joint form the paper's
//     notebook uses on the résumé side, count(g, e, area) / (count(area)·P(g, e)), which is the
//     one that gives §5.1's 2.2 for API males in Software Engineering;
//   - Pearson chi-squared independence tests (§5.2: JobTitle × EstimatedEthnicity, JobArea ×
//     EstimatedEthnicity; here also × gender, and the mapped CPS occupation × each), with the
//     small-expected-count warning and a Monte-Carlo p-value under fixed margins;
//   - the titles / areas no rule maps to a CPS occupation, with counts.
// Every section is computed per config (sweep label) and, with more than one, pooled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/screening/analysis/resume_table.h"
#include "base/text_document.h"
#include "metrics/labour_force.h"
#include "stats/chi_squared.h"

namespace codebias::metrics {

struct ResumeRow {
  std::string id;
  std::string config;  // sweep label; "" with one configuration
  std::string first_name, last_name;
  std::string gender;     // "Male" | "Female"
  std::string ethnicity;  // "White" | "Black" | "API" | "Hispanic"
  std::optional<std::string> job_title, job_area, bachelors, masters, location, zip_code, bilingual;
  // Fields (paper names) the answer says the person lacks ("Masters": null): read, with no value.
  std::set<std::string> stated_absent;
};

std::vector<ResumeRow> to_resume_rows(const std::vector<analysis::screening::ResumeRecord>& records);

inline constexpr int kRepresentationResamples = 2000;
inline constexpr std::uint64_t kDefaultScreeningSeed = 20260101;

struct ScreeningOptions {
  BaselineKind baseline = BaselineKind::kCps;
  std::uint64_t seed = kDefaultScreeningSeed;  // bootstrap and Monte-Carlo
  int bootstrap_resamples = kRepresentationResamples;
  std::size_t monte_carlo_replicates = stats::kDefaultMonteCarloReplicates;
  double confidence = 0.95;
  // Compare with the paper's published numbers (data/screening/bad_published_figures.json):
  // `codebias screening analyze` on the paper's table.
  bool compare_published = false;
};

// One field's extraction rate.
struct FieldExtraction {
  std::string field;  // the paper's column name: JobTitle, JobArea, Bachelors, ...
  int n_present = 0;
  int n_absent = 0;   // stated absent: the answer says the person has none (no master's)
  int n_missing = 0;  // the answer did not say
  std::optional<double> rate;  // n_present / (n_present + n_missing): stated-absent fields left out
};

// Résumés of one job area (or title) by group.
struct AreaCounts {
  std::string area;  // as written
  int n = 0;
  std::map<std::string, int> by_gender;
  std::map<std::string, int> by_ethnicity;
  std::map<std::string, int> by_group;  // "<gender> <ethnicity>", e.g. "Male API"
};

// §5.1's shares: of the résumés of `group`, the share in `area`; of everyone else, the same.
// Over the résumés that have a JobArea.
struct AreaShare {
  std::string area;
  std::string dimension;  // "gender" or "ethnicity"
  std::string group;
  int n_group = 0, n_group_in_area = 0;
  int n_rest = 0, n_rest_in_area = 0;
  std::optional<double> share;       // n_group_in_area / n_group
  std::optional<double> rest_share;  // n_rest_in_area / n_rest
};

struct RatioInterval {
  double lower = 0;
  double upper = 0;
};

// One gender × ethnicity × area cell of the representation table, over the résumés that have a
// JobArea (the run's composition P(g), P(e), P(g, e) too). Intervals: percentile bootstrap
// (stats/bootstrap.h) resampling names, all résumés of a name together (they share the prompt,
// so they are not independent), options.bootstrap_resamples resamples, options.seed; unset where
// the ratio is undefined in the data. A name-level bootstrap rather than a Wilson interval
// because the ratios are products and quotients of several shares, not one proportion.
struct RepresentationCell {
  std::string area;
  std::string gender, ethnicity;
  int n_area = 0;        // résumés in the area
  int n_cell = 0;        // of those, of this gender × ethnicity
  std::optional<double> ratio;  // Eq. 1 on the résumés, the run's composition as "lf"
  std::optional<RatioInterval> ratio_interval;
  std::optional<double> joint_ratio;  // count(g, e, area) / (count(area)·P(g, e | run))
  std::optional<RatioInterval> joint_ratio_interval;
  std::string baseline_key;             // the CPS occupation or paper area; "" when none
  std::optional<double> baseline_ratio;  // Eq. 1 on the labour-force shares
};

// One chi-squared independence test of a field against gender or ethnicity.
struct ScreeningTest {
  std::string id;      // "job_title_x_ethnicity", ...
  std::string field;   // "JobTitle", "JobArea", "CpsOccupation"
  std::string versus;  // "EstimatedEthnicity" or "EstimatedGender"
  int n_used = 0;      // résumés with the field
  int n_excluded = 0;  // résumés without it (missing, or unmapped for CpsOccupation)
  std::size_t categories = 0;  // distinct values of the field among n_used
  std::optional<stats::IndependenceResult> result;  // unset when the table is degenerate
  std::optional<stats::MonteCarloResult> monte_carlo;
  std::string not_computed;  // why result is unset
};

struct OccupationCount {
  std::string occupation;
  int n = 0;
};

struct UnmappedLabel {
  std::string field;  // "JobTitle" or "JobArea" of a résumé no rule maps
  std::string label;  // as written; "(missing)" when the field is missing
  int count = 0;
};

struct ScreeningSection {
  std::string config;  // "" with one configuration; "pooled" for the pooled section
  int n_resumes = 0;
  int n_names = 0;  // distinct first + last names
  std::vector<FieldExtraction> extraction;  // the seven fields, the paper's column order
  std::map<std::string, int> gender_counts, ethnicity_counts, group_counts;
  std::vector<AreaCounts> areas;  // by count, descending, then name
  std::vector<AreaShare> area_shares;
  std::vector<RepresentationCell> representation;  // areas in `areas` order × 8 groups
  std::vector<ScreeningTest> tests;
  int n_mapped = 0, n_unmapped = 0;
  std::vector<OccupationCount> occupations;  // by count, descending
  std::vector<UnmappedLabel> unmapped;       // by count, descending
};

// One number of data/screening/bad_published_figures.json next to what the data give.
struct PublishedComparison {
  std::string id;
  std::string description;
  std::string where;  // the paper's section / figure
  double published = 0;
  std::optional<double> reproduced;
  std::optional<double> difference;  // reproduced − published
  double tolerance = 0;              // rounding of the published number
  bool reproduced_within_tolerance = false;
  std::string explanation;  // when it differs (or cannot be computed)
};

struct ScreeningMetrics {
  std::string baseline;         // "cps" or "paper"
  std::string baseline_source;
  std::string interval_method;  // the text above, for the report
  std::uint64_t seed = 0;
  int bootstrap_resamples = 0;
  std::size_t monte_carlo_replicates = 0;
  std::vector<ScreeningSection> by_config;  // first-appearance order
  std::optional<ScreeningSection> pooled;   // set with more than one config
  std::vector<PublishedComparison> published;  // compare_published only
  // The reader's notes (ResumeTable::near_duplicates), set by the caller; compute_screening_metrics
  // leaves it empty.
  std::vector<analysis::screening::NearDuplicateLabel> near_duplicates;
};

// Throws std::invalid_argument for an empty input or a row whose gender / ethnicity is not one
// of the groups (naming the row's id).
ScreeningMetrics compute_screening_metrics(const std::vector<ResumeRow>& rows,
                                           const ScreeningOptions& options = {});

// Compares `metrics` (its first section) with the published figures in `figures_json`.
std::vector<PublishedComparison> compare_published_figures(const ScreeningMetrics& metrics,
                                                           std::string_view figures_json,
                                                           const std::string& where);

// Extraction counts, area distribution, shares, representation table, chi-squared table,
// unmapped list, near-duplicate notes and (when present) the published-figure comparison, as a
// document the terminal, report.md and report.html render.
base::Document screening_document(const ScreeningMetrics& metrics);

enum class ScreeningFormat { kText, kMarkdown };
// screening_document() as aligned text or Markdown.
std::string format_screening_metrics(const ScreeningMetrics& metrics, ScreeningFormat format);
// The same content as JSON; undefined numbers are null.
nlohmann::ordered_json screening_metrics_json(const ScreeningMetrics& metrics);

}  // namespace codebias::metrics
