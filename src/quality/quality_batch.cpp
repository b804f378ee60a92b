// Evaluating pass@1 and pylint quality over a JSONL stream on the JSONL engine, with parallel
// sandboxes (quality stage).
#include "quality/quality_batch.h"

#include <algorithm>
#include <span>
#include <vector>

#include "execution/python_code.h"

namespace codebias::quality {

namespace {

using nlohmann::json;

json counts_json(const std::map<std::string, long>& counts) {
  json object = json::object();
  for (const auto& [key, value] : counts) object[key] = value;
  return object;
}

// pylint runs over many files at once (one interpreter start per pylint batch); only Python code
// goes to it, the rest is unscored with the reason.
void lint_batch(std::span<QualityLine> batch, const QualityOptions& options, base::WorkerPool& pool) {
  std::vector<std::string> sources;
  std::vector<QualityResult*> linted;
  for (QualityLine& item : batch) {
    if (!item.result) continue;
    QualityResult& result = *item.result;
    PythonCodeChoice choice = choose_python_code(result.request.response, result.request.options.function);
    if (choice.code) {
      sources.push_back(std::move(*choice.code));
      linted.push_back(&result);
    } else {
      QualityScore score;
      score.not_scored_reason = choice.not_python_reason;
      result.quality = std::move(score);
    }
  }
  const std::size_t size = std::max<std::size_t>(options.pylint.batch_size, 1);
  const std::size_t batches = (sources.size() + size - 1) / size;
  pool.run(batches, [&](std::size_t index) {
    std::size_t first = index * size;
    std::size_t count = std::min(size, sources.size() - first);
    std::vector<std::string> slice(sources.begin() + static_cast<long>(first),
                                   sources.begin() + static_cast<long>(first + count));
    std::vector<QualityScore> scores = pylint_scores(slice, options.pylint);
    for (std::size_t offset = 0; offset < count; ++offset) linted[first + offset]->quality = std::move(scores[offset]);
  });
}

}  // namespace

json quality_line_json(const std::string& id, const std::optional<PassResult>& pass,
                       const std::optional<QualityScore>& quality) {
  json line = {{"id", id}};
  if (pass) {
    json entry = {{"status", to_string(pass->status)}};
    if (pass->status == PassStatus::not_run) {
      entry["reason"] = pass->not_run_reason;
    } else {
      if (!pass->function.empty()) entry["function"] = pass->function;
      entry["cases"] = pass->cases;
      entry["cases_passed"] = pass->cases_passed;
      if (pass->status == PassStatus::fail) {
        entry["crash_type"] = pass->crash_type;
        entry["message"] = pass->crash_message;
        entry["stage"] = pass->stage;
      }
      entry["timed_out"] = pass->timed_out;
      entry["memory_exceeded"] = pass->memory_exceeded;
      entry["isolation"] = pass->isolation;
      entry["wall_seconds"] = pass->wall_seconds;
      if (!pass->inputs_json.empty()) entry["inputs"] = json::parse(pass->inputs_json, nullptr, false);
    }
    line["pass_at_1"] = std::move(entry);
  }
  if (quality) {
    json entry;
    if (quality->scored) {
      entry = {{"status", "scored"}, {"score", quality->score}, {"pylint_note", nullptr},
               {"statements", quality->statements}, {"counts", counts_json(quality->counts)},
               {"messages", counts_json(quality->messages)}};
      if (quality->pylint_note) entry["pylint_note"] = *quality->pylint_note;
      if (quality->syntax_error) entry["syntax_error"] = true;
    } else {
      entry = {{"status", "not_scored"}, {"reason", quality->not_scored_reason}};
    }
    line["quality"] = std::move(entry);
  }
  return line;
}

std::optional<double> QualitySummary::pass_at_1() const {
  if (passed + failed == 0) return std::nullopt;
  return static_cast<double>(passed) / static_cast<double>(passed + failed);
}

std::optional<double> QualitySummary::mean_quality() const {
  if (scored == 0) return std::nullopt;
  return quality_total / static_cast<double>(scored);
}

void QualitySummary::add(const QualityLine& line) {
  if (!line.result) {
    ++errors;
    return;
  }
  ++samples;
  const QualityResult& result = *line.result;
  if (result.pass) {
    const PassResult& pass = *result.pass;
    if (pass.status == PassStatus::not_run) {
      ++not_run;
      ++not_run_reasons[pass.not_run_reason];
    } else {
      ++(pass.status == PassStatus::pass ? passed : failed);
      if (pass.status == PassStatus::fail) ++crash_types[pass.crash_type];
      if (pass.timed_out) ++timeouts;
      if (pass.memory_exceeded) ++memory_exceeded;
      ++isolation[pass.isolation];
    }
  }
  if (result.quality) {
    if (result.quality->scored) {
      ++scored;
      quality_total += result.quality->score;
    } else {
      ++not_scored;
      // "pylint_failed: <details>" counts under its kind; "not_python:java" stays as it is.
      const std::string& reason = result.quality->not_scored_reason;
      ++not_scored_reasons[reason.substr(0, reason.find(": "))];
    }
  }
}

json QualitySummary::to_json(bool with_pass, bool with_quality) const {
  json summary = {{"samples", samples}, {"input_errors", errors}};
  if (with_pass) {
    auto value = pass_at_1();
    summary["pass_at_1"] = {{"value", value ? json(*value) : json(nullptr)},
                            {"run", passed + failed},
                            {"passed", passed},
                            {"failed", failed},
                            {"not_run", not_run},
                            {"timeouts", timeouts},
                            {"memory_exceeded", memory_exceeded},
                            {"crash_types", counts_json(crash_types)},
                            {"not_run_reasons", counts_json(not_run_reasons)},
                            {"isolation", counts_json(isolation)}};
  }
  if (with_quality) {
    auto mean = mean_quality();
    summary["quality"] = {{"mean", mean ? json(*mean) : json(nullptr)},
                          {"scored", scored},
                          {"not_scored", not_scored},
                          {"not_scored_reasons", counts_json(not_scored_reasons)}};
  }
  return summary;
}

QualitySummary evaluate_quality_jsonl(std::istream& in, std::string_view origin,
                                      const analysis::AttributeTable& table, const QualityOptions& options,
                                      const QualityLineSink& sink) {
  if (options.run_pylint) require_pylint(options.pylint);
  base::JsonlOptions engine;
  engine.threads = options.jobs;
  engine.batch_lines = options.chunk_lines;
  engine.keep_going = options.keep_going;
  base::JsonlProcessor<QualityResult> processor;
  processor.line = [&](QualityLine& item) {
    auto parsed = analysis::parse_score_line(item.input.text, item.input.number, table, options.defaults);
    if (auto* error = std::get_if<base::LineError>(&parsed)) {
      item.id = error->id;
      item.error = std::move(*error);
      return;
    }
    QualityResult& result = item.result.emplace();
    result.request = std::move(std::get<analysis::ScoreRequest>(parsed));
    item.id = result.request.id;
    if (options.run_pass_at_1) result.pass = run_pass_at_1(result.request.response, result.request.options, table, options.pass);
  };
  processor.batch = [&](std::span<QualityLine> batch, base::WorkerPool& pool) {
    if (options.run_pylint) lint_batch(batch, options, pool);
    for (QualityLine& item : batch) {
      if (!item.result) continue;
      item.json = quality_line_json(item.result->request.id, item.result->pass, item.result->quality)
                      .dump(-1, ' ', false, json::error_handler_t::replace);
    }
  };
  QualitySummary summary;
  base::process_jsonl<QualityResult>(in, origin, processor, engine, [&](QualityLine& item) {
    summary.add(item);
    sink(item);
  });
  return summary;
}

}  // namespace codebias::quality
