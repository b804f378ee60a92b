#include "reports/task_report.h"

#include <variant>

namespace codebias::reports {
namespace {

// One overload per alternative of RunResults::task: a task added there without its report does
// not compile.
struct ReportOf {
  std::unique_ptr<TaskReport> operator()(const metrics::FunctionResults& results) const {
    return function_report(results);
  }
  std::unique_ptr<TaskReport> operator()(const metrics::TestcaseResults& results) const {
    return testcase_report(results);
  }
  std::unique_ptr<TaskReport> operator()(const metrics::PipelineResults& results) const {
    return pipeline_report(results);
  }
  std::unique_ptr<TaskReport> operator()(const metrics::ResumeResults& results) const { return resume_report(results); }
  std::unique_ptr<TaskReport> operator()(const metrics::CatResults& results) const { return cat_report(results); }
  std::unique_ptr<TaskReport> operator()(const metrics::DecisionResults& results) const {
    return decision_report(results);
  }
  std::unique_ptr<TaskReport> operator()(const metrics::TaskFolderResults& results) const { return results.report(); }
};

}  // namespace

HeatmapHeading TaskReport::heatmap_heading() const {
  return {"Preferred groups (FairCoder Figure 3 layout)",
          "Each prompt's block of samples votes for the group its code gave the most points (ties share the vote; "
          "blocks treating all groups alike vote for nobody). Colour and number: the group's share of the row's votes."};
}

std::string TaskReport::how_to_read() const {
  return "Only answers whose code the analyzer could measure (`with code`) enter the rates; refusals without code, "
         "truncated and unparseable answers are counted above and left out of every numerator and denominator. "
         "Errors are samples for which no answer could be obtained. Each sample's findings, with the deciding lines, "
         "are in `responses.jsonl`; the numbers above are in `summary.json` and `metrics.csv`.";
}

std::unique_ptr<TaskReport> task_report(const metrics::RunResults& results) {
  return std::visit(ReportOf{}, results.task);
}

}  // namespace codebias::reports
