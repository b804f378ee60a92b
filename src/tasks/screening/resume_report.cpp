// The resume task's report sections (BAD §5.1-§5.2; docs/screening.md): how the answers were
// read, then the screening analysis (tasks/screening/screening_metrics.h) as `codebias screening
// analyze` prints it, with the representation ratios as heatmaps (the paper's Figures 3-4) and
// the job areas per group as a chart (Figures 1-2).
#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "tasks/screening/screening_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

// The areas shown as heatmaps and chart series: the most frequent ones.
constexpr std::size_t kShownAreas = 6;

std::string group_label(const std::string& gender, const std::string& ethnicity) { return ethnicity + " " + gender; }

std::vector<std::pair<std::string, std::string>> groups() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* g : metrics::kGenderGroups) {
    for (const char* e : metrics::kEthnicityGroups) out.emplace_back(g, e);
  }
  return out;
}

double or_nan(const std::optional<double>& value) {
  return value ? *value : std::numeric_limits<double>::quiet_NaN();
}

std::string interval_cell(const std::optional<metrics::RatioInterval>& interval, bool lower) {
  if (!interval) return "";
  return csv_number(lower ? interval->lower : interval->upper, 4);
}

class ResumeReport final : public TaskReport {
 public:
  explicit ResumeReport(const metrics::ResumeResults& results) : results_(results), m_(results.metrics) {}

  void add_to_summary(ordered_json& summary) const override {
    add_function_cells_to_summary({}, summary);  // every summary.json has the function table's keys
    const auto& r = results_.reading;
    summary["resume_reading"] = {{"answers", r.answers},
                                 {"by_status", r.by_status},
                                 {"follow_ups_sent", r.follow_ups_sent},
                                 {"fields_from_follow_ups", r.fields_from_follow_ups}};
    summary["screening_metrics"] = metrics::screening_metrics_json(m_);
  }

  // One row per configuration × area × gender × ethnicity of the representation table.
  std::string metrics_csv(const ordered_json& /*config_costs*/) const override {
    std::ostringstream out;
    out << "config,area,gender,ethnicity,n_area,n_cell,ratio,ratio_ci_lower,ratio_ci_upper,joint_ratio,"
           "joint_ratio_ci_lower,joint_ratio_ci_upper,baseline_occupation,baseline_ratio\n";
    for (const auto* section : sections()) {
      for (const auto& c : section->representation) {
        out << csv_cell(section->config) << ',' << csv_cell(c.area) << ',' << c.gender << ',' << c.ethnicity << ','
            << c.n_area << ',' << c.n_cell << ',' << csv_number(c.ratio, 4) << ','
            << interval_cell(c.ratio_interval, true) << ',' << interval_cell(c.ratio_interval, false) << ','
            << csv_number(c.joint_ratio, 4) << ',' << interval_cell(c.joint_ratio_interval, true) << ','
            << interval_cell(c.joint_ratio_interval, false) << ',' << csv_cell(c.baseline_key) << ','
            << csv_number(c.baseline_ratio, 4) << '\n';
      }
    }
    return out.str();
  }

  void write_markdown(std::ostream& out) const override {
    out << "\n" << base::render(document(), base::DocumentFormat::markdown, 1);
  }

  std::vector<HeadlineCard> headline_cards() const override {
    std::vector<HeadlineCard> cards;
    const auto* section = main_section();
    if (section == nullptr) return cards;
    cards.push_back({"résumés", std::to_string(section->n_resumes),
                     std::to_string(section->n_names) + " names, " + std::to_string(results_.reading.follow_ups_sent) +
                         " follow-up turns"});
    for (const auto& test : section->tests) {
      if (test.id != "job_area_x_ethnicity" && test.id != "job_area_x_gender") continue;
      if (!test.result) continue;
      const double p = test.monte_carlo ? test.monte_carlo->p_value : test.result->p_value;
      char text[32];
      std::snprintf(text, sizeof text, "%.3g", p);
      cards.push_back({"p, " + test.field + " × " + test.versus, text,
                       "X² = " + fixed(test.result->statistic, 2) + ", Cramér's V = " + fixed(test.result->cramers_v, 3) +
                           (test.monte_carlo ? " (Monte-Carlo p: small expected counts)" : "")});
    }
    cards.push_back({"unmapped job titles/areas", std::to_string(section->n_unmapped),
                     "of " + std::to_string(section->n_mapped + section->n_unmapped) + " with a title or area"});
    return cards;
  }

  HeatmapHeading heatmap_heading() const override {
    return {"Representation ratio by ethnicity × gender (BAD Eq. 1, Figures 3-4)",
            "P(g | area)·P(e | area) / (P(g)·P(e)): 1 = the group is as likely in the area as on average; above 1 "
            "over-represented (red), below 1 under-represented (blue). Rows: the résumés (Eq. 1 and the paper "
            "notebook's joint form, with the run's own name composition as the average) and the labour force "
            "(Eq. 1 on the baseline's shares for the area's occupation)."};
  }

  std::vector<Heatmap> heatmaps() const override {
    std::vector<Heatmap> maps;
    const auto* section = main_section();
    if (section == nullptr) return maps;
    const auto all = groups();
    for (std::size_t a = 0; a < section->areas.size() && a < kShownAreas; ++a) {
      const std::string& area = section->areas[a].area;
      Heatmap map;
      map.attribute = area + " (" + std::to_string(section->areas[a].n) + " résumés)";
      map.scale = HeatScale::ratio;
      std::vector<double> eq1, joint, baseline;
      std::string baseline_key;
      for (const auto& [gender, ethnicity] : all) {
        map.groups.push_back(group_label(gender, ethnicity));
        const metrics::RepresentationCell* cell = find_cell(*section, area, gender, ethnicity);
        eq1.push_back(cell ? or_nan(cell->ratio) : std::numeric_limits<double>::quiet_NaN());
        joint.push_back(cell ? or_nan(cell->joint_ratio) : std::numeric_limits<double>::quiet_NaN());
        baseline.push_back(cell ? or_nan(cell->baseline_ratio) : std::numeric_limits<double>::quiet_NaN());
        if (cell && !cell->baseline_key.empty()) baseline_key = cell->baseline_key;
      }
      map.rows = {{"résumés (Eq. 1)", eq1}, {"résumés (joint)", joint},
                  {"labour force" + (baseline_key.empty() ? std::string(" (no baseline)") : ": " + baseline_key), baseline}};
      maps.push_back(std::move(map));
    }
    return maps;
  }

  std::vector<ChartSpec> charts() const override {
    std::vector<ChartSpec> charts;
    const auto* section = main_section();
    if (section == nullptr || section->areas.empty()) return charts;
    ChartSpec chart{"Job areas per group (BAD Figures 1-2)", "share of the group's résumés with a job area", {}, {}, 1.0};
    const auto all = groups();
    std::vector<int> with_area(all.size(), 0);
    for (const auto& area : section->areas) {
      for (std::size_t g = 0; g < all.size(); ++g) {
        const auto it = area.by_group.find(all[g].first + " " + all[g].second);
        if (it != area.by_group.end()) with_area[g] += it->second;
      }
    }
    for (const auto& [gender, ethnicity] : all) chart.labels.push_back(group_label(gender, ethnicity));
    for (std::size_t a = 0; a < section->areas.size() && a < kShownAreas; ++a) {
      const auto& area = section->areas[a];
      std::vector<std::optional<double>> shares;
      for (std::size_t g = 0; g < all.size(); ++g) {
        const auto it = area.by_group.find(all[g].first + " " + all[g].second);
        const int n = it == area.by_group.end() ? 0 : it->second;
        shares.push_back(with_area[g] > 0 ? std::optional<double>(static_cast<double>(n) / with_area[g]) : std::nullopt);
      }
      chart.datasets.emplace_back(area.area, std::move(shares));
    }
    charts.push_back(std::move(chart));
    return charts;
  }

  void write_html_tables(std::ostream& out) const override {
    out << "<section id=\"screening\">";
    write_html(out, document(), 1);
    out << "</section>\n";
  }

  std::string how_to_read() const override {
    return "The sample counts include the follow-up turns (each a sample of its own); `résumés read` counts the "
           "first turns whose résumé could be read (JSON or text), `refusals` those that declined. A field is counted "
           "as present only when the answer states it; the rates, tests and ratios above use the résumés that have "
           "the field. Each sample's fields, with where each came from, are in `responses.jsonl`; the numbers "
           "above are in `summary.json` and `metrics.csv` (the representation table).";
  }

  // Bias here is a property of how job areas are spread over the groups, not of one résumé.
  std::vector<SampleFinding> findings(const ordered_json&) const override { return {}; }
  const char* with_code_label() const override { return "résumés read"; }
  const char* refusal_label() const override { return "refusals (no résumé)"; }
  const char* amount_name() const override { return "value"; }
  const char* biased_samples_text() const override { return nullptr; }

 private:
  std::vector<const metrics::ScreeningSection*> sections() const {
    std::vector<const metrics::ScreeningSection*> out;
    for (const auto& s : m_.by_config) out.push_back(&s);
    if (m_.pooled) out.push_back(&*m_.pooled);
    return out;
  }

  // The pooled section of a sweep, else the only one.
  const metrics::ScreeningSection* main_section() const {
    if (m_.pooled) return &*m_.pooled;
    return m_.by_config.empty() ? nullptr : &m_.by_config.front();
  }

  static const metrics::RepresentationCell* find_cell(const metrics::ScreeningSection& section, const std::string& area,
                                                      const std::string& gender, const std::string& ethnicity) {
    for (const auto& cell : section.representation) {
      if (cell.area == area && cell.gender == gender && cell.ethnicity == ethnicity) return &cell;
    }
    return nullptr;
  }

  base::Document document() const {
    const auto& r = results_.reading;
    std::string statuses;
    for (const auto& [status, n] : r.by_status) statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(n);
    base::Document doc;
    doc.heading(1, "Candidate screening: résumés (BAD §4.2, §5.1-§5.2)");
    doc.paragraph(std::to_string(r.answers) + " résumés answered, read as: " + (statuses.empty() ? "none" : statuses) +
                  " (json: the fields from the JSON object the prompt asks for; text: from the résumé itself; a "
                  "field neither states is missing, never guessed). " + std::to_string(r.follow_ups_sent) +
                  " follow-up turns asked for missing fields and brought " + std::to_string(r.fields_from_follow_ups) +
                  " of them.");
    doc.append(metrics::screening_document(m_), 1);
    return doc;
  }

  const metrics::ResumeResults& results_;
  const metrics::ScreeningMetrics& m_;
};

}  // namespace

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> ResumeResults::report() const {
  return std::make_unique<reports::ResumeReport>(*this);
}

std::optional<RatedCells> ResumeResults::rated_cells() const {
  // A representation ratio is a share of an area's résumés: the area's count is its n.
  RatedCells out{"résumés in the area", "n", {}};
  for (const auto& section : metrics.by_config) {
    for (const auto& area : section.areas)
      out.cells.push_back({rated_cell_label({section.config, area.area}), area.n, std::nullopt});
  }
  return out;
}

}  // namespace codebias::metrics
