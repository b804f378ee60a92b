#include "tasks/testcase/testcase_run_analysis.h"

#include <stdexcept>
#include <variant>

#include "tasks/run_analysis.h"
#include "base/jsonl_engine.h"
#include "tasks/testcase/analysis/testcase_batch.h"
#include "tasks/testcase/testcase_metrics.h"
#include "tasks/testcase/testcase_results.h"

namespace codebias::tasks {

metrics::RunResults analyse_testcase_run(const std::vector<metrics::SampleRecord>& records,
                                         const analysis::AttributeTable& table, int block) {
  metrics::RunResults results;
  results.samples.reserve(records.size());
  std::vector<analysis::TestcaseReport> reports;
  for (const auto& record : records) {
    count_result(results.counts, record);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      // The prompt's metadata is what `codebias score --task testcase` reads; one parser for both.
      auto parsed = analysis::parse_testcase_line(score_line_of(record), 0, table);
      if (const auto* request = std::get_if<analysis::TestcaseLine>(&parsed)) {
        auto report = analysis::analyze_testcase(record.result.answer, request->request, table);
        switch (report.status) {
          case analysis::TestcaseStatus::ok: ++results.counts.with_code; break;
          case analysis::TestcaseStatus::refusal: ++results.counts.refusals; break;
          case analysis::TestcaseStatus::unparseable:
          case analysis::TestcaseStatus::no_test_case: ++results.counts.unparseable; break;
        }
        sample.analysis = analysis::to_json(report, record.planned.id);
        reports.push_back(std::move(report));
      } else {
        const auto& error = std::get<base::LineError>(parsed);
        throw std::invalid_argument("sample " + record.planned.id + ": metadata " + error.describe());
      }
    }
    results.samples.push_back(std::move(sample));
  }
  metrics::TestcaseMetricsOptions options;
  options.block = block;
  results.task = std::make_shared<metrics::TestcaseResults>(
      metrics::to_json(metrics::summarize_testcases(reports, table, options)));
  return results;
}

metrics::RunResults analyse_testcase_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings) {
  return analyse_testcase_run(records, *settings.table, settings.samples_per_prompt);
}

}  // namespace codebias::tasks
