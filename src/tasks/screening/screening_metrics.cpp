#include "tasks/screening/screening_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "base/builtin_data.h"
#include "stats/bootstrap.h"

namespace codebias::metrics {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

const char* const kFields[] = {"JobTitle", "JobArea", "Bachelors", "Masters", "Location", "ZipCode", "Bilingual"};

const std::optional<std::string>& field_value(const ResumeRow& row, std::string_view field) {
  if (field == "JobTitle") return row.job_title;
  if (field == "JobArea") return row.job_area;
  if (field == "Bachelors") return row.bachelors;
  if (field == "Masters") return row.masters;
  if (field == "Location") return row.location;
  if (field == "ZipCode") return row.zip_code;
  return row.bilingual;
}

std::string group_label(const std::string& gender, const std::string& ethnicity) {
  return gender + " " + ethnicity;
}

template <typename Array>
bool is_one_of(const std::string& value, const Array& groups) {
  return std::any_of(std::begin(groups), std::end(groups), [&](const char* g) { return value == g; });
}

std::optional<double> ratio_or_unset(double numerator, double denominator) {
  if (denominator <= 0) return std::nullopt;
  return numerator / denominator;
}

// The tallies of one name (one bootstrap cluster) for one area × gender × ethnicity cell.
struct CellTally {
  double with_area = 0;  // résumés with a JobArea
  double gender = 0, ethnicity = 0, group = 0;  // of those, of g, of e, of (g, e)
  double in_area = 0, gender_in_area = 0, ethnicity_in_area = 0, group_in_area = 0;
  void add(const CellTally& other) {
    with_area += other.with_area;
    gender += other.gender;
    ethnicity += other.ethnicity;
    group += other.group;
    in_area += other.in_area;
    gender_in_area += other.gender_in_area;
    ethnicity_in_area += other.ethnicity_in_area;
    group_in_area += other.group_in_area;
  }
};

// Eq. 1 with the run's composition as "lf"; NaN where undefined.
double equation_1(const CellTally& t) {
  if (t.in_area <= 0 || t.gender <= 0 || t.ethnicity <= 0) return kUndefined;
  return (t.gender_in_area / t.in_area) * (t.ethnicity_in_area / t.in_area) /
         ((t.gender / t.with_area) * (t.ethnicity / t.with_area));
}

// The notebook's joint form count(g, e, area) / (count(area)·P(g, e)).
double joint_form(const CellTally& t) {
  if (t.in_area <= 0 || t.group <= 0) return kUndefined;
  return t.group_in_area / (t.in_area * (t.group / t.with_area));
}

std::optional<RatioInterval> name_bootstrap(const std::vector<CellTally>& names,
                                            double (*ratio)(const CellTally&),
                                            const ScreeningOptions& options) {
  CellTally all;
  for (const auto& name : names) all.add(name);
  if (!std::isfinite(ratio(all)) || names.empty()) return std::nullopt;
  stats::BootstrapOptions bootstrap;
  bootstrap.resamples = options.bootstrap_resamples;
  bootstrap.confidence = options.confidence;
  bootstrap.seed = options.seed;
  try {
    const stats::BootstrapResult result = stats::bootstrap_units(
        names.size(),
        [&](std::span<const std::size_t> indices) {
          CellTally sum;
          for (std::size_t i : indices) sum.add(names[i]);
          return ratio(sum);
        },
        bootstrap);
    return RatioInterval{result.lower, result.upper};
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // undefined in every resample
  }
}

std::optional<double> baseline_ratio(const AreaBaseline& area, const GroupShares& total,
                                     const std::string& gender, const std::string& ethnicity) {
  const auto g = area.shares.gender.find(gender);
  const auto e = area.shares.ethnicity.find(ethnicity);
  const auto g0 = total.gender.find(gender);
  const auto e0 = total.ethnicity.find(ethnicity);
  if (g == area.shares.gender.end() || e == area.shares.ethnicity.end() ||
      g0 == total.gender.end() || e0 == total.ethnicity.end()) {
    return std::nullopt;
  }
  return ratio_or_unset(g->second * e->second, g0->second * e0->second);
}

ScreeningTest independence_test(const std::vector<ResumeRow>& rows, const std::string& id,
                                const std::string& field, const std::string& versus,
                                const std::vector<std::optional<std::string>>& values,
                                const ScreeningOptions& options) {
  ScreeningTest test;
  test.id = id;
  test.field = field;
  test.versus = versus;
  const bool by_gender = versus == "EstimatedGender";
  std::vector<std::string> columns;
  if (by_gender) {
    columns.assign(std::begin(kGenderGroups), std::end(kGenderGroups));
  } else {
    columns.assign(std::begin(kEthnicityGroups), std::end(kEthnicityGroups));
  }
  std::map<std::string, std::vector<double>> table;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!values[i]) {
      ++test.n_excluded;
      continue;
    }
    ++test.n_used;
    const std::string& group = by_gender ? rows[i].gender : rows[i].ethnicity;
    const auto column = std::find(columns.begin(), columns.end(), group) - columns.begin();
    auto& counts = table.try_emplace(*values[i], std::vector<double>(columns.size(), 0)).first->second;
    counts[static_cast<std::size_t>(column)] += 1;
  }
  test.categories = table.size();
  std::vector<std::vector<double>> counts;
  for (const auto& [label, row] : table) counts.push_back(row);
  try {
    test.result = stats::chi_squared_independence(counts);
    test.monte_carlo = stats::chi_squared_monte_carlo(
        counts, stats::MonteCarloOptions{options.monte_carlo_replicates, options.seed});
  } catch (const std::invalid_argument&) {
    test.result.reset();
    test.not_computed = "needs at least 2 " + field + " values and 2 groups with résumés; " +
                        std::to_string(test.categories) + " values among " +
                        std::to_string(test.n_used) + " résumés";
  }
  return test;
}

// How often each field was read, stated absent or missing; the résumés per group.
void add_extraction(ScreeningSection& section, const std::vector<ResumeRow>& rows) {
  for (const char* field : kFields) {
    FieldExtraction extraction;
    extraction.field = field;
    for (const auto& row : rows) {
      int& count = field_value(row, field)             ? extraction.n_present
                   : row.stated_absent.contains(field) ? extraction.n_absent
                                                       : extraction.n_missing;
      ++count;
    }
    extraction.rate = ratio_or_unset(extraction.n_present, extraction.n_present + extraction.n_missing);
    section.extraction.push_back(extraction);
  }
  for (const auto& row : rows) {
    ++section.gender_counts[row.gender];
    ++section.ethnicity_counts[row.ethnicity];
    ++section.group_counts[group_label(row.gender, row.ethnicity)];
  }

}

// The job areas, largest first, and each group's share of each area against the rest's.
void add_areas(ScreeningSection& section, const std::vector<ResumeRow>& rows) {
  std::map<std::string, AreaCounts> areas;
  std::map<std::string, int> gender_with_area, ethnicity_with_area;
  int with_area = 0;
  for (const auto& row : rows) {
    if (!row.job_area) continue;
    ++with_area;
    ++gender_with_area[row.gender];
    ++ethnicity_with_area[row.ethnicity];
    AreaCounts& area = areas[*row.job_area];
    area.area = *row.job_area;
    ++area.n;
    ++area.by_gender[row.gender];
    ++area.by_ethnicity[row.ethnicity];
    ++area.by_group[group_label(row.gender, row.ethnicity)];
  }
  for (auto& [name, area] : areas) section.areas.push_back(area);
  std::stable_sort(section.areas.begin(), section.areas.end(),
                   [](const AreaCounts& a, const AreaCounts& b) { return a.n > b.n; });

  for (const AreaCounts& area : section.areas) {
    auto add_share = [&](const std::string& dimension, const std::string& group,
                         const std::map<std::string, int>& in_area, const std::map<std::string, int>& overall) {
      AreaShare share;
      share.area = area.area;
      share.dimension = dimension;
      share.group = group;
      share.n_group = overall.contains(group) ? overall.at(group) : 0;
      share.n_group_in_area = in_area.contains(group) ? in_area.at(group) : 0;
      share.n_rest = with_area - share.n_group;
      share.n_rest_in_area = area.n - share.n_group_in_area;
      share.share = ratio_or_unset(share.n_group_in_area, share.n_group);
      share.rest_share = ratio_or_unset(share.n_rest_in_area, share.n_rest);
      section.area_shares.push_back(share);
    };
    for (const char* gender : kGenderGroups) add_share("gender", gender, area.by_gender, gender_with_area);
    for (const char* ethnicity : kEthnicityGroups) {
      add_share("ethnicity", ethnicity, area.by_ethnicity, ethnicity_with_area);
    }
  }

}

// BAD's representation ratio per area × gender × ethnicity, with name-clustered bootstrap intervals.
void add_representation(ScreeningSection& section, const std::vector<ResumeRow>& rows,
                        const LabourForceBaseline& baseline, const ScreeningOptions& options) {
  // Per-name tallies are the bootstrap's clusters.
  std::map<std::pair<std::string, std::string>, std::size_t> name_index;
  std::vector<std::vector<const ResumeRow*>> rows_of_name;
  for (const auto& row : rows) {
    const auto key = std::make_pair(row.first_name, row.last_name);
    auto [it, inserted] = name_index.try_emplace(key, rows_of_name.size());
    if (inserted) rows_of_name.emplace_back();
    rows_of_name[it->second].push_back(&row);
  }
  for (const AreaCounts& area : section.areas) {
    const std::optional<AreaBaseline> area_baseline = baseline.for_area(area.area);
    for (const char* gender : kGenderGroups) {
      for (const char* ethnicity : kEthnicityGroups) {
        std::vector<CellTally> tallies;
        for (const auto& name_rows : rows_of_name) {
          CellTally tally;
          for (const ResumeRow* row : name_rows) {
            if (!row->job_area) continue;
            const bool g = row->gender == gender;
            const bool e = row->ethnicity == ethnicity;
            const bool in = *row->job_area == area.area;
            tally.with_area += 1;
            tally.gender += g;
            tally.ethnicity += e;
            tally.group += g && e;
            tally.in_area += in;
            tally.gender_in_area += in && g;
            tally.ethnicity_in_area += in && e;
            tally.group_in_area += in && g && e;
          }
          tallies.push_back(tally);
        }
        CellTally all;
        for (const auto& tally : tallies) all.add(tally);
        RepresentationCell cell;
        cell.area = area.area;
        cell.gender = gender;
        cell.ethnicity = ethnicity;
        cell.n_area = area.n;
        cell.n_cell = static_cast<int>(all.group_in_area);
        if (const double value = equation_1(all); std::isfinite(value)) {
          cell.ratio = value;
          cell.ratio_interval = name_bootstrap(tallies, equation_1, options);
        }
        if (const double value = joint_form(all); std::isfinite(value)) {
          cell.joint_ratio = value;
          cell.joint_ratio_interval = name_bootstrap(tallies, joint_form, options);
        }
        if (area_baseline) {
          cell.baseline_key = area_baseline->key;
          cell.baseline_ratio = baseline_ratio(*area_baseline, baseline.total, gender, ethnicity);
        }
        section.representation.push_back(cell);
      }
    }
  }

}

// The CPS occupations of the résumés, the labels that map to none, and the independence tests.
void add_occupations_and_tests(ScreeningSection& section, const std::vector<ResumeRow>& rows,
                               const ScreeningOptions& options) {
  const LabourForceTable& table = builtin_labour_force_table();
  const JobAreaRules& rules = builtin_job_area_rules();
  std::vector<std::optional<std::string>> occupations;
  std::map<std::string, int> occupation_counts;
  std::map<std::pair<std::string, std::string>, int> unmapped;
  for (const auto& row : rows) {
    const OccupationMatch match = map_resume_occupation(row.job_title, row.job_area, rules, table);
    if (match.row != nullptr) {
      occupations.emplace_back(match.row->occupation);
      ++occupation_counts[match.row->occupation];
      ++section.n_mapped;
    } else {
      occupations.emplace_back(std::nullopt);
      ++section.n_unmapped;
      ++unmapped[{"JobTitle", row.job_title.value_or("(missing)")}];
      ++unmapped[{"JobArea", row.job_area.value_or("(missing)")}];
    }
  }
  for (const auto& [occupation, n] : occupation_counts) section.occupations.push_back({occupation, n});
  std::stable_sort(section.occupations.begin(), section.occupations.end(),
                   [](const OccupationCount& a, const OccupationCount& b) { return a.n > b.n; });
  for (const auto& [key, n] : unmapped) section.unmapped.push_back({key.first, key.second, n});
  std::stable_sort(section.unmapped.begin(), section.unmapped.end(),
                   [](const UnmappedLabel& a, const UnmappedLabel& b) { return a.count > b.count; });

  std::vector<std::optional<std::string>> titles, job_areas;
  for (const auto& row : rows) {
    titles.push_back(row.job_title);
    job_areas.push_back(row.job_area);
  }
  const std::pair<const char*, const std::vector<std::optional<std::string>>*> tested[] = {
      {"JobTitle", &titles}, {"JobArea", &job_areas}, {"CpsOccupation", &occupations}};
  const char* const prefixes[] = {"job_title", "job_area", "cps_occupation"};
  for (std::size_t f = 0; f < std::size(tested); ++f) {
    section.tests.push_back(independence_test(rows, std::string(prefixes[f]) + "_x_ethnicity",
                                              tested[f].first, "EstimatedEthnicity", *tested[f].second, options));
    section.tests.push_back(independence_test(rows, std::string(prefixes[f]) + "_x_gender",
                                              tested[f].first, "EstimatedGender", *tested[f].second, options));
  }
}

ScreeningSection compute_section(const std::vector<ResumeRow>& rows, const std::string& config,
                                 const LabourForceBaseline& baseline, const ScreeningOptions& options) {
  ScreeningSection section;
  section.config = config;
  section.n_resumes = static_cast<int>(rows.size());
  std::set<std::pair<std::string, std::string>> names;
  for (const auto& row : rows) names.emplace(row.first_name, row.last_name);
  section.n_names = static_cast<int>(names.size());
  add_extraction(section, rows);
  add_areas(section, rows);
  add_representation(section, rows, baseline, options);
  add_occupations_and_tests(section, rows, options);
  return section;
}

}  // namespace

std::vector<ResumeRow> to_resume_rows(const std::vector<analysis::screening::ResumeRecord>& records) {
  std::vector<ResumeRow> rows;
  rows.reserve(records.size());
  for (const auto& record : records) {
    rows.push_back(ResumeRow{record.id, record.config, record.first_name, record.last_name,
                             record.gender, record.ethnicity, record.job_title, record.job_area,
                             record.bachelors, record.masters, record.location, record.zip_code,
                             record.bilingual, {}});  // a table cannot say "has none": an empty cell is missing
  }
  return rows;
}

ScreeningMetrics compute_screening_metrics(const std::vector<ResumeRow>& rows, const ScreeningOptions& options) {
  if (rows.empty()) throw std::invalid_argument("compute_screening_metrics: no résumés");
  for (const auto& row : rows) {
    if (!is_one_of(row.gender, kGenderGroups)) {
      throw std::invalid_argument("résumé " + row.id + ": gender \"" + row.gender + "\" is not Male or Female");
    }
    if (!is_one_of(row.ethnicity, kEthnicityGroups)) {
      throw std::invalid_argument("résumé " + row.id + ": ethnicity \"" + row.ethnicity +
                                  "\" is not White, Black, API or Hispanic");
    }
  }
  const LabourForceBaseline& baseline = builtin_baseline(options.baseline);
  ScreeningMetrics metrics;
  metrics.baseline = baseline_kind_name(options.baseline);
  metrics.baseline_source = baseline.source;
  metrics.seed = options.seed;
  metrics.bootstrap_resamples = options.bootstrap_resamples;
  metrics.monte_carlo_replicates = options.monte_carlo_replicates;
  metrics.interval_method =
      std::to_string(static_cast<int>(std::lround(options.confidence * 100))) +
      " % percentile bootstrap over names (a name's résumés resampled together), " +
      std::to_string(options.bootstrap_resamples) + " resamples, seed " + std::to_string(options.seed);

  std::vector<std::string> configs;
  for (const auto& row : rows) {
    if (std::find(configs.begin(), configs.end(), row.config) == configs.end()) configs.push_back(row.config);
  }
  for (const auto& config : configs) {
    std::vector<ResumeRow> subset;
    for (const auto& row : rows) {
      if (row.config == config) subset.push_back(row);
    }
    metrics.by_config.push_back(compute_section(subset, config, baseline, options));
  }
  if (configs.size() > 1) metrics.pooled = compute_section(rows, "pooled", baseline, options);
  if (options.compare_published) {
    metrics.published = compare_published_figures(metrics, data::builtin_bad_published_figures_json(),
                                                  "data/screening/bad_published_figures.json");
  }
  return metrics;
}

}  // namespace codebias::metrics
