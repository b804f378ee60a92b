// A task's results reach the shared reports only through metrics::TaskResults: a task the shared
// stages have never heard of (a test-only one here) gets its sections, its metrics.csv and its
// small-groups warning without an edit outside its own code.
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/run_report.h"
#include "reports/task_report.h"

namespace codebias::reports {
namespace {

class ToyReport final : public TaskReport {
 public:
  void add_to_summary(nlohmann::ordered_json& summary) const override { summary["toy"] = 1; }
  std::string metrics_csv(const nlohmann::ordered_json& config_costs) const override {
    return "toy,costs\n1," + config_costs.dump() + "\n";
  }
  void write_markdown(std::ostream& out) const override { out << "\n## Toy section\n"; }
  std::vector<HeadlineCard> headline_cards() const override { return {}; }
  std::vector<Heatmap> heatmaps() const override { return {}; }
  std::vector<ChartSpec> charts() const override { return {}; }
  void write_html_tables(std::ostream& out) const override { out << "<section id=\"toy\"></section>"; }
  std::vector<SampleFinding> findings(const nlohmann::ordered_json&) const override { return {}; }
  const char* amount_name() const override { return "toys"; }
  const char* biased_samples_text() const override { return " samples are toys."; }
};

class ToyResults final : public metrics::TaskResults {
 public:
  std::unique_ptr<TaskReport> report() const override { return std::make_unique<ToyReport>(); }
  std::optional<metrics::RatedCells> rated_cells() const override {
    return metrics::RatedCells{
        "toys in the box", "n", {{"box / small", 3, std::nullopt}, {"box / big", 40, std::nullopt}}};
  }
};

RunReportInput input_for(const metrics::RunResults& results) {
  RunReportInput input;
  input.provenance = {{"model", "m"}};
  input.results = &results;
  return input;
}

TEST(TaskResults, AnUnknownTaskBringsItsOwnSectionsAndSmallGroups) {
  metrics::RunResults results;
  results.task = std::make_shared<ToyResults>();
  const auto input = input_for(results);

  const auto markdown = report_markdown(input);
  EXPECT_NE(markdown.find("## Toy section"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("fewer than 30 toys in the box"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("box / small (n=3)."), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("box / big"), std::string::npos);

  const auto summary = summary_json(input);
  EXPECT_EQ(summary["toy"], 1);
  ASSERT_EQ(summary["small_groups"]["cells"].size(), 1u);
  EXPECT_EQ(summary["small_groups"]["cells"][0]["n"], 3);
  EXPECT_EQ(summary["small_groups"]["n_of"], "toys in the box");

  // An unpriced run hands the task null configuration costs.
  EXPECT_EQ(metrics_csv(input), "toy,costs\n1,null\n");
  EXPECT_THROW(results.function_cells(), std::logic_error);
}

TEST(TaskResults, ResultsWithoutATaskAreALogicError) {
  const metrics::RunResults results;
  EXPECT_THROW(task_report(results), std::logic_error);
}

}  // namespace
}  // namespace codebias::reports
