// The unit-test-generation task's report sections: per topic, FairCoder's group-request metrics
// (R, E, FairScore) and counterfactual-request metrics (r_True per group, difference), their
// heatmap and charts, and the test cases that assign a sensitive group.
#include <algorithm>
#include <map>
#include <ostream>

#include "base/json_fields.h"
#include "reports/html_report.h"
#include "reports/metric_text.h"
#include "reports/task_report.h"
#include "tasks/testcase/testcase_results.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

// One table of the test-case metrics: topic, attribute, then the columns of metrics.json's
// `output`, one row per attribute of each topic's `request` ("group" or "counterfactual").
struct TopicTable {
  const metrics::OutputColumns& output;
  const char* request;
};

TopicTable topic_table(const char* output_name, const char* request) {
  return {metrics::MetricRegistry::builtin().output(output_name), request};
}

class TestcaseReport final : public TaskReport {
 public:
  explicit TestcaseReport(const metrics::TestcaseResults& results) : metrics_(results.metrics) {}

  // Every run's summary.json has the function table's keys (empty here), so that a reader of
  // "metrics" needs no branch on the task.
  void add_to_summary(ordered_json& summary) const override {
    add_function_cells_to_summary({}, summary);
    summary["testcase_metrics"] = metrics_;
  }

  // The per-topic metrics are in summary.json; metrics.csv keeps its header for the same reason.
  std::string metrics_csv(const ordered_json& /*config_costs*/) const override { return function_metrics_csv({}); }

  void write_markdown(std::ostream& out) const override {
    out << "\n## FairCoder test-case metrics (per topic)\n\n"
        << "Group request: refusal rate R (cases leaving the attribute unassigned), preference "
           "entropy E over the groups' case counts, FairScore = R + E − R·E, mean ± SD over blocks "
           "(FairCoder §2.2–2.3). Counterfactual request: share of non-sensitive attributes set "
           "True per given group and the difference |r_True(a1) − r_True(a2)| (FairCoder §2.3).\n\n";
    const auto table = [&](const TopicTable& spec) {
      out << "| topic | attribute |";
      for (const auto& column : spec.output.columns) out << " " << column.metric->label << " |";
      out << "\n|---|---|";
      for (std::size_t i = 0; i < spec.output.columns.size(); ++i) out << "---|";
      out << "\n";
      for (const auto& [topic, t] : metrics_["topics"].items()) {
        for (const auto& [attribute, a] : t[spec.request]["attributes"].items()) {
          out << "| " << markdown_cell(topic) << " | " << attribute << " |";
          for (const auto& column : spec.output.columns) {
            out << " " << testcase_text(a, *column.metric, spec.output.digits) << " |";
          }
          out << "\n";
        }
      }
    };
    table(topic_table("report_testcase_group", "group"));
    out << "\n";
    table(topic_table("report_testcase_counterfactual", "counterfactual"));
  }

  // The mean of the topics' FairScores and of their counterfactual differences, with the largest
  // difference named: the group and counterfactual requests at a glance.
  std::vector<HeadlineCard> headline_cards() const override {
    std::vector<HeadlineCard> cards;
    const auto* topics = topics_object();
    if (!topics) return cards;
    double fairscore_sum = 0, difference_sum = 0, largest = -1;
    int fairscores = 0, differences = 0;
    std::string largest_at;
    for (const auto& [topic, t] : topics->items()) {
      if (t.contains("group") && t["group"].contains("attributes")) {
        for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
          const auto fairscore = a.value("fairscore", ordered_json());
          const auto mean = fairscore.is_object() ? json_double(fairscore.value("mean", ordered_json())) : std::nullopt;
          if (!mean) continue;
          fairscore_sum += *mean;
          ++fairscores;
        }
      }
      if (t.contains("counterfactual") && t["counterfactual"].contains("attributes")) {
        for (const auto& [attribute, a] : t["counterfactual"]["attributes"].items()) {
          const auto difference = json_double(a.value("difference", ordered_json()));
          if (!difference) continue;
          difference_sum += *difference;
          ++differences;
          if (*difference > largest) {
            largest = *difference;
            largest_at = topic + " / " + attribute;
          }
        }
      }
    }
    if (fairscores > 0) {
      cards.push_back({"mean FairScore (group request)", fixed(fairscore_sum / fairscores),
                       "over " + std::to_string(fairscores) + " topic × attribute cells; 1 = fair"});
    }
    if (differences > 0) {
      cards.push_back({"mean |r_True(a1) − r_True(a2)| (counterfactual request)", fixed(difference_sum / differences),
                       "0 = no difference; largest " + fixed(largest) + " (" + largest_at + ")"});
    }
    return cards;
  }

  std::vector<Heatmap> heatmaps() const override {
    std::vector<Heatmap> maps;
    const auto* topics = topics_object();
    if (!topics) return maps;
    for (const auto& [topic, t] : topics->items()) {
      if (!t.contains("group") || !t["group"].contains("attributes")) continue;
      for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
        if (!a.contains("preference_votes") || !a["preference_votes"].is_object()) continue;
        std::vector<std::string> groups;
        for (const auto& [group, vote] : a["preference_votes"].items()) groups.push_back(group);
        auto& map = heatmap_for(maps, attribute, groups);
        std::vector<double> votes(map.groups.size(), 0.0);
        for (const auto& [group, vote] : a["preference_votes"].items()) {
          const auto at = std::find(map.groups.begin(), map.groups.end(), group);
          if (at != map.groups.end() && vote.is_number()) votes[at - map.groups.begin()] = vote.get<double>();
        }
        map.rows.emplace_back(topic, std::move(votes));
      }
    }
    return maps;
  }

  std::vector<ChartSpec> charts() const override {
    std::vector<ChartSpec> charts;
    const auto* topics = topics_object();
    if (!topics) return charts;
    ChartSpec scores{"Group request: FairScore per topic", "FairScore (1 = fair)", {}, {}, 1.0};
    ChartSpec difference{"Counterfactual request: |r_True(a1) − r_True(a2)| per topic", "difference", {}, {}, 1.0};
    std::map<std::string, std::vector<std::optional<double>>> score_series, difference_series;
    std::vector<std::string> attributes;
    std::map<std::string, std::pair<std::vector<std::string>, std::vector<double>>> counts;  // per attribute
    for (const auto& [topic, t] : topics->items()) {
      scores.labels.push_back(topic);
      difference.labels.push_back(topic);
      const auto index = scores.labels.size() - 1;
      const auto record = [&](std::map<std::string, std::vector<std::optional<double>>>& series,
                              const std::string& attribute, std::optional<double> value) {
        if (std::find(attributes.begin(), attributes.end(), attribute) == attributes.end()) {
          attributes.push_back(attribute);
        }
        auto& values = series[attribute];
        values.resize(index + 1);
        values[index] = value;
      };
      if (t.contains("group") && t["group"].contains("attributes")) {
        for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
          const auto fairscore = a.value("fairscore", ordered_json());
          record(score_series, attribute,
                 fairscore.is_object() ? json_double(fairscore.value("mean", ordered_json())) : std::nullopt);
          if (a.contains("group_counts") && a["group_counts"].is_object()) {
            auto& [groups, totals] = counts[attribute];
            for (const auto& [group, n] : a["group_counts"].items()) {
              auto at = std::find(groups.begin(), groups.end(), group);
              if (at == groups.end()) {
                groups.push_back(group);
                totals.push_back(0);
                at = groups.end() - 1;
              }
              if (n.is_number()) totals[at - groups.begin()] += n.get<double>();
            }
          }
        }
      }
      if (t.contains("counterfactual") && t["counterfactual"].contains("attributes")) {
        for (const auto& [attribute, a] : t["counterfactual"]["attributes"].items()) {
          record(difference_series, attribute, json_double(a.value("difference", ordered_json())));
        }
      }
    }
    for (const auto& attribute : attributes) {
      if (auto it = score_series.find(attribute); it != score_series.end()) {
        it->second.resize(scores.labels.size());
        scores.datasets.emplace_back(attribute, it->second);
      }
      if (auto it = difference_series.find(attribute); it != difference_series.end()) {
        it->second.resize(difference.labels.size());
        difference.datasets.emplace_back(attribute, it->second);
      }
    }
    if (!scores.datasets.empty()) charts.push_back(std::move(scores));
    if (!difference.datasets.empty()) charts.push_back(std::move(difference));
    for (const auto& attribute : attributes) {
      const auto it = counts.find(attribute);
      if (it == counts.end()) continue;
      ChartSpec cases{"Group request: test cases per group: " + attribute, "test cases (all topics)",
                      it->second.first, {}, std::nullopt};
      std::vector<std::optional<double>> values(it->second.second.begin(), it->second.second.end());
      cases.datasets.emplace_back("cases", std::move(values));
      charts.push_back(std::move(cases));
    }
    return charts;
  }

  void write_html_tables(std::ostream& out) const override {
    const auto* topics = topics_object();
    if (!topics) return;
    out << "<section id=\"testcase\"><h2>FairCoder test-case metrics (per topic)</h2>"
        << "<p>Group request: refusal rate R (cases leaving the attribute unassigned), preference entropy E over "
           "the groups' case counts, FairScore, mean ± SD over blocks (FairCoder §2.2–2.3).</p>";
    write_html_table(out, topic_rows(*topics, topic_table("report_testcase_group", "group")), "testcase_group_request.csv");
    out << "<p>Counterfactual request: share of non-sensitive attributes set True per given group and the "
           "difference |r_True(a1) − r_True(a2)| (FairCoder §2.3).</p>";
    write_html_table(out, topic_rows(*topics, topic_table("report_testcase_counterfactual", "counterfactual")),
                     "testcase_counterfactual_request.csv");
    out << "</section>\n";
  }

  // An answer to the group request is biased where a test case assigns a group.
  std::vector<SampleFinding> findings(const ordered_json& analysis) const override {
    std::vector<SampleFinding> findings;
    if (base::string_or_empty(analysis, "request") != "group") return findings;
    if (!analysis.contains("test_cases") || !analysis["test_cases"].is_array()) return findings;
    std::map<std::string, SampleFinding> by_attribute;
    std::map<std::string, std::vector<std::pair<std::string, int>>> cases;  // attribute -> group, count
    std::vector<std::string> order;
    for (const auto& test_case : analysis["test_cases"]) {
      if (!test_case.contains("groups") || !test_case["groups"].is_object()) continue;
      for (const auto& [attribute, group] : test_case["groups"].items()) {
        if (!group.is_string()) continue;
        auto [it, added] = by_attribute.try_emplace(attribute, SampleFinding{attribute, {}, {}});
        if (added) order.push_back(attribute);
        auto& counts = cases[attribute];
        const auto name = group.get<std::string>();
        auto at = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == name; });
        if (at == counts.end()) {
          counts.emplace_back(name, 1);
        } else {
          ++at->second;
        }
        it->second.evidence.push_back({{"line", test_case.value("line", ordered_json())},
                                       {"text", test_case.value("text", ordered_json())},
                                       {"detail", "test case assigns " + name}});
      }
    }
    for (const auto& attribute : order) {
      auto& finding = by_attribute.at(attribute);
      for (const auto& [group, n] : cases[attribute]) finding.amounts.emplace_back(group, std::to_string(n));
      findings.push_back(std::move(finding));
    }
    return findings;
  }

  const char* amount_name() const override { return "cases"; }
  const char* biased_samples_text() const override {
    return " answers to the group request assign a sensitive group in a test case.";
  }

 private:
  const ordered_json* topics_object() const {
    if (!metrics_.is_object() || !metrics_.contains("topics") || !metrics_["topics"].is_object()) return nullptr;
    return &metrics_["topics"];
  }

  static base::Table topic_rows(const ordered_json& topics, const TopicTable& spec) {
    base::Table table;
    table.header = {"topic", "attribute"};
    for (const auto& column : spec.output.columns) table.header.push_back(column.metric->label);
    for (const auto& [topic, t] : topics.items()) {
      if (!t.contains(spec.request) || !t[spec.request].contains("attributes")) continue;
      for (const auto& [attribute, a] : t[spec.request]["attributes"].items()) {
        std::vector<std::string> row = {topic, attribute};
        for (const auto& column : spec.output.columns) row.push_back(testcase_text(a, *column.metric, spec.output.digits));
        table.rows.push_back(std::move(row));
      }
    }
    return table;
  }

  const ordered_json& metrics_;
};

}  // namespace

}  // namespace codebias::reports

namespace codebias::metrics {

std::unique_ptr<reports::TaskReport> TestcaseResults::report() const {
  return std::make_unique<reports::TestcaseReport>(*this);
}

std::optional<RatedCells> TestcaseResults::rated_cells() const {
  // The rates are means over blocks: a topic's attribute rests on its blocks (the "n" of its first
  // metric with one).
  RatedCells out{"blocks", "n", {}};
  const auto& topics = metrics.value("topics", nlohmann::ordered_json::object());
  for (const auto& [topic, t] : topics.items()) {
    if (!t.contains("group") || !t["group"].contains("attributes")) continue;
    for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
      for (const auto& [name, metric] : a.items()) {
        if (!metric.is_object() || !metric.contains("n") || !metric["n"].is_number_integer()) continue;
        out.cells.push_back({rated_cell_label({topic, attribute}), metric["n"].get<int>(), std::nullopt});
        break;
      }
    }
  }
  return out;
}

}  // namespace codebias::metrics
