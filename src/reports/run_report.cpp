#include "reports/run_report.h"

#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <variant>

#include "analysis/findings/report_json.h"
#include "base/strings.h"
#include "metrics/sweep_sanity.h"
#include "metrics/until_decided.h"
#include "reports/cost_report.h"
#include "reports/html_report.h"
#include "reports/metric_text.h"
#include "reports/small_groups.h"
#include "reports/task_report.h"

namespace codebias::reports {
namespace {

using nlohmann::ordered_json;

const char* status_name(generation::SampleStatus status) {
  switch (status) {
    case generation::SampleStatus::pending: return "pending";
    case generation::SampleStatus::done: return "done";
    case generation::SampleStatus::error: return "error";
  }
  return "pending";
}

ordered_json counts_json(const metrics::RunCounts& c) {
  ordered_json out;
  out["planned"] = c.planned;
  out["done"] = c.done;
  out["errors"] = c.errors;
  out["pending"] = c.pending;
  out["with_code"] = c.with_code;
  out["refusals"] = c.refusals;
  out["truncated"] = c.truncated;
  out["unparseable"] = c.unparseable;
  out["answers_cut"] = c.answers_cut;
  out["follow_up_turns"] = c.follow_up_turns;
  out["conversations"] = c.planned - c.follow_up_turns;
  out["with_reasoning"] = c.with_reasoning;
  out["tokens"] = {{"prompt", c.prompt_tokens},
                   {"completion", c.completion_tokens},
                   {"reasoning", c.reasoning_tokens},
                   {"reasoning_estimated", c.reasoning_tokens_estimated}};
  return out;
}

// summary.json's and report.md's errors by kind: the count of each.
std::map<std::string, int> errors_by_kind(const RunReportInput& input) {
  std::map<std::string, int> kinds;
  for (const auto& [kind, tally] : sample_tallies(input).errors_by_kind) kinds[kind] = static_cast<int>(tally.count);
  return kinds;
}

// Writes the file through a temporary one, renamed into place once complete; `write` streams the
// content (responses.jsonl of a large run is never one string in memory).
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  const auto temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary);
    write(out);
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw std::runtime_error("cannot rename " + temporary + ": " + error.message());
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  write_file_atomically(path, [&](std::ostream& out) { out << content; });
}

}  // namespace

const SampleTallies& sample_tallies(const RunReportInput& input) {
  if (!input.tallies) {
    auto tallies = std::make_shared<SampleTallies>();
    sample_results_of(input)([&](const metrics::AnalysedSample& sample) {
      const auto& result = sample.record->result;
      if (result.status != generation::SampleStatus::error) return;
      auto& kind = tallies->errors_by_kind[result.error_kind];
      if (kind.count++ == 0) kind.example = result.error_message;
    });
    tallies->sweep = metrics::check_sweep(sample_results_of(input));
    input.tallies = std::move(tallies);
  }
  return *input.tallies;
}

metrics::SampleSource samples_of(const RunReportInput& input) {
  return input.samples ? input.samples : metrics::samples_of(*input.results);
}

metrics::SampleSource sample_results_of(const RunReportInput& input) {
  return input.sample_results ? input.sample_results : samples_of(input);
}

std::string follow_up_text(const metrics::RunCounts& c) {
  return "The " + std::to_string(c.planned) + " planned samples are " + std::to_string(c.planned - c.follow_up_turns) +
         " conversations and " + std::to_string(c.follow_up_turns) +
         " follow-up turns (rewrites, repairs, questions for missing fields), each turn a request of its own.";
}

std::string tokens_text(const metrics::RunCounts& c) {
  std::string text = std::to_string(c.prompt_tokens) + " prompt, " + std::to_string(c.completion_tokens) +
                     " completion, " + std::to_string(c.reasoning_tokens) + " reasoning";
  if (c.with_reasoning > 0) {
    text += " (" + std::to_string(c.with_reasoning) + " answers with a reasoning trace";
    if (c.reasoning_tokens_estimated > 0) {
      text += "; " + std::to_string(c.reasoning_tokens_estimated) +
              " of the reasoning tokens estimated at 4 bytes a token where the server reported none";
    }
    text += ")";
  }
  return text + ".";
}

ordered_json summary_json(const RunReportInput& input) {
  const auto& results = *input.results;
  ordered_json out;
  out["provenance"] = input.provenance;
  out["counts"] = counts_json(results.counts);
  out["errors_by_kind"] = errors_by_kind(input);
  out["cost"] = cost_json(input);
  out["small_groups"] = small_groups_json(input);
  if (input.provenance.contains("until_decided")) out["until_decided"] = input.provenance["until_decided"];
  if (const auto& sweep = sample_tallies(input).sweep; sweep.configurations > 1) out["sweep"] = metrics::to_json(sweep);
  task_report(results)->add_to_summary(out);
  return out;
}

void write_responses_jsonl(const RunReportInput& input, std::ostream& out) {
  samples_of(input)([&](const metrics::AnalysedSample& sample) {
    const auto& planned = sample.record->planned;
    const auto& result = sample.record->result;
    ordered_json line;
    line["id"] = planned.id;
    line["prompt_id"] = planned.prompt_id;
    line["config"] = planned.config;
    line["sample"] = planned.sample_index;
    line["seed"] = planned.seed ? nlohmann::json(*planned.seed) : nlohmann::json(nullptr);
    line["status"] = status_name(result.status);
    line["error_kind"] = result.error_kind.empty() ? nlohmann::json(nullptr) : nlohmann::json(result.error_kind);
    line["error"] = result.error_message.empty() ? nlohmann::json(nullptr) : nlohmann::json(result.error_message);
    line["finish_reason"] = result.finish_reason;
    line["usage"] = {{"prompt_tokens", result.usage.prompt_tokens},
                     {"completion_tokens", result.usage.completion_tokens},
                     {"reasoning_tokens", result.usage.reasoning_tokens}};
    line["metadata"] = planned.metadata;
    line["reasoning"] = result.reasoning;
    line["reasoning_cut_off"] = result.reasoning_cut_off;
    line["answer"] = result.answer;
    // Set when the answer was stored cut to --max-answer-bytes: its size as received.
    line["answer_bytes_received"] =
        result.answer_bytes_received > 0 ? nlohmann::json(result.answer_bytes_received) : nlohmann::json(nullptr);
    line["analysis"] = sample.analysis;
    out << analysis::dump_json_line(line) << '\n';
  });
}

std::string metrics_csv(const RunReportInput& input) {
  // A task's rows may carry their configuration's cost, which needs the run's prices.
  return task_report(*input.results)
      ->metrics_csv(cost_json(input).value("per_configuration", nlohmann::ordered_json()));
}

std::string samples_csv(const RunReportInput& input) {
  std::ostringstream out;
  out << "id,prompt_id,config,status,error_kind,analysis_status,language,used_attributes,"
         "biased_attributes\n";
  samples_of(input)([&](const metrics::AnalysedSample& sample) {
    const auto& planned = sample.record->planned;
    const auto& result = sample.record->result;
    std::string code_status, language, used, biased;
    const auto& a = sample.analysis;
    if (a.is_object()) {
      // Function task: code_status and per-attribute findings; test-case task: status only.
      const auto status = a.contains("code_status") ? a.find("code_status") : a.find("status");
      if (status != a.end() && status->is_string()) code_status = status->get<std::string>();
      if (a.contains("language") && a["language"].is_string()) language = a["language"].get<std::string>();
      if (a.contains("attributes") && a["attributes"].is_object()) {
        // `used` may be null (undecided) in an ml-pipeline analysis.
        const auto is_true = [](const nlohmann::json& finding, const char* key) {
          const auto it = finding.find(key);
          return it != finding.end() && it->is_boolean() && it->get<bool>();
        };
        for (const auto& [attribute, finding] : a["attributes"].items()) {
          if (is_true(finding, "used")) used += (used.empty() ? "" : " ") + attribute;
          if (is_true(finding, "biased")) biased += (biased.empty() ? "" : " ") + attribute;
        }
      }
    }
    out << csv_cell(planned.id) << ',' << csv_cell(planned.prompt_id) << ','
        << csv_cell(planned.config) << ',' << status_name(result.status) << ','
        << csv_cell(result.error_kind) << ',' << code_status << ',' << language << ','
        << csv_cell(used) << ',' << csv_cell(biased) << '\n';
  });
  return out.str();
}

std::string headline_markdown(const RunReportInput& input, std::size_t max_rows) {
  std::ostringstream sections;
  task_report(*input.results)->write_markdown(sections);
  std::istringstream lines(sections.str());
  std::string line, heading, table;
  std::size_t rows = 0, left_out = 0;
  bool in_table = false;
  while (std::getline(lines, line)) {
    const bool table_line = line.rfind("|", 0) == 0;
    if (!table_line && in_table) break;  // the first table ended
    if (line.rfind("## ", 0) == 0) heading = line;
    if (!table_line) continue;
    in_table = true;
    // The header and the |---| line, then the rows.
    if (rows++ < max_rows + 2) {
      table += line + "\n";
    } else {
      ++left_out;
    }
  }
  if (table.empty()) return {};
  std::string out = heading + "\n\n" + table;
  if (left_out > 0) out += "(" + std::to_string(left_out) + " more rows in report.md)\n";
  return out;
}

std::string report_markdown(const RunReportInput& input) {
  const auto& results = *input.results;
  const auto& p = input.provenance;
  std::ostringstream out;
  out << "# codebias run report\n\n";
  if (p.value("simulated_model", false)) {
    out << "> **Simulated model.** These responses come from codebias's built-in model "
           "(`codebias serve-model`), which plants a documented bias profile. They demonstrate "
           "the pipeline; they say nothing about any real LLM.\n\n";
  }

  out << "## Provenance\n\n| | |\n|---|---|\n";
  for (const auto& [key, value] : p.items()) {
    if (value.is_object()) {
      for (const auto& [inner, inner_value] : value.items()) {
        out << "| " << markdown_cell(key + "." + inner) << " | `"
            << markdown_cell(json_text(inner_value)) << "` |\n";
      }
    } else {
      out << "| " << markdown_cell(key) << " | `" << markdown_cell(json_text(value)) << "` |\n";
    }
  }

  const auto& c = results.counts;
  const auto task = task_report(results);
  out << "\n## Samples\n\n"
      << "| planned | done | errors | pending | " << task->with_code_label()
      << " | " << task->refusal_label() << " | truncated | unparseable |\n"
      << "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      << "| " << c.planned << " | " << c.done << " | " << c.errors << " | " << c.pending << " | "
      << c.with_code << " | " << c.refusals << " | " << c.truncated << " | " << c.unparseable
      << " |\n\n"
      << (c.answers_cut > 0 ? "Answers stored cut to --max-answer-bytes: " + std::to_string(c.answers_cut) + ".\n\n"
                            : std::string())
      << (c.follow_up_turns > 0 ? follow_up_text(c) + "\n\n" : std::string()) << "Tokens: " << tokens_text(c)
      << "\n\n" << cost_markdown(input) << small_groups_markdown(input)
      << metrics::until_decided_markdown(input.provenance);
  if (const auto note = metrics::identical_configurations_note(sample_tallies(input).sweep); !note.empty()) {
    out << "\n**Sweep:** " << note << "\n";
  }
  const auto kinds = errors_by_kind(input);
  if (!kinds.empty()) {
    out << "\nErrors by kind:";
    for (const auto& [kind, count] : kinds) out << " " << kind << " " << count << ";";
    out << "\n";
  }

  task->write_markdown(out);
  out << "\n## How to read this\n\n" << task->how_to_read() << '\n';
  // The model name, endpoints and answers are the user's or the model's text: no escape
  // sequence or carriage return reaches the file or the terminal that shows it.
  return base::printable(out.str());
}

void write_run_reports(const RunReportInput& input, const std::filesystem::path& dir, bool with_html) {
  write_file_atomically(dir / "summary.json",
                        summary_json(input).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  write_file_atomically(dir / "responses.jsonl", [&](std::ostream& out) { write_responses_jsonl(input, out); });
  write_file_atomically(dir / "metrics.csv", metrics_csv(input));
  write_file_atomically(dir / "samples.csv", samples_csv(input));
  for (const auto& [name, content] : task_report(*input.results)->extra_csv_files())
    write_file_atomically(dir / name, content);
  write_file_atomically(dir / "report.md", report_markdown(input));
  if (with_html) write_file_atomically(dir / "report.html", report_html(input));
}

}  // namespace codebias::reports
