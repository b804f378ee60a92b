// FairCoder's unit-test-generation task (§2.2): the test cases a model wrote, and the sensitive
// values they assign (analysis/testcase.h), summarised per topic (tasks/testcase/testcase_metrics.h).
#include "tasks/testcase/testcase_task.h"

#include <istream>
#include <stdexcept>

#include "tasks/testcase/analysis/testcase_batch.h"
#include "tasks/testcase/testcase_metrics.h"
#include "prompts/prompt_builder.h"
#include "tasks/run_analysis.h"
#include "tasks/testcase/testcase_simulated.h"
#include "tasks/testcase/testcase_suite.h"
#include "tasks/testcase/testcase_prompts.h"
#include "tasks/testcase/testcase_run_analysis.h"

namespace codebias::tasks {
namespace {

class TestcaseScorer : public Scorer {
 public:
  explicit TestcaseScorer(const ScoreSettings& settings) : settings_(settings) {
    if (settings.execute) throw std::invalid_argument("--execute applies to --task ml-pipeline only");
    if (!settings.scenario.empty() || !settings.attributes.empty())
      throw std::invalid_argument(
          "--scenario and --attributes apply to --task function only (test-case lines name their own)");
  }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    return analysis::score_testcase_jsonl(in, origin, *settings_.table, settings_.engine,
                                          [&](analysis::TestcaseScored& line) {
                                            write(line.json);
                                            if (settings_.want_summary && line.result)
                                              reports_.push_back(std::move(*line.result));
                                          });
  }

  ScoreSummary summary() const override {
    metrics::TestcaseMetricsOptions options;
    options.block = settings_.block.value_or(metrics::kDefaultTestcaseBlock);
    const metrics::TestcaseSummary summary = metrics::summarize_testcases(reports_, *settings_.table, options);
    return {metrics::format_table(summary), metrics::to_json(summary)};
  }

 private:
  ScoreSettings settings_;
  std::vector<analysis::TestcaseReport> reports_;
};

}  // namespace

std::unique_ptr<Scorer> make_testcase_scorer(const ScoreSettings& settings) {
  return std::make_unique<TestcaseScorer>(settings);
}

Task testcase_task_row() {
  return {.name = "testcase",
          .description = "FairCoder's unit-test generation (lines carry topic/request/fields metadata; docs/testcases.md)",
          .make_scorer = &make_testcase_scorer,
          .build_prompts = &prompts::build_testcase_prompts,
          .analyse_run = &analyse_testcase_samples,
          .simulated_answer = &serve::sim::testcase_answer,
          .claims_request = &serve::sim::claims_testcase_request,
          .suite_part = &kTestcaseSuitePart};
}

}  // namespace codebias::tasks
