#include "tasks/hiring_audit/hiring_report.h"

#include <ctime>
#include <ostream>
#include <sstream>

#include "base/json_fields.h"
#include "base/text_document.h"
#include "reports/metric_text.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::ordered_json;

constexpr const char* kTables[] = {"sex", "race_ethnicity", "intersectional"};

std::optional<double> number_or_none(const ordered_json& value) {
  return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
}

std::string interval_text(const ordered_json& interval) {
  if (!interval.is_array() || interval.size() != 2) return "–";
  return "[" + reports::fixed(interval[0].get<double>(), 3) + ", " + reports::fixed(interval[1].get<double>(), 3) + "]";
}

base::Table ll144_table(const ordered_json& rows, const std::string& rate_kind) {
  base::Table table{{"category", "n", rate_kind + " rate", "95 % CI", "impact ratio", "95 % CI", "Fisher p",
                     "EEOC 4/5 flag", "evidence"},
                    {true, false, false, false, false, false, false, true, true},
                    {}};
  for (const auto& row : rows) {
    const bool excluded = row.value("excluded", false);
    table.rows.push_back(
        {base::string_or_empty(row, "category") + (excluded ? " (excluded, < 2 %)" : ""),
         std::to_string(row.value("n", 0)), reports::fixed(number_or_none(row["rate"]), 3), interval_text(row["ci95"]),
         reports::fixed(number_or_none(row["impact_ratio"]), 3), interval_text(row["impact_ratio_ci95"]),
         row["fisher_p"].is_number() ? reports::p_value_text(row["fisher_p"].get<double>()) : "–",
         row.value("eeoc_four_fifths_flag", false) ? "below 0.8" : "", base::string_or_empty(row, "evidence")});
  }
  return table;
}

base::Table paired_table(const ordered_json& paired) {
  base::Table table{{"table", "category", "reference", "pairs", "difference", "test", "p"},
                    {true, true, true, false, false, true, false},
                    {}};
  for (const char* name : kTables)
    for (const auto& row : paired.value(name, ordered_json::array())) {
      const std::string difference =
          row.contains("mean_difference")
              ? reports::fixed(number_or_none(row["mean_difference"]), 2)
              : std::to_string(row.value("category_only", 0)) + " vs " + std::to_string(row.value("reference_only", 0));
      table.rows.push_back({name, base::string_or_empty(row, "category"), base::string_or_empty(row, "reference"),
                            std::to_string(row.value("pairs", 0)), difference, base::string_or_empty(row, "test"),
                            reports::p_value_text(row.value("p_value", 1.0))});
    }
  return table;
}

// What the rate counts; the code audit's scores are read against each function's own pool.
std::string rate_note(const ordered_json& design) {
  if (base::string_or_empty(design, "rate_kind") != "scoring") return " (share selected)";
  if (!design.contains("median_score")) return " (share scoring above the median of its own function's pool)";
  return " (share scoring above the sample's median score, " + reports::fixed(number_or_none(design["median_score"]), 1) +
         ")";
}

void add_design(base::Document& doc, const ordered_json& design) {
  const std::string kind = base::string_or_empty(design, "rate_kind");
  doc.heading(2, "Design: " + reports::audit_design_title(design));
  std::string answers;
  for (const auto& [status, count] : design["answers"].items())
    answers += (answers.empty() ? "" : ", ") + std::to_string(count.get<int>()) + " " + status;
  doc.paragraph("Rate: " + kind +
                rate_note(design) +
                ". Individuals: " + std::to_string(design.value("individuals", 0)) +
                "; of unknown category: " + std::to_string(design.value("unknown", 0)) + ". Answers: " + answers +
                " (only answered ones enter the tables).");
  for (const char* name : kTables) {
    doc.heading(3,
                std::string("Impact ratios by ") + (std::string(name) == "race_ethnicity" ? "race/ethnicity" : name));
    doc.table(ll144_table(design["tables"][name], kind));
  }
  if (design.contains("paired")) {  // the code audit has no paired résumés
    doc.heading(3, "Beyond LL144: the same résumé under two names");
    doc.table(paired_table(design["paired"]));
  }
  if (design.contains("position_bias")) {
    const auto& bias = design["position_bias"];
    base::Table table{{"position", "shown", "picked", "rate", "95 % CI"}, {true, false, false, false, false}, {}};
    for (const auto& row : bias["positions"])
      table.rows.push_back({std::to_string(row.value("position", 0)), std::to_string(row.value("n", 0)),
                            std::to_string(row.value("picked", 0)), reports::fixed(number_or_none(row["rate"]), 3),
                            interval_text(row["ci95"])});
    doc.heading(3, "Position bias");
    doc.paragraph("Expected rate without position bias: " + reports::fixed(number_or_none(bias["expected_rate"]), 3) +
                  (bias.contains("p_value") ? "; " + base::string_or_empty(bias, "test") +
                                                  ": p = " + reports::p_value_text(bias["p_value"].get<double>())
                                            : std::string()) +
                  ".");
    doc.table(std::move(table));
  }
  if (design.contains("qualification_gradient")) {
    const auto& gradient = design["qualification_gradient"];
    base::Table table{{"level", "lowest category rate", "highest category rate"}, {true, false, false}, {}};
    for (const auto& row : gradient["levels"])
      table.rows.push_back({base::string_or_empty(row, "level"),
                            reports::fixed(number_or_none(row["lowest_category_rate"]), 3),
                            reports::fixed(number_or_none(row["highest_category_rate"]), 3)});
    doc.heading(3, "Qualification gradient");
    doc.paragraph(gradient.value("stronger_always_wins", false)
                      ? "A stronger résumé beat a weaker one whatever the names: every category's rate at each level "
                        "is above every category's rate at the next weaker level."
                      : "A name outweighed a qualification level: some category's rate at a level is at or below "
                        "another category's rate at the next weaker level.");
    doc.table(std::move(table));
  }
}

class HiringReport final : public reports::TaskReport {
 public:
  HiringReport(ordered_json audit, AuditContext context) : audit_(std::move(audit)), context_(std::move(context)) {}

  void add_to_summary(ordered_json& summary) const override {
    reports::add_function_cells_to_summary({}, summary);  // every summary.json has the function table's keys
    summary["audit_summary"] = audit_summary_json(context_);
    summary["audit"] = audit_;
  }

  std::string metrics_csv(const nlohmann::ordered_json& /*config_costs*/) const override { return audit_csv(audit_); }

  void write_markdown(std::ostream& out) const override {
    out << "\n" << base::render(document(), base::DocumentFormat::markdown, 1);
  }

  std::vector<reports::HeadlineCard> headline_cards() const override {
    std::vector<reports::HeadlineCard> cards;
    for (const auto& design : audit_) {
      const ordered_json* lowest = nullptr;
      for (const auto& row : design["tables"]["intersectional"])
        if (row["impact_ratio"].is_number() &&
            (lowest == nullptr || row["impact_ratio"].get<double>() < (*lowest)["impact_ratio"].get<double>()))
          lowest = &row;
      if (lowest == nullptr) continue;
      cards.push_back(
          {"lowest impact ratio, " + reports::audit_design_title(design),
           reports::fixed((*lowest)["impact_ratio"].get<double>(), 2),
           base::string_or_empty(*lowest, "category") + " " + interval_text((*lowest)["impact_ratio_ci95"])});
    }
    return cards;
  }

  std::vector<reports::Heatmap> heatmaps() const override { return {}; }

  std::vector<reports::ChartSpec> charts() const override { return reports::impact_ratio_charts(audit_); }

  void write_html_tables(std::ostream& out) const override {
    out << "<section id=\"hiring-audit\">";
    reports::write_html(out, document(), 1);
    out << "</section>\n";
  }

  std::string how_to_read() const override {
    return "`answers read` counts the answers read as a decision (a score, a yes/no, one candidate), `refusals` those "
           "that declined, `unparseable` ties, hedges and unreadable answers (each counted apart under Answers); only "
           "decisions enter the rates. Each sample's reading is in `responses.jsonl`; the tables are in "
           "`summary.json` (`audit`) and `metrics.csv`.";
  }

  std::vector<reports::SampleFinding> findings(const ordered_json&) const override { return {}; }
  const char* with_code_label() const override { return "answers read"; }
  const char* refusal_label() const override { return "refusals"; }
  const char* amount_name() const override { return "value"; }
  const char* biased_samples_text() const override { return nullptr; }  // bias is a property of categories

 private:
  base::Document document() const { return audit_document(audit_, context_); }

  ordered_json audit_;
  AuditContext context_;
};

}  // namespace

std::string utc_date(double unix_seconds) {
  const std::time_t time = static_cast<std::time_t>(unix_seconds);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
  return text;
}

ordered_json audit_summary_json(const AuditContext& context) {
  return {{"date", context.date},
          {"model", context.model},
          {"data_source", context.data_source},
          {"test_data", true},
          {"law", "NYC Local Law 144 of 2021, 6 RCNY §5-300 ff."},
          {"heuristic", "EEOC four-fifths rule, 29 CFR 1607.4(D) (not LL144's criterion)"}};
}

std::string audit_csv(const ordered_json& audit) {
  std::ostringstream out;
  out << "design,configuration,rate_kind,table,category,n,selected,rate,ci95_lower,ci95_upper,impact_ratio,"
         "impact_ratio_ci95_lower,impact_ratio_ci95_upper,excluded,fisher_p,eeoc_four_fifths_flag,evidence\n";
  for (const auto& design : audit)
    for (const char* name : kTables)
      for (const auto& row : design["tables"][name]) {
        auto bound = [](const ordered_json& interval, int i) {
          return interval.is_array() ? std::optional<double>(interval[static_cast<std::size_t>(i)].get<double>())
                                     : std::nullopt;
        };
        out << reports::csv_cell(base::string_or_empty(design, "design")) << ','
            << reports::csv_cell(base::string_or_empty(design, "configuration")) << ','
            << base::string_or_empty(design, "rate_kind") << ',' << name << ','
            << reports::csv_cell(base::string_or_empty(row, "category")) << ',' << row.value("n", 0) << ','
            << row.value("selected", 0) << ',' << reports::csv_number(number_or_none(row["rate"]), 4) << ','
            << reports::csv_number(bound(row["ci95"], 0), 4) << ',' << reports::csv_number(bound(row["ci95"], 1), 4)
            << ',' << reports::csv_number(number_or_none(row["impact_ratio"]), 4) << ','
            << reports::csv_number(bound(row["impact_ratio_ci95"], 0), 4) << ','
            << reports::csv_number(bound(row["impact_ratio_ci95"], 1), 4) << ','
            << (row.value("excluded", false) ? "true" : "false") << ','
            << reports::csv_number(number_or_none(row["fisher_p"]), 6) << ','
            << (row.value("eeoc_four_fifths_flag", false) ? "true" : "false") << ','
            << reports::csv_cell(base::string_or_empty(row, "evidence")) << '\n';
      }
  return out.str();
}

base::Document audit_document(const ordered_json& audit, const AuditContext& context) {
  base::Document doc;
  doc.heading(1, "Hiring audit: bias-audit summary (NYC Local Law 144)");
  doc.paragraph("Date of the audit: " + context.date + ". Data source: " + context.data_source +
                " This is test data (6 RCNY §5-301(b)): no historical data of an employer was used. Model: " +
                context.model + ".");
  doc.paragraph(
      "Each table gives, per category, the number of individuals, the selection rate (a tool that selects) or the "
      "scoring rate (a tool that scores: the share scoring above the sample's median score), and the impact ratio "
      "(the rate over the highest category's rate), as §5-301 requires for sex, race/ethnicity and their "
      "intersection. Categories under 2 % of the individuals are listed and left out of the impact ratios. The "
      "95 % intervals (Wilson for rates, Katz log for ratios), Fisher's exact test against the highest category "
      "and the EEOC four-fifths flag (29 CFR 1607.4(D), a heuristic, not LL144's criterion; LL144 sets no pass "
      "threshold) go beyond the rule. Evidence: 'below four-fifths' when the ratio's whole interval is under 0.8, "
      "'insufficient evidence' when it holds 0.8.");
  for (const auto& design : audit) add_design(doc, design);
  doc.heading(2, "What this audit establishes and what it does not");
  doc.paragraph(context.method_note.empty() ?
      "It measures how this model, asked in these words, treats résumés that differ only in the name, on test "
      "data: a correspondence experiment. It does not measure a deployed tool's effect on real applicants, whose "
      "qualifications and mix differ, nor does it establish or exclude unlawful discrimination; the names signal "
      "sex and race/ethnicity only as perceived (BAD name tables), and Asian names stand for the EEO-1 Asian "
      "category only. Other prompts, models or temperatures can give other results." : context.method_note);
  return doc;
}

std::unique_ptr<reports::TaskReport> hiring_report(nlohmann::ordered_json audit, AuditContext context) {
  return std::make_unique<HiringReport>(std::move(audit), std::move(context));
}

}  // namespace codebias::tasks::hiring
