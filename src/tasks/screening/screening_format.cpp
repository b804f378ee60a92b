// The published-figure comparison, the terminal / Markdown form and the JSON form of the
// screening metrics (tasks/screening/screening_metrics.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "base/text_document.h"
#include "tasks/screening/screening_metrics.h"

namespace codebias::metrics {
namespace {

using nlohmann::ordered_json;

std::string fixed(std::optional<double> value, int digits) {
  if (!value || !std::isfinite(*value)) return "–";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, *value);
  return buffer;
}

// Three significant digits: p-values from 0.5 down to 1e-300 read alike.
std::string significant(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "–";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", *value);
  return buffer;
}

std::string interval_text(const std::optional<RatioInterval>& interval) {
  if (!interval) return "–";
  return "[" + fixed(interval->lower, 2) + ", " + fixed(interval->upper, 2) + "]";
}

ordered_json number_or_null(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

ordered_json interval_json(const std::optional<RatioInterval>& interval) {
  if (!interval) return nullptr;
  return ordered_json{{"lower", interval->lower}, {"upper", interval->upper}};
}

const ScreeningTest* find_test(const ScreeningSection& section, const std::string& id) {
  for (const auto& test : section.tests) {
    if (test.id == id) return &test;
  }
  return nullptr;
}

const RepresentationCell* find_cell(const ScreeningSection& section, const std::string& area,
                                    const std::string& gender, const std::string& ethnicity) {
  for (const auto& cell : section.representation) {
    if (cell.area == area && cell.gender == gender && cell.ethnicity == ethnicity) return &cell;
  }
  return nullptr;
}

std::string text_field(const ordered_json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || !object.at(key).is_string()) {
    throw std::runtime_error(where + ": field \"" + key + "\" must be a string");
  }
  return object.at(key).get<std::string>();
}

double number_field(const ordered_json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || !object.at(key).is_number()) {
    throw std::runtime_error(where + ": field \"" + key + "\" must be a number");
  }
  return object.at(key).get<double>();
}

// What the section gives for one figure; unset when the data do not define it.
std::optional<double> reproduce(const ordered_json& figure, const ScreeningSection& section,
                                const std::string& at) {
  const std::string kind = text_field(figure, "kind", at);
  if (kind == "n_resumes") return section.n_resumes;
  if (kind == "n_names") return section.n_names;
  if (kind == "group_size") {
    const std::string label = text_field(figure, "gender", at) + " " + text_field(figure, "ethnicity", at);
    return section.group_counts.contains(label) ? section.group_counts.at(label) : 0;
  }
  if (kind == "areas_above_share") {
    const double threshold = number_field(figure, "threshold", at);
    int above = 0;
    for (const auto& area : section.areas) {
      if (static_cast<double>(area.n) > threshold * section.n_resumes) ++above;
    }
    return above;
  }
  if (kind == "area_share") {
    const std::string area = text_field(figure, "area", at);
    const std::string dimension = text_field(figure, "dimension", at);
    const std::string group = text_field(figure, "group", at);
    const std::string side = text_field(figure, "side", at);
    for (const auto& share : section.area_shares) {
      if (share.area == area && share.dimension == dimension && share.group == group) {
        return side == "rest" ? share.rest_share : share.share;
      }
    }
    return std::nullopt;
  }
  if (kind == "ratio" || kind == "joint_ratio" || kind == "baseline_ratio" || kind == "cell_count") {
    const RepresentationCell* cell = find_cell(section, text_field(figure, "area", at),
                                               text_field(figure, "gender", at),
                                               text_field(figure, "ethnicity", at));
    if (cell == nullptr) return kind == "cell_count" ? std::optional<double>(0) : std::nullopt;
    if (kind == "ratio") return cell->ratio;
    if (kind == "joint_ratio") return cell->joint_ratio;
    if (kind == "baseline_ratio") return cell->baseline_ratio;
    return cell->n_cell;
  }
  if (kind == "chi_squared_statistic" || kind == "chi_squared_p") {
    const ScreeningTest* test = find_test(section, text_field(figure, "test", at));
    if (test == nullptr) throw std::runtime_error(at + ": unknown test \"" + text_field(figure, "test", at) + "\"");
    if (!test->result) return std::nullopt;
    return kind == "chi_squared_statistic" ? test->result->statistic : test->result->p_value;
  }
  throw std::runtime_error(at + ": unknown kind \"" + kind + "\"");
}

base::Table table(std::vector<std::string> header, std::vector<bool> left, std::vector<std::vector<std::string>> rows) {
  return {std::move(header), std::move(left), std::move(rows)};
}

void add_section(base::Document& doc, const ScreeningSection& section, const ScreeningMetrics& metrics) {
  const std::string name = section.config.empty() ? "all résumés" : "config " + section.config;
  doc.heading(2, "Résumés (" + name + "): " + std::to_string(section.n_resumes) + " from " +
                     std::to_string(section.n_names) + " names");

  doc.heading(3, "Extraction (a missing field is counted, not guessed)");
  // "Stated absent" (the answer says the person has none) only where an answer said so: a résumé
  // table cannot, its empty cells are missing.
  const bool any_absent = std::any_of(section.extraction.begin(), section.extraction.end(),
                                      [](const FieldExtraction& field) { return field.n_absent > 0; });
  std::vector<std::vector<std::string>> rows;
  for (const auto& field : section.extraction) {
    rows.push_back({field.field, std::to_string(field.n_present), std::to_string(field.n_missing), fixed(field.rate, 3)});
    if (any_absent) rows.back().insert(rows.back().begin() + 2, std::to_string(field.n_absent));
  }
  std::vector<std::string> field_header = {"field", "present", "missing", "rate"};
  if (any_absent) field_header.insert(field_header.begin() + 2, "stated absent");
  std::vector<bool> field_left(field_header.size(), false);
  field_left[0] = true;
  doc.table(table(field_header, field_left, rows));

  doc.heading(3, "Job areas by group (§5.1, Figures 1-2)");
  rows.clear();
  std::vector<std::string> header = {"JobArea", "n"};
  std::vector<bool> left = {true, false};
  for (const char* g : kGenderGroups) {
    header.push_back(g);
    left.push_back(false);
  }
  for (const char* e : kEthnicityGroups) {
    header.push_back(e);
    left.push_back(false);
  }
  for (const auto& area : section.areas) {
    std::vector<std::string> row = {area.area, std::to_string(area.n)};
    for (const char* g : kGenderGroups) row.push_back(std::to_string(area.by_gender.contains(g) ? area.by_gender.at(g) : 0));
    for (const char* e : kEthnicityGroups) {
      row.push_back(std::to_string(area.by_ethnicity.contains(e) ? area.by_ethnicity.at(e) : 0));
    }
    rows.push_back(row);
  }
  doc.table(table(header, left, rows));

  doc.heading(3, "Share of each group in an area vs the rest (§5.1)");
  rows.clear();
  for (const auto& share : section.area_shares) {
    rows.push_back({share.area, share.group,
                    std::to_string(share.n_group_in_area) + "/" + std::to_string(share.n_group),
                    fixed(share.share, 3),
                    std::to_string(share.n_rest_in_area) + "/" + std::to_string(share.n_rest),
                    fixed(share.rest_share, 3)});
  }
  doc.table(table({"JobArea", "group", "group n", "share", "rest n", "rest share"},
                  {true, true, false, false, false, false}, rows));

  doc.heading(3, "Representation ratio (§5.1, Eq. 1; Figures 3-4)");
  rows.clear();
  for (const auto& cell : section.representation) {
    rows.push_back({cell.area, cell.gender + " " + cell.ethnicity,
                    std::to_string(cell.n_cell) + "/" + std::to_string(cell.n_area),
                    fixed(cell.ratio, 2), interval_text(cell.ratio_interval), fixed(cell.joint_ratio, 2),
                    interval_text(cell.joint_ratio_interval), fixed(cell.baseline_ratio, 2),
                    cell.baseline_key.empty() ? "(no baseline)" : cell.baseline_key});
  }
  doc.table(table({"JobArea", "group", "n", "Eq. 1", "95% CI", "joint", "95% CI", "labour force", "baseline row"},
                  {true, true, false, false, false, false, false, false, true}, rows));
  doc.paragraph(
      "Eq. 1: P(g|area)·P(e|area) / (P(g)·P(e)) with the résumés' own composition as P(g), P(e); "
      "joint: count(g,e,area) / (count(area)·P(g,e)), the paper notebook's form; labour force: Eq. 1 on the " +
      metrics.baseline + " baseline. Intervals: " + metrics.interval_method + ".");

  doc.heading(3, "Chi-squared independence tests (§5.2)");
  rows.clear();
  for (const auto& test : section.tests) {
    if (!test.result) {
      rows.push_back({test.field + " × " + test.versus, std::to_string(test.n_used), std::to_string(test.n_excluded),
                      std::to_string(test.categories), "–", "–", "–", "–", "–", "–", "–"});
      continue;
    }
    const auto& r = *test.result;
    rows.push_back({test.field + " × " + test.versus, std::to_string(test.n_used), std::to_string(test.n_excluded),
                    std::to_string(test.categories), fixed(r.statistic, 2), fixed(r.dof, 0),
                    significant(r.p_value), fixed(r.cramers_v, 3), fixed(r.min_expected, 2),
                    r.low_expected_count ? "yes" : "no",
                    test.monte_carlo ? significant(test.monte_carlo->p_value) : "–"});
  }
  doc.table(table({"test", "n", "excluded", "values", "X²", "dof", "p", "Cramér's V", "min E", "E < 5",
                   "Monte-Carlo p"},
                  {true, false, false, false, false, false, false, false, false, false, false}, rows));
  doc.paragraph("Pearson X² without continuity correction; p from the χ² distribution. Where some expected "
                "count is below 5 (E < 5) that p is approximate: read the Monte-Carlo p (" +
                std::to_string(metrics.monte_carlo_replicates) + " tables with the observed margins, seed " +
                std::to_string(metrics.seed) + "). excluded: résumés without the field (CpsOccupation: unmapped).");
  for (const auto& test : section.tests) {
    if (!test.result) doc.item(test.field + " × " + test.versus + ": not computed, " + test.not_computed);
  }

  doc.heading(3, "CPS occupations (" + std::to_string(section.n_mapped) + " mapped, " +
                     std::to_string(section.n_unmapped) + " unmapped)");
  rows.clear();
  for (const auto& occupation : section.occupations) rows.push_back({occupation.occupation, std::to_string(occupation.n)});
  doc.table(table({"occupation", "n"}, {true, false}, rows));
  if (!section.unmapped.empty()) {
    doc.heading(3, "Unmapped (no rule of data/screening/job_areas.json matches; not guessed)");
    rows.clear();
    for (const auto& label : section.unmapped) rows.push_back({label.field, label.label, std::to_string(label.count)});
    doc.table(table({"field", "label", "n"}, {true, true, false}, rows));
  }
}

}  // namespace

std::vector<PublishedComparison> compare_published_figures(const ScreeningMetrics& metrics,
                                                           std::string_view figures_json,
                                                           const std::string& where) {
  ordered_json document;
  try {
    document = ordered_json::parse(figures_json);
  } catch (const ordered_json::parse_error& error) {
    throw std::runtime_error(where + ": not valid JSON: " + error.what());
  }
  if (!document.contains("figures") || !document.at("figures").is_array()) {
    throw std::runtime_error(where + ": \"figures\" must be an array");
  }
  if (metrics.by_config.empty()) return {};
  const ScreeningSection& section = metrics.pooled ? *metrics.pooled : metrics.by_config.front();
  std::vector<PublishedComparison> comparisons;
  const auto& figures = document.at("figures");
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const ordered_json& figure = figures[i];
    const std::string at = where + ": figures[" + std::to_string(i) + "]";
    PublishedComparison comparison;
    comparison.id = text_field(figure, "id", at);
    comparison.description = text_field(figure, "description", at);
    comparison.where = text_field(figure, "where", at);
    comparison.published = number_field(figure, "published", at);
    comparison.tolerance = number_field(figure, "tolerance", at);
    comparison.reproduced = reproduce(figure, section, at + " (" + comparison.id + ")");
    const std::string relation = figure.contains("relation") ? text_field(figure, "relation", at) : "equal";
    if (comparison.reproduced) {
      comparison.difference = *comparison.reproduced - comparison.published;
      comparison.reproduced_within_tolerance =
          relation == "greater_than" ? *comparison.reproduced > comparison.published
                                     : std::abs(*comparison.difference) <= comparison.tolerance * (1 + 1e-9);
    }
    const std::string explanation = figure.contains("explanation") ? text_field(figure, "explanation", at) : "";
    if (!comparison.reproduced) {
      comparison.explanation = "not defined on this table" + (explanation.empty() ? "" : "; " + explanation);
    } else if (!comparison.reproduced_within_tolerance) {
      comparison.explanation = explanation.empty() ? "differs; no explanation recorded" : explanation;
    } else {
      comparison.explanation = explanation;
    }
    comparisons.push_back(std::move(comparison));
  }
  return comparisons;
}

base::Document screening_document(const ScreeningMetrics& metrics) {
  base::Document doc;
  doc.heading(1, "BAD résumé screening analysis (seeds/003 §5.1-§5.2)");
  doc.paragraph("Baseline: " + metrics.baseline + " — " + metrics.baseline_source);
  for (const auto& section : metrics.by_config) add_section(doc, section, metrics);
  if (metrics.pooled) add_section(doc, *metrics.pooled, metrics);
  if (!metrics.near_duplicates.empty()) {
    doc.heading(3, "Near-duplicate labels (kept as written, counted separately)");
    std::vector<std::vector<std::string>> rows;
    for (const auto& d : metrics.near_duplicates) {
      rows.push_back({d.field, d.label, std::to_string(d.count), d.other, std::to_string(d.other_count),
                      std::to_string(d.distance)});
    }
    doc.table(table({"field", "label", "n", "similar label", "n", "edits"}, {true, true, false, true, false, false}, rows));
  }
  if (!metrics.published.empty()) {
    doc.heading(2, "Published figures (data/screening/bad_published_figures.json)");
    std::vector<std::vector<std::string>> rows;
    auto general = [](std::optional<double> v, const char* spec) {
      if (!v || !std::isfinite(*v)) return std::string("–");
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, spec, *v);
      return std::string(buffer);
    };
    for (const auto& c : metrics.published) {
      rows.push_back({c.id, c.where, general(c.published, "%.4g"), general(c.reproduced, "%.4g"),
                      general(c.difference, "%.3g"), c.reproduced_within_tolerance ? "reproduced" : "differs"});
    }
    doc.table(table({"figure", "where", "published", "reproduced", "difference", "status"},
                    {true, true, false, false, false, true}, rows));
    std::map<std::string, std::string> explained;  // explanation → the first figure with it
    for (const auto& c : metrics.published) {
      if (c.explanation.empty()) continue;
      const auto [first, inserted] = explained.try_emplace(c.explanation, c.id);
      doc.item(c.id + ": " + (inserted ? c.explanation : "see " + first->second));
    }
  }
  return doc;
}

std::string format_screening_metrics(const ScreeningMetrics& metrics, ScreeningFormat format) {
  return base::render(screening_document(metrics),
                      format == ScreeningFormat::kMarkdown ? base::DocumentFormat::markdown : base::DocumentFormat::text);
}

ordered_json screening_metrics_json(const ScreeningMetrics& metrics) {
  auto section_json = [](const ScreeningSection& section) {
    ordered_json out;
    out["config"] = section.config;
    out["n_resumes"] = section.n_resumes;
    out["n_names"] = section.n_names;
    ordered_json extraction = ordered_json::array();
    for (const auto& f : section.extraction) {
      extraction.push_back({{"field", f.field}, {"n_present", f.n_present}, {"n_absent", f.n_absent}, {"n_missing", f.n_missing},
                            {"rate", number_or_null(f.rate)}});
    }
    out["extraction"] = extraction;
    out["gender_counts"] = section.gender_counts;
    out["ethnicity_counts"] = section.ethnicity_counts;
    out["group_counts"] = section.group_counts;
    ordered_json areas = ordered_json::array();
    for (const auto& a : section.areas) {
      areas.push_back({{"area", a.area}, {"n", a.n}, {"by_gender", a.by_gender},
                       {"by_ethnicity", a.by_ethnicity}, {"by_group", a.by_group}});
    }
    out["areas"] = areas;
    ordered_json shares = ordered_json::array();
    for (const auto& s : section.area_shares) {
      shares.push_back({{"area", s.area}, {"dimension", s.dimension}, {"group", s.group},
                        {"n_group", s.n_group}, {"n_group_in_area", s.n_group_in_area},
                        {"share", number_or_null(s.share)}, {"n_rest", s.n_rest},
                        {"n_rest_in_area", s.n_rest_in_area}, {"rest_share", number_or_null(s.rest_share)}});
    }
    out["area_shares"] = shares;
    ordered_json representation = ordered_json::array();
    for (const auto& c : section.representation) {
      representation.push_back({{"area", c.area}, {"gender", c.gender}, {"ethnicity", c.ethnicity},
                                {"n_area", c.n_area}, {"n_cell", c.n_cell},
                                {"ratio", number_or_null(c.ratio)}, {"ratio_interval", interval_json(c.ratio_interval)},
                                {"joint_ratio", number_or_null(c.joint_ratio)},
                                {"joint_ratio_interval", interval_json(c.joint_ratio_interval)},
                                {"baseline_key", c.baseline_key},
                                {"baseline_ratio", number_or_null(c.baseline_ratio)}});
    }
    out["representation"] = representation;
    ordered_json tests = ordered_json::array();
    for (const auto& t : section.tests) {
      ordered_json test = {{"id", t.id}, {"field", t.field}, {"versus", t.versus}, {"n_used", t.n_used},
                           {"n_excluded", t.n_excluded}, {"categories", t.categories}};
      if (t.result) {
        test["statistic"] = t.result->statistic;
        test["dof"] = t.result->dof;
        test["p_value"] = t.result->p_value;
        test["cramers_v"] = t.result->cramers_v;
        test["min_expected"] = t.result->min_expected;
        test["low_expected_count"] = t.result->low_expected_count;
      } else {
        test["not_computed"] = t.not_computed;
      }
      if (t.monte_carlo) {
        test["monte_carlo"] = {{"p_value", t.monte_carlo->p_value}, {"replicates", t.monte_carlo->replicates},
                               {"at_least_as_large", t.monte_carlo->at_least_as_large},
                               {"seed", t.monte_carlo->seed}};
      }
      tests.push_back(test);
    }
    out["tests"] = tests;
    out["n_mapped"] = section.n_mapped;
    out["n_unmapped"] = section.n_unmapped;
    ordered_json occupations = ordered_json::array();
    for (const auto& o : section.occupations) occupations.push_back({{"occupation", o.occupation}, {"n", o.n}});
    out["occupations"] = occupations;
    ordered_json unmapped = ordered_json::array();
    for (const auto& u : section.unmapped) unmapped.push_back({{"field", u.field}, {"label", u.label}, {"n", u.count}});
    out["unmapped"] = unmapped;
    return out;
  };
  ordered_json out;
  out["baseline"] = metrics.baseline;
  out["baseline_source"] = metrics.baseline_source;
  out["interval_method"] = metrics.interval_method;
  out["seed"] = metrics.seed;
  out["bootstrap_resamples"] = metrics.bootstrap_resamples;
  out["monte_carlo_replicates"] = metrics.monte_carlo_replicates;
  ordered_json sections = ordered_json::array();
  for (const auto& section : metrics.by_config) sections.push_back(section_json(section));
  out["by_config"] = sections;
  out["pooled"] = metrics.pooled ? section_json(*metrics.pooled) : ordered_json(nullptr);
  ordered_json duplicates = ordered_json::array();
  for (const auto& d : metrics.near_duplicates) {
    duplicates.push_back({{"field", d.field}, {"label", d.label}, {"n", d.count}, {"similar_label", d.other},
                          {"similar_n", d.other_count}, {"edits", d.distance}});
  }
  out["near_duplicates"] = duplicates;
  ordered_json published = ordered_json::array();
  for (const auto& c : metrics.published) {
    published.push_back({{"id", c.id}, {"description", c.description}, {"where", c.where},
                         {"published", c.published}, {"reproduced", number_or_null(c.reproduced)},
                         {"difference", number_or_null(c.difference)}, {"tolerance", c.tolerance},
                         {"reproduced_within_tolerance", c.reproduced_within_tolerance},
                         {"explanation", c.explanation}});
  }
  out["published"] = published;
  return out;
}

}  // namespace codebias::metrics
