// Evaluating pass@1 and pylint quality over a JSONL stream, in chunks, on parallel sandboxes
// (quality stage).
#include "quality/quality_batch.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "base/jsonl.h"
#include "quality/python_code.h"

namespace codebias::quality {

namespace {

using nlohmann::json;

// Runs fn(0..count-1) on up to `jobs` threads; the first exception is rethrown afterwards.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    for (std::size_t index = next++; index < count; index = next++) {
      try {
        fn(index);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  std::vector<std::thread> threads;
  unsigned extra = static_cast<unsigned>(std::min<std::size_t>(jobs, count)) - (count > 0 ? 1 : 0);
  for (unsigned index = 0; index < extra; ++index) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

struct Pending {
  base::Line input;
  std::optional<analysis::ScoreRequest> request;
  QualityLine result;
};

json counts_json(const std::map<std::string, long>& counts) {
  json object = json::object();
  for (const auto& [key, value] : counts) object[key] = value;
  return object;
}

void evaluate_chunk(std::vector<Pending>& chunk, const QualityOptions& options, const analysis::AttributeTable& table,
                    unsigned jobs) {
  std::vector<Pending*> requests;
  for (auto& pending : chunk)
    if (pending.request) requests.push_back(&pending);

  if (options.run_pass_at_1) {
    parallel_for(requests.size(), jobs, [&](std::size_t index) {
      Pending& pending = *requests[index];
      pending.result.pass = run_pass_at_1(pending.request->response, pending.request->options, table, options.pass);
    });
  }
  if (options.run_pylint) {
    // Only Python code goes to pylint; the rest is unscored with the reason.
    std::vector<std::string> sources;
    std::vector<Pending*> linted;
    for (Pending* pending : requests) {
      PythonCodeChoice choice = choose_python_code(pending->request->response, pending->request->options.function);
      if (choice.code) {
        sources.push_back(std::move(*choice.code));
        linted.push_back(pending);
      } else {
        QualityScore score;
        score.not_scored_reason = choice.not_python_reason;
        pending->result.quality = std::move(score);
      }
    }
    const std::size_t batch = std::max<std::size_t>(options.pylint.batch_size, 1);
    const std::size_t batches = (sources.size() + batch - 1) / batch;
    parallel_for(batches, jobs, [&](std::size_t index) {
      std::size_t first = index * batch;
      std::size_t count = std::min(batch, sources.size() - first);
      std::vector<std::string> slice(sources.begin() + static_cast<long>(first),
                                     sources.begin() + static_cast<long>(first + count));
      std::vector<QualityScore> scores = pylint_scores(slice, options.pylint);
      for (std::size_t offset = 0; offset < count; ++offset) linted[first + offset]->result.quality = std::move(scores[offset]);
    });
  }
  for (Pending* pending : requests) {
    pending->result.json = quality_line_json(pending->request->id, pending->result.pass, pending->result.quality).dump(
        -1, ' ', false, json::error_handler_t::replace);
  }
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
  if (line.error) {
    ++errors;
    return;
  }
  ++samples;
  if (line.pass) {
    const PassResult& pass = *line.pass;
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
  if (line.quality) {
    if (line.quality->scored) {
      ++scored;
      quality_total += line.quality->score;
    } else {
      ++not_scored;
      // "pylint_failed: <details>" counts under its kind; "not_python:java" stays as it is.
      const std::string& reason = line.quality->not_scored_reason;
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
  const unsigned jobs = options.jobs > 0 ? options.jobs : std::max(1U, std::thread::hardware_concurrency());
  QualitySummary summary;
  base::LineReader reader(in);
  std::vector<Pending> chunk;
  bool more = true;
  while (more) {
    chunk.clear();
    base::Line line;
    while (chunk.size() < std::max<std::size_t>(options.chunk_lines, 1) && (more = reader.next(line))) {
      if (!line.too_long && base::is_blank(line.text)) continue;
      Pending pending;
      pending.result.line = line.number;
      if (line.too_long) {
        analysis::LineError error;
        error.line = line.number;
        error.message = "line is " + std::to_string(line.length) + " bytes, more than the limit of " +
                        std::to_string(base::kDefaultMaxLineBytes);
        pending.result.error = std::move(error);
      } else {
        auto parsed = analysis::parse_score_line(line.text, line.number, table, options.defaults);
        if (auto* error = std::get_if<analysis::LineError>(&parsed)) {
          pending.result.id = error->id;
          pending.result.error = std::move(*error);
        } else {
          pending.request = std::move(std::get<analysis::ScoreRequest>(parsed));
          pending.result.id = pending.request->id;
        }
      }
      bool bad = pending.result.error.has_value();
      chunk.push_back(std::move(pending));
      if (bad && !options.keep_going) break;  // evaluate what came before, then stop
    }
    evaluate_chunk(chunk, options, table, jobs);
    for (Pending& pending : chunk) {
      if (pending.result.error) {
        if (!options.keep_going) throw analysis::InputError(origin, *pending.result.error);
        pending.result.json = analysis::error_json_line(*pending.result.error);
      }
      summary.add(pending.result);
      sink(pending.result);
    }
  }
  return summary;
}

}  // namespace codebias::quality
