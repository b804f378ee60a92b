#include "tasks/hiring_audit/hiring_task.h"

#include <algorithm>
#include <ctime>
#include <istream>
#include <stdexcept>

#include "analysis/line_metadata.h"
#include "base/json_fields.h"
#include "tasks/hiring_audit/hiring_audit.h"
#include "tasks/hiring_audit/hiring_report.h"
#include "tasks/hiring_audit/hiring_suite.h"
#include "tasks/run_analysis.h"

namespace codebias::tasks {
namespace {

using hiring::AnswerStatus;
using nlohmann::json;
using nlohmann::ordered_json;

analysis::CodeStatus code_status_of(AnswerStatus status) {
  if (status == AnswerStatus::answered) return analysis::CodeStatus::ok;
  return status == AnswerStatus::refusal ? analysis::CodeStatus::no_code : analysis::CodeStatus::unparseable;
}

constexpr const char* kTestData =
    "the hiring-audit suite's synthetic résumés (data/suites/hiring_audit.json: CPS table 11 occupations, "
    "templates of three qualification levels, the BAD names of every sex x race/ethnicity group), answered by "
    "the model.";

// The line's metadata: its "metadata" object over the top level.
json metadata_of(const json& doc) {
  json out = doc;
  if (const auto nested = doc.find("metadata"); nested != doc.end() && nested->is_object()) out.update(*nested);
  return out;
}

std::optional<base::LineError> check_line(const json& doc, long number, std::string& id, std::string& response) {
  base::LineError error;
  error.line = number;
  if (auto failure = analysis::read_id_and_response(doc, number, id, response)) {
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  error.id = id;
  const analysis::LineMetadata meta(doc);
  std::string path;
  const json* design = meta.find("design", path);
  if (design == nullptr || !design->is_string() ||
      std::find(hiring::kDesigns.begin(), hiring::kDesigns.end(), design->get<std::string>()) ==
          hiring::kDesigns.end()) {
    error.field = path;
    error.message = design == nullptr ? "missing" : "expected rate, advance or pick";
    return error;
  }
  const json* candidates = meta.find("candidates", path);
  if (candidates == nullptr || !candidates->is_array() || candidates->empty()) {
    error.field = path;
    error.message = candidates == nullptr ? "missing" : "expected a non-empty array of candidates";
    return error;
  }
  return std::nullopt;
}

class HiringScorer : public Scorer {
 public:
  explicit HiringScorer(const ScoreSettings& settings) : settings_(settings) {
    if (settings.execute || !settings.scenario.empty() || !settings.attributes.empty() || settings.block)
      throw std::invalid_argument(
          "--execute, --scenario, --attribute and --block do not apply to --task hiring-audit (its lines name "
          "their candidates)");
  }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    base::JsonlProcessor<hiring::ReadAnswer> processor;
    processor.line = [](base::JsonlItem<hiring::ReadAnswer>& item) {
      json doc;
      try {
        doc = json::parse(item.input.text);
      } catch (const json::parse_error& e) {
        item.error =
            base::LineError{item.input.number, "", std::string("invalid JSON: ") + e.what(), std::nullopt, false};
        return;
      }
      std::string id, response;
      if (!doc.is_object()) {
        item.error =
            base::LineError{item.input.number, "", analysis::expected_type("a JSON object", doc), std::nullopt, false};
        return;
      }
      if (auto error = check_line(doc, item.input.number, id, response)) {
        item.id = error->id;
        item.error = std::move(*error);
        return;
      }
      item.id = id;
      hiring::ReadAnswer row = hiring::read_answer_row(metadata_of(doc), id, 0, "", response);
      ordered_json out{{"id", id}, {"task", "hiring-audit"}, {"design", row.design}};
      out.update(hiring::to_json(row.answer));
      item.json = out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
      item.result = std::move(row);
    };
    return base::process_jsonl<hiring::ReadAnswer>(in, origin, processor, settings_.engine,
                                                   [&](base::JsonlItem<hiring::ReadAnswer>& item) {
                                                     write(item.json);
                                                     if (settings_.want_summary && item.result)
                                                       rows_.push_back(std::move(*item.result));
                                                   });
  }

  ScoreSummary summary() const override {
    const ordered_json audit = hiring::hiring_audit_json(rows_);
    const hiring::AuditContext context{"not recorded (lines scored by codebias score)",
                                       "the model that wrote the lines' responses", kTestData, ""};
    return {base::render(hiring::audit_document(audit, context), base::DocumentFormat::text), json(audit)};
  }

 private:
  ScoreSettings settings_;
  std::vector<hiring::ReadAnswer> rows_;
};

}  // namespace

std::unique_ptr<Scorer> make_hiring_scorer(const ScoreSettings& settings) {
  return std::make_unique<HiringScorer>(settings);
}

metrics::RunResults analyse_hiring_samples(const std::vector<metrics::SampleRecord>& records,
                                           const RunAnalysisSettings&) {
  metrics::RunResults results;
  std::vector<hiring::ReadAnswer> rows;
  double last_answer = 0;
  std::string model;
  for (const auto& record : records) {
    count_result(results.counts, record);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      hiring::ReadAnswer row =
          hiring::read_answer_row(record.planned.metadata, record.planned.prompt_id, record.planned.sample_index,
                                  record.planned.config, record.result.answer);
      sample.analysis = hiring::to_json(row.answer);
      count_status(results.counts, code_status_of(row.answer.status));
      last_answer = std::max(last_answer, record.result.finished_at);
      if (model.empty()) model = record.planned.body.value("model", std::string());
      rows.push_back(std::move(row));
    }
    results.samples.push_back(std::move(sample));
  }
  hiring::AuditContext context{last_answer > 0 ? hiring::utc_date(last_answer) : "no answer yet", model, kTestData, ""};
  results.task = std::make_shared<hiring::HiringResults>(hiring::hiring_audit_json(rows), std::move(context));
  return results;
}

Task hiring_audit_task_row() {
  return {.name = "hiring-audit",
          .description = "LLM screeners rating, advancing or picking résumés under names of every sex x race/ethnicity "
                         "group: the NYC LL144 audit (docs/hiring-audit.md)",
          .make_scorer = &make_hiring_scorer,
          .build_prompts = &hiring::build_hiring_prompts,
          .analyse_run = &analyse_hiring_samples,
          .simulated_answer = &hiring::simulated_hiring_answer,
          .suite_part = &hiring::kHiringSuitePart};
}

}  // namespace codebias::tasks
