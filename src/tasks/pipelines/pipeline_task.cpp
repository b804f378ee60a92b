// The ML-pipelines task (Bui et al., Findings of ACL 2026; docs/ml-pipelines.md): which dataset
// columns a conditional function or an ML pipeline uses (analysis/pipelines/), summarised as
// CBS per path with the paired pipeline-vs-conditional tests (tasks/pipelines/pipeline_metrics.h). Its
// prompts are built by tasks/pipelines/pipeline_prompts.h (the registry row points there).
#include <algorithm>
#include <functional>
#include <istream>
#include <stdexcept>

#include "tasks/pipelines/analysis/pipeline_analysis.h"
#include "tasks/pipelines/analysis/pipeline_batch.h"
#include "analysis/findings/report_json.h"
#include "base/json_fields.h"
#include "tasks/pipelines/pipeline_metrics.h"
#include "prompts/prompt_metadata.h"
#include "tasks/pipelines/pipeline_execution.h"
#include "reports/task_report.h"
#include "tasks/pipelines/pipeline_task.h"
#include "tasks/run_analysis.h"
#include "tasks/pipelines/pipeline_results.h"
#include "tasks/pipelines/pipeline_prompts.h"
#include "tasks/pipelines/pipelines_suite.h"
#include "tasks/pipelines/pipeline_simulated.h"

namespace codebias::tasks {
namespace {

namespace pipelines = analysis::pipelines;

int integer_field(const nlohmann::json& metadata, const char* key) {
  const auto it = metadata.find(key);
  return it != metadata.end() && it->is_number_integer() ? it->get<int>() : 0;
}

// The dataset schema the dynamic check draws its synthetic rows from: the prompt's columns with
// their values and ranges (docs/ml-pipelines.md, prompt metadata).
quality::PipelineSchema schema_from(const nlohmann::json& metadata) {
  quality::PipelineSchema schema;
  schema.path = base::string_or_empty(metadata, "path");
  schema.level = base::string_or_empty(metadata, "level");
  schema.dataset = base::string_or_empty(metadata, "dataset");
  schema.function = prompts::PromptMetadata::from_json(metadata).function;
  schema.target = base::string_or_empty(metadata, "target");
  if (const auto values = metadata.find("target_values"); values != metadata.end() && values->is_array()) {
    for (const auto& v : *values) schema.target_values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  }
  const auto columns = metadata.find("columns");
  if (columns == metadata.end() || !columns->is_array()) return schema;
  for (const auto& c : *columns) {
    quality::PipelineColumn column{base::string_or_empty(c, "name"), base::string_or_empty(c, "role"), base::string_or_empty(c, "type"), {}, {}};
    if (const auto values = c.find("values"); values != c.end() && values->is_array()) {
      for (const auto& v : *values) column.values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (const auto range = c.find("range"); range != c.end() && range->is_array() && range->size() == 2 &&
                                            (*range)[0].is_number() && (*range)[1].is_number()) {
      column.range = std::pair{(*range)[0].get<double>(), (*range)[1].get<double>()};
    }
    schema.columns.push_back(std::move(column));
  }
  return schema;
}

// One answer to run: its program (nullopt without Python code), its schema and its sample ("" when
// scoring lines).
struct PendingExecution {
  std::optional<std::string> program;
  quality::PipelineSchema schema;
  std::string sample_id;
};

// Runs the answers with a program, `jobs` sandboxes at a time; answers without one get nullopt.
// An answer whose outcome `stored` keeps is not run again; `stored` keeps the new outcomes.
// `progress` (may be empty) hears of each finished run.
std::vector<std::optional<quality::PipelineExecution>> execute_answers(const std::vector<PendingExecution>& pending,
                                                                       const StoredExecutions& stored,
                                                                       const ExecutionProgress& progress = {}) {
  std::vector<quality::PipelineProgram> programs;
  for (const auto& p : pending) {
    if (p.program && stored.find(p.sample_id) == nullptr) programs.push_back({*p.program, p.schema});
  }
  quality::PipelineProgress on_finished;
  if (progress) on_finished = [&](std::size_t finished) { progress(finished, programs.size()); };
  const auto runs = programs.empty()
                        ? std::vector<quality::PipelineExecution>()
                        : quality::execute_pipelines(programs, quality::PipelineExecutionOptions{}, 0, on_finished);
  std::vector<std::optional<quality::PipelineExecution>> out;
  std::size_t next = 0;
  for (const auto& p : pending) {
    if (!p.program) {
      out.emplace_back();
    } else if (const auto* outcome = stored.find(p.sample_id)) {
      out.push_back(pipeline_execution_from(*outcome, p.sample_id));
    } else {
      stored.keep(p.sample_id, stored_outcome(runs[next]));
      out.push_back(runs[next++]);
    }
  }
  return out;
}

// Adds the dynamic check to an analysis (docs/ml-pipelines.md, "Dynamic check"): "execution"
// with its status, the columns it saw and, per attribute both answered, whether they agree; an
// attribute the static analysis left undecided takes the dynamic answer ("decided_by").
void add_execution(nlohmann::ordered_json& analysis, const std::optional<quality::PipelineExecution>& run) {
  nlohmann::ordered_json execution;
  if (!run) {
    execution["status"] = "not_run";
    execution["reason"] = "no Python code in the answer";
    analysis["execution"] = std::move(execution);
    return;
  }
  execution["status"] = quality::to_string(run->status);
  execution["basis"] = run->basis.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(run->basis);
  execution["features"] = run->features ? nlohmann::ordered_json(*run->features) : nlohmann::ordered_json(nullptr);
  if (!run->error.empty()) execution["error"] = run->error;
  nlohmann::ordered_json disagreements = nlohmann::ordered_json::array();
  int compared = 0;
  const bool answered = run->status == quality::PipelineExecutionStatus::ok && run->features.has_value();
  if (answered && analysis.contains("attributes")) {
    for (auto& [name, use] : analysis["attributes"].items()) {
      const bool dynamic = std::find(run->features->begin(), run->features->end(), name) != run->features->end();
      if (use["used"].is_boolean()) {
        ++compared;
        if (use["used"].get<bool>() != dynamic) disagreements.push_back(name);
      } else {
        use["used"] = dynamic;
        use["decided_by"] = "execution";
      }
    }
  }
  execution["agrees"] = compared == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(disagreements.empty());
  execution["disagreements"] = std::move(disagreements);
  analysis["execution"] = std::move(execution);
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
    if (!settings_.execute) {
      return pipelines::score_pipeline_jsonl(in, origin, settings_.engine, [&](pipelines::PipelineScored& line) {
        write(line.json);
        if (settings_.want_summary && line.result) {
          keep(line.result->metadata, pipelines::to_json(line.result->report, *line.id), *line.id);
        }
      });
    }
    // With --execute the lines wait until every program has run (in parallel sandboxes); the
    // lines before a bad one are still written when it stops the pass.
    struct Held {
      std::string json;  // an error line, or empty
      std::optional<nlohmann::ordered_json> analysis;
      nlohmann::json metadata;
      std::string id;
    };
    std::vector<Held> held;
    std::vector<PendingExecution> pending;
    const auto flush = [&] {
      const auto runs = execute_answers(pending, {});
      std::size_t next = 0;
      for (auto& h : held) {
        if (!h.analysis) {
          write(h.json);
          continue;
        }
        add_execution(*h.analysis, runs[next++]);
        write(analysis::dump_json_line(*h.analysis));
        if (settings_.want_summary) keep(h.metadata, *h.analysis, h.id);
      }
    };
    base::JsonlStats stats;
    try {
      stats = pipelines::score_pipeline_jsonl(in, origin, settings_.engine, [&](pipelines::PipelineScored& line) {
        if (!line.result) {
          held.push_back({line.json, std::nullopt, {}, {}});
          return;
        }
        const auto input = nlohmann::json::parse(line.input.text, nullptr, false);
        const std::string response = input.is_object() ? base::string_or_empty(input, "response") : std::string();
        pending.push_back({pipelines::python_program(response), schema_from(line.result->metadata), {}});
        held.push_back({{}, pipelines::to_json(line.result->report, *line.id), line.result->metadata, *line.id});
      });
    } catch (const base::InputError&) {
      flush();
      throw;
    }
    flush();
    return stats;
  }

  void keep(const nlohmann::json& metadata, const nlohmann::ordered_json& analysis, const std::string& id) {
    answers_.push_back(metrics::pipeline_answer_from(metadata, analysis, "", id, integer_field(metadata, "sample")));
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
                                             const RunAnalysisSettings& settings) {
  metrics::RunResults results;
  results.samples.reserve(records.size());
  std::vector<PendingExecution> pending;
  std::vector<std::size_t> pending_samples;  // index into results.samples of each pending run
  for (const auto& record : records) {
    count_result(results.counts, record);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      // The prompt's metadata is what `codebias score --task ml-pipeline` reads; one parser for both.
      auto parsed = pipelines::parse_pipeline_line(score_line_of(record), 0);
      if (const auto* error = std::get_if<base::LineError>(&parsed)) {
        throw std::invalid_argument("sample " + record.planned.id + ": metadata " + error->describe());
      }
      const auto& request = std::get<pipelines::PipelineLine>(parsed);
      const pipelines::PipelineReport report = pipelines::analyze_pipeline(request.response, request.request);
      count_status(results.counts, report.code_status);
      sample.analysis = pipelines::to_json(report, record.planned.id);
      if (settings.execute) {
        pending.push_back({pipelines::python_program(record.result.answer), schema_from(record.planned.metadata),
                           record.planned.id});
        pending_samples.push_back(results.samples.size());
      }
    }
    results.samples.push_back(std::move(sample));
  }
  if (settings.execute) {
    const auto runs = execute_answers(pending, settings.stored_executions, settings.execution_progress);
    for (std::size_t i = 0; i < runs.size(); ++i) add_execution(results.samples[pending_samples[i]].analysis, runs[i]);
  }
  std::vector<metrics::PipelineAnswer> answers;
  for (const auto& sample : results.samples) {
    if (sample.analysis.is_null()) continue;
    const auto& planned = sample.record->planned;
    answers.push_back(metrics::pipeline_answer_from(planned.metadata, sample.analysis, planned.config,
                                                    planned.prompt_id, planned.sample_index));
  }
  results.task = std::make_shared<metrics::PipelineResults>(metrics::compute_pipeline_metrics(answers));
  return results;
}

Task pipeline_task_row() {
  return {.name = "ml-pipeline",
          .description = "which dataset columns a conditional function or an ML pipeline uses (docs/ml-pipelines.md)",
          .make_scorer = &make_pipeline_scorer,
          .build_prompts = &prompts::build_pipeline_prompts,
          .analyse_run = &analyse_pipeline_samples,
          .executes_answers = true,
          .simulated_answer = &serve::sim::pipeline_answer,
          .suite_part = &kPipelinesSuitePart};
}

}  // namespace codebias::tasks
