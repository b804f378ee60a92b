// The candidate-screening tasks (BAD, seeds/003; docs/screening.md): "resume" reads the fields
// of résumés written for names that signal gender × ethnicity (analysis/screening/
// resume_extraction.h) and summarises them as the paper's §5.1-§5.2 analysis (metrics/
// screening_metrics.h); "cat" reads Context Association Test answers (analysis/screening/
// cat_answer.h) into ss, nss and icat (tasks/screening/cat_metrics.h). Their prompts are built by
// tasks/screening/screening_prompts.h.
#include <algorithm>
#include <istream>
#include <map>
#include <stdexcept>

#include "analysis/line_metadata.h"
#include "tasks/screening/analysis/cat_answer.h"
#include "tasks/screening/analysis/resume_extraction.h"
#include "base/json_fields.h"
#include "base/jsonl.h"
#include "tasks/screening/cat_metrics.h"
#include "tasks/screening/screening_metrics.h"
#include "tasks/screening/screening_prompts.h"
#include "tasks/screening/screening_task.h"
#include "tasks/run_analysis.h"
#include "tasks/screening/screening_results.h"
#include "tasks/screening/screening_suite.h"
#include "tasks/screening/screening_simulated.h"

namespace codebias::tasks {
namespace {

namespace screening = analysis::screening;
using nlohmann::json;
using nlohmann::ordered_json;

void refuse_options(const ScoreSettings& settings, const char* task) {
  if (settings.execute || !settings.scenario.empty() || !settings.attributes.empty() || settings.block) {
    throw std::invalid_argument(std::string("--execute, --scenario, --attribute and --block do not apply to --task ") +
                                task + " (its lines name their groups)");
  }
}

// A line's id, response and metadata (under "metadata" or at the top level), with the keys the
// task needs; errors name the field.
struct ScreeningLine {
  std::string id;
  std::string response;
  json doc;
};

std::variant<ScreeningLine, base::LineError> parse_line(std::string_view text, long line_number,
                                                       const std::vector<const char*>& required) {
  base::LineError error;
  error.line = line_number;
  ScreeningLine out;
  try {
    out.doc = json::parse(text);
  } catch (const json::parse_error& e) {
    error.message = std::string("invalid JSON: ") + e.what();
    return error;
  }
  if (!out.doc.is_object()) {
    error.message = analysis::expected_type("a JSON object", out.doc);
    return error;
  }
  if (auto failure = analysis::read_id_and_response(out.doc, line_number, out.id, out.response)) {
    error.id = out.id;
    error.field = failure->field;
    error.message = failure->message;
    return error;
  }
  error.id = out.id;
  const analysis::LineMetadata meta(out.doc);
  for (const char* key : required) {
    std::string path;
    const json* value = meta.find(key, path);
    if (value == nullptr) {
      error.field = path;
      error.message = "missing";
      return error;
    }
    if (std::string(key) == "options") continue;  // checked by cat_options_from_metadata
    if (!value->is_string()) {
      error.field = path;
      error.message = analysis::expected_type("a string", *value);
      return error;
    }
  }
  return out;
}

// The item's line, or nullopt with the item's error set.
template <class Result>
std::optional<ScreeningLine> read_item(base::JsonlItem<Result>& item, const std::vector<const char*>& required) {
  auto parsed = parse_line(item.input.text, item.input.number, required);
  if (auto* error = std::get_if<base::LineError>(&parsed)) {
    item.id = error->id;
    item.error = std::move(*error);
    return std::nullopt;
  }
  auto& line = std::get<ScreeningLine>(parsed);
  item.id = line.id;
  return std::move(line);
}

// The metadata object a line's keys were read from.
json metadata_of(const json& doc) {
  const auto nested = doc.find("metadata");
  json out = doc;
  if (nested != doc.end() && nested->is_object()) out.update(*nested);
  return out;
}

ordered_json line_header(const std::string& id, const char* task, const json& metadata) {
  ordered_json out;
  out["id"] = id;
  out["task"] = task;
  out["gender"] = base::string_or_empty(metadata, "gender");
  out["ethnicity"] = base::string_or_empty(metadata, "ethnicity");
  return out;
}

// ---- resume ----

std::optional<std::string> value_of(const screening::ResumeExtraction& extraction, screening::ResumeField field) {
  const auto& f = extraction.field(field);
  return f.status == screening::FieldStatus::extracted ? std::optional(f.value) : std::nullopt;
}

metrics::ResumeRow resume_row(const std::string& id, const std::string& config, const json& metadata,
                              const screening::ResumeExtraction& extraction) {
  using F = screening::ResumeField;
  metrics::ResumeRow row;
  row.id = id;
  row.config = config;
  row.first_name = base::string_or_empty(metadata, "first_name");
  row.last_name = base::string_or_empty(metadata, "last_name");
  row.gender = base::string_or_empty(metadata, "gender");
  row.ethnicity = base::string_or_empty(metadata, "ethnicity");
  row.job_title = value_of(extraction, F::job_title);
  row.job_area = value_of(extraction, F::job_area);
  row.bachelors = value_of(extraction, F::bachelors);
  row.masters = value_of(extraction, F::masters);
  row.location = value_of(extraction, F::location);
  row.zip_code = value_of(extraction, F::zip_code);
  row.bilingual = value_of(extraction, F::bilingual);
  for (const auto& f : extraction.fields) {
    if (f.status == screening::FieldStatus::absent) row.stated_absent.insert(screening::field_name(f.field));
  }
  return row;
}

const std::vector<const char*> kResumeKeys = {"gender", "ethnicity"};

class ResumeScorer : public Scorer {
 public:
  explicit ResumeScorer(const ScoreSettings& settings) : settings_(settings) { refuse_options(settings, "resume"); }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    struct Scored {
      std::string json;
      std::optional<metrics::ResumeRow> row;
    };
    base::JsonlProcessor<Scored> processor;
    processor.line = [](base::JsonlItem<Scored>& item) {
      const auto line = read_item(item, kResumeKeys);
      if (!line) return;
      const json metadata = metadata_of(line->doc);
      const auto extraction = screening::extract_resume_fields(line->response, generation::turn_of(metadata));
      ordered_json out = line_header(line->id, "resume", metadata);
      out.update(screening::to_json(extraction));
      item.json = out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
      item.result = Scored{{}, resume_row(line->id, "", metadata, extraction)};
    };
    return base::process_jsonl<Scored>(in, origin, processor, settings_.engine, [&](base::JsonlItem<Scored>& item) {
      write(item.json);
      if (settings_.want_summary && item.result) rows_.push_back(std::move(*item.result->row));
    });
  }

  ScoreSummary summary() const override {
    const auto m = metrics::compute_screening_metrics(rows_);
    return {metrics::format_screening_metrics(m, metrics::ScreeningFormat::kText),
            json(metrics::screening_metrics_json(m))};
  }

 private:
  ScoreSettings settings_;
  std::vector<metrics::ResumeRow> rows_;
};

// ---- cat ----

metrics::CatResponseOutcome outcome_of(const screening::CatAnswer& answer) {
  if (answer.outcome == screening::CatOutcome::refusal) return metrics::CatResponseOutcome::refusal;
  if (answer.outcome != screening::CatOutcome::choice || !answer.label) return metrics::CatResponseOutcome::unparseable;
  switch (*answer.label) {
    case screening::CatLabel::stereotype: return metrics::CatResponseOutcome::stereotype;
    case screening::CatLabel::anti_stereotype: return metrics::CatResponseOutcome::anti_stereotype;
    case screening::CatLabel::neutral: return metrics::CatResponseOutcome::neutral;
  }
  return metrics::CatResponseOutcome::unparseable;
}

metrics::CatResponse cat_response(const std::string& id, const std::string& config, const json& metadata,
                                  const std::vector<screening::CatOption>& options, const screening::CatAnswer& answer) {
  metrics::CatResponse response;
  response.id = id;
  response.config = config;
  response.item_id = base::string_or_empty(metadata, "item_id");
  response.gender = base::string_or_empty(metadata, "gender");
  response.ethnicity = base::string_or_empty(metadata, "ethnicity");
  response.outcome = outcome_of(answer);
  if (answer.outcome == screening::CatOutcome::choice) response.position = answer.position;
  response.option_count = static_cast<int>(options.size());
  for (const auto& option : options) {
    if (option.label == screening::CatLabel::stereotype) response.stereotype_position = option.position;
  }
  return response;
}

const std::vector<const char*> kCatKeys = {"item_id", "gender", "ethnicity", "options"};

class CatScorer : public Scorer {
 public:
  explicit CatScorer(const ScoreSettings& settings) : settings_(settings) { refuse_options(settings, "cat"); }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    base::JsonlProcessor<metrics::CatResponse> processor;
    processor.line = [](base::JsonlItem<metrics::CatResponse>& item) {
      const auto line = read_item(item, kCatKeys);
      if (!line) return;
      const json metadata = metadata_of(line->doc);
      std::vector<screening::CatOption> options;
      try {
        options = screening::cat_options_from_metadata(metadata);
      } catch (const std::invalid_argument& e) {
        item.error = base::LineError{item.input.number, "metadata.options", e.what(), line->id, false};
        return;
      }
      const auto answer = screening::parse_cat_answer(line->response, options);
      ordered_json out = line_header(line->id, "cat", metadata);
      out["item_id"] = base::string_or_empty(metadata, "item_id");
      out.update(screening::to_json(answer));
      item.json = out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
      item.result = cat_response(line->id, "", metadata, options, answer);
    };
    return base::process_jsonl<metrics::CatResponse>(
        in, origin, processor, settings_.engine, [&](base::JsonlItem<metrics::CatResponse>& item) {
          write(item.json);
          if (settings_.want_summary && item.result) responses_.push_back(std::move(*item.result));
        });
  }

  ScoreSummary summary() const override {
    const auto m = metrics::compute_cat_metrics(responses_);
    return {base::render(metrics::cat_metrics_document(m), base::DocumentFormat::text), json(metrics::to_json(m))};
  }

 private:
  ScoreSettings settings_;
  std::vector<metrics::CatResponse> responses_;
};

}  // namespace

std::unique_ptr<Scorer> make_resume_scorer(const ScoreSettings& settings) {
  return std::make_unique<ResumeScorer>(settings);
}

std::unique_ptr<Scorer> make_cat_scorer(const ScoreSettings& settings) { return std::make_unique<CatScorer>(settings); }

std::optional<NextTurn> resume_next_turn(const generation::PlannedSample& planned,
                                         const generation::SampleResult& result) {
  const json& metadata = planned.metadata;
  const auto policy = metadata.find("follow_up");
  if (policy == metadata.end() || !policy->is_object()) return std::nullopt;
  const int max_turns = policy->value("max_turns", 1);
  const int turn = generation::turn_of(metadata);
  if (turn >= max_turns) return std::nullopt;
  const auto extraction = screening::extract_resume_fields(result.answer, turn);
  if (extraction.status == screening::ResumeStatus::refusal) return std::nullopt;  // a refusal is not asked again
  std::vector<std::string> missing = extraction.missing_fields();
  if (turn > 1) {
    // A further turn asked for some fields only: what it still lacks of those.
    std::vector<std::string> asked;
    if (const auto it = metadata.find("missing_fields"); it != metadata.end() && it->is_array()) {
      for (const auto& f : *it) {
        if (f.is_string()) asked.push_back(f.get<std::string>());
      }
    }
    std::erase_if(missing, [&](const std::string& f) { return std::find(asked.begin(), asked.end(), f) == asked.end(); });
  }
  if (missing.empty()) return std::nullopt;
  return NextTurn{prompts::follow_up_text(policy->value("template", std::string()), missing),
                  {{"missing_fields", missing}}};
}

metrics::RunResults analyse_resume_samples(const std::vector<metrics::SampleRecord>& records,
                                           const RunAnalysisSettings&) {
  metrics::RunResults results;
  metrics::ResumeResults resume;
  // Each conversation's fields, its first turn's extraction merged with every further turn's.
  std::map<std::string, screening::ResumeExtraction> conversations;
  std::map<std::string, int> extracted_first;
  for (const auto& record : records) {
    count_result(results.counts, record);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      const int turn = generation::turn_of(record.planned.metadata);
      const auto extraction = screening::extract_resume_fields(record.result.answer, turn);
      sample.analysis = screening::to_json(extraction);
      if (turn == 1) {
        ++resume.reading.answers;
        ++resume.reading.by_status[screening::to_string(extraction.status)];
        count_status(results.counts, extraction.status == screening::ResumeStatus::refusal ? analysis::CodeStatus::no_code
                                     : extraction.status == screening::ResumeStatus::empty ? analysis::CodeStatus::unparseable
                                                                                           : analysis::CodeStatus::ok);
        conversations[record.planned.id] = extraction;
        extracted_first[record.planned.id] = static_cast<int>(extraction.extracted_count());
      } else if (auto it = conversations.find(generation::first_turn_id(record.planned.id)); it != conversations.end()) {
        ++resume.reading.follow_ups_sent;
        it->second = screening::merge_follow_up(it->second, extraction);
      }
    }
    results.samples.push_back(std::move(sample));
  }
  std::vector<metrics::ResumeRow> rows;
  for (auto& sample : results.samples) {
    const auto& planned = sample.record->planned;
    const auto it = conversations.find(planned.id);
    if (it == conversations.end()) continue;
    resume.reading.fields_from_follow_ups +=
        static_cast<int>(it->second.extracted_count()) - extracted_first[planned.id];
    // A first turn's analysis is its whole conversation's.
    sample.analysis = screening::to_json(it->second);
    rows.push_back(resume_row(planned.id, planned.config, planned.metadata, it->second));
  }
  resume.metrics = metrics::compute_screening_metrics(rows);
  results.task = std::make_shared<metrics::ResumeResults>(std::move(resume));
  return results;
}

metrics::RunResults analyse_cat_samples(const std::vector<metrics::SampleRecord>& records, const RunAnalysisSettings&) {
  metrics::RunResults results;
  std::vector<metrics::CatResponse> responses;
  for (const auto& record : records) {
    count_result(results.counts, record);
    metrics::AnalysedSample sample{&record, nullptr};
    if (record.result.status == generation::SampleStatus::done) {
      const auto options = screening::cat_options_from_metadata(record.planned.metadata);
      const auto answer = screening::parse_cat_answer(record.result.answer, options);
      sample.analysis = screening::to_json(answer);
      count_status(results.counts, answer.outcome == screening::CatOutcome::choice    ? analysis::CodeStatus::ok
                                   : answer.outcome == screening::CatOutcome::refusal ? analysis::CodeStatus::no_code
                                                                                      : analysis::CodeStatus::unparseable);
      responses.push_back(cat_response(record.planned.id, record.planned.config, record.planned.metadata, options, answer));
    }
    results.samples.push_back(std::move(sample));
  }
  results.task = std::make_shared<metrics::CatResults>(metrics::compute_cat_metrics(responses));
  return results;
}

Task resume_task_row() {
  return {.name = "resume",
          .description = "resumes written for names that signal gender and ethnicity (BAD; docs/screening.md)",
          .make_scorer = &make_resume_scorer,
          .build_prompts = &prompts::build_resume_prompts,
          .analyse_run = &analyse_resume_samples,
          .next_turn = &resume_next_turn,
          .simulated_answer = &serve::sim::resume_answer,
          .suite_part = &kResumeSuitePart};
}

Task cat_task_row() {
  return {.name = "cat",
          .description = "Context Association Test: stereotype, anti-stereotype or neutral occupation (BAD; docs/screening.md)",
          .make_scorer = &make_cat_scorer,
          .build_prompts = &prompts::build_cat_prompts,
          .analyse_run = &analyse_cat_samples,
          .simulated_answer = &serve::sim::cat_answer,
          .suite_part = &kCatSuitePart};
}

}  // namespace codebias::tasks
