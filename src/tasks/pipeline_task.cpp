// The ML-pipelines task (Bui et al., Findings of ACL 2026; docs/ml-pipelines.md): which dataset
// columns a conditional function or an ML pipeline uses (analysis/pipelines/), summarised as
// CBS per path with the paired pipeline-vs-conditional tests (metrics/pipeline_metrics.h). Its
// prompts are built by prompts/pipeline_prompts.h (the registry row points there).
#include <istream>
#include <stdexcept>

#include "analysis/pipelines/pipeline_analysis.h"
#include "analysis/pipelines/pipeline_batch.h"
#include "analysis/report_json.h"
#include "metrics/pipeline_metrics.h"
#include "reports/task_report.h"
#include "tasks/builtin_tasks.h"
#include "tasks/run_analysis.h"

namespace codebias::tasks {
namespace {

namespace pipelines = analysis::pipelines;

int integer_field(const nlohmann::json& metadata, const char* key) {
  const auto it = metadata.find(key);
  return it != metadata.end() && it->is_number_integer() ? it->get<int>() : 0;
}

class PipelineScorer : public Scorer {
 public:
  explicit PipelineScorer(const ScoreSettings& settings) : settings_(settings) {
    if (!settings.scenario.empty() || !settings.attributes.empty() || settings.block)
      throw std::invalid_argument(
          "--scenario, --attribute and --block do not apply to --task ml-pipeline (its lines name their columns)");
  }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    return pipelines::score_pipeline_jsonl(in, origin, settings_.engine, [&](pipelines::PipelineScored& line) {
      write(line.json);
      if (!settings_.want_summary || !line.result) return;
      const auto& metadata = line.result->metadata;
      answers_.push_back(metrics::pipeline_answer_from(metadata, pipelines::to_json(line.result->report, *line.id), "",
                                                       *line.id, integer_field(metadata, "sample")));
    });
  }

  ScoreSummary summary() const override {
    const metrics::PipelineMetrics m = metrics::compute_pipeline_metrics(answers_);
    return {metrics::format_pipeline_table(m), nlohmann::json(reports::pipeline_metrics_json(m))};
  }

 private:
  ScoreSettings settings_;
  std::vector<metrics::PipelineAnswer> answers_;
};

}  // namespace

std::unique_ptr<Scorer> make_pipeline_scorer(const ScoreSettings& settings) {
  return std::make_unique<PipelineScorer>(settings);
}

metrics::RunResults analyse_pipeline_samples(const std::vector<metrics::SampleRecord>& records,
                                             const analysis::AttributeTable&, int) {
  metrics::RunResults results;
  results.samples.reserve(records.size());
  std::vector<metrics::PipelineAnswer> answers;
  for (const auto& record : records) {
    count_result(results.counts, record.result);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      // The prompt's metadata is what `codebias score --task ml-pipeline` reads; one parser for both.
      const nlohmann::json line = {{"id", record.planned.id},
                                   {"response", record.result.answer},
                                   {"metadata", record.planned.metadata}};
      auto parsed = pipelines::parse_pipeline_line(
          line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 0);
      if (const auto* error = std::get_if<base::LineError>(&parsed)) {
        throw std::invalid_argument("sample " + record.planned.id + ": metadata " + error->describe());
      }
      const auto& request = std::get<pipelines::PipelineLine>(parsed);
      const pipelines::PipelineReport report = pipelines::analyze_pipeline(request.response, request.request);
      count_status(results.counts, report.code_status);
      sample.analysis = pipelines::to_json(report, record.planned.id);
      answers.push_back(metrics::pipeline_answer_from(record.planned.metadata, sample.analysis, record.planned.config,
                                                      record.planned.prompt_id, record.planned.sample_index));
    }
    results.samples.push_back(std::move(sample));
  }
  results.task = metrics::PipelineResults{metrics::compute_pipeline_metrics(answers)};
  return results;
}

}  // namespace codebias::tasks
