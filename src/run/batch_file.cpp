#include "run/batch_file.h"

#include <fstream>
#include <stdexcept>
#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_fields.h"
#include "base/jsonl.h"
#include "generation/reasoning.h"
#include "store/run_lock.h"

namespace codebias::run {

namespace {

using nlohmann::json;

// What is wrong with one line of a batch output file: the field and why.
struct LineProblem {
  std::string field;
  std::string message;
};

// Batch lines nest a few levels (line, response, body, choices, message); far deeper input is
// malformed, and refusing it keeps the recursive serialiser from exhausting the stack.
constexpr int kMaxJsonDepth = 256;

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto found = object.find(key);
  return found == object.end() || found->is_null() ? nullptr : &*found;
}

std::int64_t integer_member(const json& object, const char* key) {
  const json* value = member(object, key);
  return value && value->is_number_integer() ? value->get<std::int64_t>() : 0;
}

// The engine's error, wherever it put it: OpenAI {"code", "message"} in `error` or
// {"error": {...}} in the response body; vLLM a plain string, or an ErrorResponse either flat
// ({"object": "error", "message", "code"}) or nested ({"error": {"message", "code"}}).
struct EngineError {
  std::string code;
  std::string message;
};

EngineError engine_error(const json* error, const json* body) {
  for (const json* source : {error, body}) {
    if (!source) continue;
    if (source->is_string()) return {"", source->get<std::string>()};
    const json* nested = member(*source, "error");
    const json& details = nested && nested->is_object() ? *nested : *source;
    std::string message = base::string_or_empty(details, "message");
    std::string code = base::string_or_empty(details, "code");
    if (code.empty()) code = base::string_or_empty(details, "type");
    if (!message.empty() || !code.empty()) return {code, message};
  }
  return {};
}

bool mentions_context_length(const std::string& text) {
  return text.find("context_length") != std::string::npos || text.find("context length") != std::string::npos;
}

// error_kind as sample.h defines it, from the HTTP status the engine gave the request and its
// error code; OpenAI's batch_expired / batch_cancelled lines carry no status.
std::string error_kind(int http_status, const EngineError& error) {
  if (error.code == "batch_expired") return "timeout";
  if (error.code == "batch_cancelled") return "cancelled";
  if (mentions_context_length(error.code) || mentions_context_length(error.message)) return "context_length";
  if (http_status == 401 || http_status == 403) return "auth";
  if (http_status == 429) return "rate_limit";
  if (http_status >= 400 && http_status < 500) return "bad_request";
  return "server";
}

// Reasoning and answer split exactly as online results are (generation/reasoning.h): the
// engine's reasoning field when it has one, else <think> tags in the content. Text completions
// have only choices[0].text.
void fill_completion(const json& body, generation::SampleResult& result) {
  const json* choices = member(body, "choices");
  if (!choices || !choices->is_array() || choices->empty() || !(*choices)[0].is_object()) {
    throw LineProblem{"response.body.choices", "missing or empty"};
  }
  const json& choice = (*choices)[0];
  if (const json* message = member(choice, "message")) {
    const json* content = member(*message, "content");
    if (content && !content->is_null() && !content->is_string()) {
      throw LineProblem{"response.body.choices[0].message.content", "not a string"};
    }
  } else if (const json* text = member(choice, "text"); !text || !text->is_string()) {
    throw LineProblem{"response.body.choices[0]", "has neither a message nor a text"};
  }
  ReasoningSplit split = generation::extract_reasoning(choice);
  result.reasoning = std::move(split.reasoning);
  result.answer = std::move(split.answer);
  result.reasoning_cut_off = split.cut_off;
  result.finish_reason = base::string_or_empty(choice, "finish_reason");
  if (const json* usage = member(body, "usage")) {
    result.usage.prompt_tokens = integer_member(*usage, "prompt_tokens");
    result.usage.completion_tokens = integer_member(*usage, "completion_tokens");
    if (const json* details = member(*usage, "completion_tokens_details")) {
      result.usage.reasoning_tokens = integer_member(*details, "reasoning_tokens");
    }
  }
}

// The result one output line reports for its sample. A line that is a well-formed batch line but
// whose completion is unusable becomes an `invalid_response` error, like a bad answer online.
generation::SampleResult result_from_line(const json& line, std::string custom_id, std::string_view origin) {
  const json* response = member(line, "response");
  const json* error = member(line, "error");
  if (!response && !error) {
    bool input_line = member(line, "body") && member(line, "method");
    throw LineProblem{"response", input_line ? "missing: this is a batch input line, not an output line"
                                             : "missing, and no error either"};
  }
  if (response && !response->is_object()) throw LineProblem{"response", "not an object"};
  int http_status = 0;
  const json* body = nullptr;
  if (response) {
    const json* status = member(*response, "status_code");
    if (!status || !status->is_number_integer()) throw LineProblem{"response.status_code", "missing or not an integer"};
    http_status = status->get<int>();
    body = member(*response, "body");
  }

  generation::SampleResult result;
  result.id = std::move(custom_id);
  result.endpoint = "batch:" + std::string(origin);
  result.http_status = http_status;
  result.attempts = 1;
  result.raw_response = body    ? body->dump(-1, ' ', false, json::error_handler_t::replace)
                        : error ? error->dump(-1, ' ', false, json::error_handler_t::replace)
                                : std::string();
  // Batch engines report when a completion was created, not how long it took.
  const json* created = body ? member(*body, "created") : nullptr;
  result.started_at = result.finished_at = created && created->is_number() ? created->get<double>() : unix_now();

  bool succeeded = !error && http_status >= 200 && http_status < 300;
  if (!succeeded) {
    EngineError details = engine_error(error, body);
    result.status = generation::SampleStatus::error;
    result.error_kind = error_kind(http_status, details);
    result.error_message =
        details.message.empty() ? "the batch engine reported HTTP " + std::to_string(http_status) : details.message;
    return result;
  }
  try {
    if (!body || !body->is_object()) throw LineProblem{"response.body", "missing or not an object"};
    fill_completion(*body, result);
    result.status = generation::SampleStatus::done;
  } catch (const LineProblem& problem) {
    result.status = generation::SampleStatus::error;
    result.reasoning.clear();
    result.answer.clear();
    result.finish_reason.clear();
    result.usage = generation::Usage{};
    result.error_kind = "invalid_response";
    result.error_message = problem.field + ": " + problem.message;
  }
  return result;
}

}  // namespace

std::size_t export_batch(const store::RunStore& run, std::ostream& out, bool include_errors, std::size_t max_requests) {
  std::size_t written = 0;
  for (const auto& sample : run.pending(include_errors)) {
    if (max_requests != 0 && written == max_requests) break;
    json line = {{"custom_id", sample.id}, {"method", "POST"}, {"url", sample.api_path}, {"body", sample.body}};
    out << line.dump() << '\n';
    ++written;
  }
  return written;
}

ImportStats import_batch_results(store::RunStore& run, std::istream& in, std::string_view origin) {
  ImportStats stats;
  std::unordered_map<std::string, long> first_line_of;
  base::LineReader reader(in);
  base::Line line;
  while (reader.next(line)) {
    if (!line.too_long && base::is_blank(line.text)) continue;
    ++stats.lines;
    try {
      if (line.too_long) throw LineProblem{"line", std::to_string(line.length) + " bytes is longer than allowed"};
      json parsed;
      try {
        parsed = json::parse(line.text, [](int depth, json::parse_event_t, json&) {
          if (depth > kMaxJsonDepth)
            throw LineProblem{"line", "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
          return true;
        });
      } catch (const json::parse_error& error) {
        throw LineProblem{"line", std::string("not valid JSON: ") + error.what()};
      }
      if (!parsed.is_object()) throw LineProblem{"line", "not a JSON object"};
      const json* custom_id = member(parsed, "custom_id");
      if (!custom_id || !custom_id->is_string()) throw LineProblem{"custom_id", "missing or not a string"};
      std::string id = custom_id->get<std::string>();
      auto status = run.status(id);
      if (!status) throw LineProblem{"custom_id", "\"" + id + "\" is not a sample of this run"};
      // Done is final: a line for a done sample (a file imported twice, or a repeat within this
      // file after a done line) is counted and skipped.
      if (*status == generation::SampleStatus::done) {
        ++stats.already_done;
        continue;
      }
      auto [previous, first] = first_line_of.try_emplace(id, line.number);
      if (!first) {
        throw LineProblem{"custom_id", "\"" + id + "\" already appeared on line " + std::to_string(previous->second) +
                                           "; only the first is imported"};
      }
      generation::SampleResult result = result_from_line(parsed, id, origin);
      if (!run.record(result)) {
        ++stats.already_done;
      } else if (result.status == generation::SampleStatus::done) {
        ++stats.done;
      } else {
        ++stats.errors;
      }
    } catch (const LineProblem& problem) {
      stats.problems.push_back(std::string(origin) + ":" + std::to_string(line.number) + ": " + problem.field + ": " +
                               problem.message);
    }
  }
  return stats;
}

std::size_t export_batch_file(const std::filesystem::path& run_dir, std::ostream& out, bool include_errors,
                              std::size_t max_requests) {
  return export_batch(store::RunStore::open(run_dir), out, include_errors, max_requests);
}

store::RunStore::Counts import_batch_files(
    const std::filesystem::path& run_dir, const std::vector<std::string>& files,
    const std::function<void(const std::string& file, const ImportStats& stats)>& on_file) {
  if (!std::filesystem::exists(run_dir / store::kStoreFileName)) store::RunStore::open(run_dir);  // throws: no run
  // One writer per run directory: an import beside a running `codebias run` is refused.
  const auto lock = store::RunLock::acquire(run_dir, "codebias batch import");
  auto run = store::RunStore::open(run_dir);
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read " + file);
    on_file(file, import_batch_results(run, in, file));
  }
  return run.counts();
}

}  // namespace codebias::run
