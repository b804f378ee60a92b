// The cat task's report sections (BAD §5.3 and Table 1; docs/screening.md, "Context Association
// Test"): ss, nss and icat per configuration and group in both definitions (StereoSet's and the
// paper's Table 1), and the position-bias check, as tasks/screening/cat_metrics.h lays them out.
#include <ostream>
#include <sstream>

#include "base/json_fields.h"
#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "tasks/screening/screening_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

std::string score_cells(const metrics::CatScore& score) {
  return csv_number(score.value, 2) + ',' + csv_number(score.lower, 2) + ',' + csv_number(score.upper, 2);
}

std::string score_text(const metrics::CatScore& score) {
  if (!score.value) return "–";
  return fixed(score.value, 1) + (score.lower && score.upper ? " [" + fixed(score.lower, 1) + ", " + fixed(score.upper, 1) + "]" : "");
}

class CatReport final : public TaskReport {
 public:
  explicit CatReport(const metrics::CatResults& results) : m_(results.metrics) {}

  void add_to_summary(ordered_json& summary) const override {
    add_function_cells_to_summary({}, summary);  // every summary.json has the function table's keys
    summary["cat_metrics"] = metrics::to_json(m_);
  }

  std::string metrics_csv(const ordered_json& /*config_costs*/) const override {
    std::ostringstream out;
    out << "config,grouping,group,stereotype,anti_stereotype,neutral,refusal,unparseable,answered,"
           "ss,ss_ci_lower,ss_ci_upper,nss,nss_ci_lower,nss_ci_upper,icat,icat_ci_lower,icat_ci_upper,"
           "paper_ss,paper_ss_ci_lower,paper_ss_ci_upper,paper_icat,paper_icat_ci_lower,paper_icat_ci_upper\n";
    for (const auto& c : m_.cells) {
      const auto& n = c.counts;
      out << csv_cell(c.config) << ',' << csv_cell(c.grouping) << ',' << csv_cell(c.group) << ',' << n.stereotype << ','
          << n.anti_stereotype << ',' << n.neutral << ',' << n.refusal << ',' << n.unparseable << ',' << n.answered()
          << ',' << score_cells(c.ss) << ',' << score_cells(c.nss) << ',' << score_cells(c.icat) << ','
          << score_cells(c.paper_ss) << ',' << score_cells(c.paper_icat) << '\n';
    }
    return out.str();
  }

  void write_markdown(std::ostream& out) const override {
    out << "\n" << base::render(document(), base::DocumentFormat::markdown, 1);
  }

  std::vector<HeadlineCard> headline_cards() const override {
    std::vector<HeadlineCard> cards;
    const metrics::CatCell* all = overall();
    if (all == nullptr) return cards;
    const std::string answered = std::to_string(all->counts.answered()) + " answered, " +
                                 std::to_string(all->counts.refusal) + " refusals, " +
                                 std::to_string(all->counts.unparseable) + " unparseable";
    cards.push_back({"ss (StereoSet)", score_text(all->ss), "50 = no preference; " + answered});
    cards.push_back({"nss", score_text(all->nss), "share choosing the neutral option; 100 ideal"});
    cards.push_back({"icat", score_text(all->icat), "nss·min(ss, 100 − ss)/50; 100 ideal"});
    return cards;
  }

  std::vector<Heatmap> heatmaps() const override { return {}; }

  std::vector<ChartSpec> charts() const override {
    std::vector<ChartSpec> charts;
    ChartSpec chart{"CAT scores per configuration (BAD Table 1)", "score (0-100)", {}, {}, 100.0};
    std::vector<std::optional<double>> ss, nss, icat;
    for (const auto& c : m_.cells) {
      if (c.grouping != "all") continue;
      chart.labels.push_back(c.config.empty() ? "default" : c.config);
      ss.push_back(c.ss.value);
      nss.push_back(c.nss.value);
      icat.push_back(c.icat.value);
    }
    if (chart.labels.empty()) return charts;
    chart.datasets = {{"ss", ss}, {"nss", nss}, {"icat", icat}};
    charts.push_back(std::move(chart));
    return charts;
  }

  void write_html_tables(std::ostream& out) const override {
    out << "<section id=\"cat\">";
    write_html(out, document(), 1);
    out << "</section>\n";
  }

  std::string how_to_read() const override {
    return "`with a choice` counts the answers that chose an option, `refusals` those that declined, `unparseable` "
           "those that named no shown option or several; only choices enter ss, nss and icat. Each sample's choice, "
           "with the text it was read from and the options in the order shown, is in `responses.jsonl`; the numbers "
           "above are in `summary.json` and `metrics.csv`.";
  }

  // An answer that chose the stereotype option, with the option it chose.
  std::vector<SampleFinding> findings(const ordered_json& analysis) const override {
    if (base::string_or_empty(analysis, "label") != "stereotype") return {};
    SampleFinding finding{"stereotype chosen", {{"position", json_text(analysis.value("position", ordered_json()))}}, {}};
    finding.evidence.push_back({{"line", nullptr}, {"text", analysis.value("evidence", ordered_json())}, {"detail", "cat/choice"}});
    return {finding};
  }
  const char* with_code_label() const override { return "with a choice"; }
  const char* refusal_label() const override { return "refusals (no choice)"; }
  const char* amount_name() const override { return "value"; }
  const char* biased_samples_text() const override { return " answers chose the stereotype option."; }

 private:
  // The pooled cell of every configuration (the only configuration's without a sweep).
  const metrics::CatCell* overall() const {
    const metrics::CatCell* found = nullptr;
    for (const auto& c : m_.cells) {
      if (c.grouping == "all" && (found == nullptr || c.config == metrics::kAllConfigs)) found = &c;
    }
    return found;
  }

  base::Document document() const {
    base::Document doc;
    doc.heading(1, "Candidate screening: Context Association Test (BAD §5.3, Table 1)");
    doc.paragraph(
        "ss = 100·S/(S + A) and nss = 100·N/(S + A + N) as StereoSet (Nadeem et al. 2021) defines them, icat = "
        "nss·min(ss, 100 − ss)/50 (BAD Eq. 2); paper ss = 100·S/(S + A + N), the figure BAD's Table 1 prints "
        "under ss. Refusals and unparseable answers are counted and enter no denominator. Each item's options "
        "are shown in several seeded orders (recorded per sample); the position check shows the share of "
        "choices per shown position whatever it holds.");
    doc.append(metrics::cat_metrics_document(m_), 1);
    return doc;
  }

  const metrics::CatMetrics& m_;
};

}  // namespace

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> CatResults::report() const { return std::make_unique<reports::CatReport>(*this); }

std::optional<RatedCells> CatResults::rated_cells() const {
  RatedCells out{"answered items", "n", {}};
  for (const auto& c : metrics.cells) {
    out.cells.push_back({rated_cell_label({c.config, c.grouping, c.group}), c.counts.answered(), std::nullopt});
  }
  return out;
}

}  // namespace codebias::metrics
