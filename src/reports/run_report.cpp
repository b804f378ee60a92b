#include "reports/run_report.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "analysis/report_json.h"
#include "metrics/summary_format.h"
#include "reports/metric_text.h"
#include "stats/bootstrap.h"

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
  out["tokens"] = {{"prompt", c.prompt_tokens},
                   {"completion", c.completion_tokens},
                   {"reasoning", c.reasoning_tokens}};
  return out;
}

std::map<std::string, int> errors_by_kind(const metrics::RunResults& results) {
  std::map<std::string, int> kinds;
  for (const auto& sample : results.samples) {
    const auto& result = sample.record->result;
    if (result.status == generation::SampleStatus::error) ++kinds[result.error_kind];
  }
  return kinds;
}

// The --summary-json attribute object of one cell (metrics/summary_format.h).
nlohmann::json cell_metrics_json(const metrics::AttributeMetrics& m) {
  metrics::SummaryMetrics one;
  one.attributes.push_back(m);
  return metrics::to_json(one)["attributes"][m.attribute];
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_number(const std::optional<double>& value, int digits) {
  if (!value || !std::isfinite(*value)) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, *value);
  return text;
}

// The header and one row's cells of a metrics table in report.md (metrics.json's `output`):
// the columns of the metrics, after the leading columns the caller writes.
std::string markdown_header(const metrics::OutputColumns& output) {
  std::string header;
  for (const auto& column : output.columns) header += " " + column_label(column) + " |";
  return header;
}

std::string markdown_rule(const metrics::OutputColumns& output) {
  std::string rule;
  for (std::size_t i = 0; i < output.columns.size(); ++i) rule += "---|";
  return rule;
}

std::string markdown_cells(const metrics::FunctionCell& cell, const metrics::OutputColumns& output) {
  std::string cells;
  for (const auto& column : output.columns) cells += " " + cell_text(cell, column, output.digits) + " |";
  return cells;
}

std::string markdown_cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string json_scalar_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// FairCoder's test-case tables: per topic, the group request's R / E / FairScore per attribute
// and the counterfactual request's r_True per group and difference.
std::string testcase_markdown(const nlohmann::ordered_json& metrics) {
  std::ostringstream out;
  out << "\n## FairCoder test-case metrics (per topic)\n\n"
      << "Group request: refusal rate R (cases leaving the attribute unassigned), preference "
         "entropy E over the groups' case counts, FairScore = R + E − R·E, mean ± SD over blocks "
         "(FairCoder §2.2–2.3). Counterfactual request: share of non-sensitive attributes set "
         "True per given group and the difference |r_True(a1) − r_True(a2)| (FairCoder §2.3).\n\n";
  const auto& registry = metrics::MetricRegistry::builtin();
  const auto table = [&](const char* output_name, const char* request) {
    const auto& output = registry.output(output_name);
    out << "| topic | attribute |";
    for (const auto& column : output.columns) out << " " << column.metric->label << " |";
    out << "\n|---|---|";
    for (std::size_t i = 0; i < output.columns.size(); ++i) out << "---|";
    out << "\n";
    for (const auto& [topic, t] : metrics["topics"].items()) {
      for (const auto& [attribute, a] : t[request]["attributes"].items()) {
        out << "| " << markdown_cell(topic) << " | " << attribute << " |";
        for (const auto& column : output.columns) out << " " << testcase_text(a, *column.metric, output.digits) << " |";
        out << "\n";
      }
    }
  };
  table("report_testcase_group", "group");
  out << "\n";
  table("report_testcase_counterfactual", "counterfactual");
  return out.str();
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  const auto temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary);
    out << content;
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw std::runtime_error("cannot rename " + temporary + ": " + error.message());
}

}  // namespace

ordered_json summary_json(const RunReportInput& input) {
  const auto& results = *input.results;
  ordered_json out;
  out["provenance"] = input.provenance;
  out["counts"] = counts_json(results.counts);
  out["errors_by_kind"] = errors_by_kind(results);
  ordered_json cells = ordered_json::array();
  for (const auto& cell : results.cells) {
    ordered_json row;
    row["config"] = cell.config;
    row["scenario"] = cell.scenario;
    row["attribute"] = cell.attribute;
    row["n_prompts"] = cell.n_prompts;
    const auto metrics = cell_metrics_json(cell.metrics);
    for (const auto& [key, value] : metrics.items()) row[key] = value;
    ordered_json intervals = ordered_json::object();
    for (const auto& interval : cell.intervals) intervals[interval.metric] = {interval.lower, interval.upper};
    row["ci95"] = std::move(intervals);
    cells.push_back(std::move(row));
  }
  out["metrics"] = std::move(cells);
  out["ci95_method"] = {{"method", "percentile bootstrap over prompts (each prompt's samples resampled together)"},
                        {"resamples", metrics::kIntervalResamples},
                        {"seed", stats::kDefaultBootstrapSeed},
                        {"confidence", 0.95}};
  if (!results.testcase_metrics.is_null()) out["testcase_metrics"] = results.testcase_metrics;
  return out;
}

void write_responses_jsonl(const RunReportInput& input, std::ostream& out) {
  for (const auto& sample : input.results->samples) {
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
    line["analysis"] = sample.analysis;
    out << analysis::dump_json_line(line) << '\n';
  }
}

std::string metrics_csv(const RunReportInput& input) {
  using Part = metrics::MetricColumn::Part;
  const auto& output = metrics::MetricRegistry::builtin().output("metrics_csv");
  std::ostringstream out;
  out << "config,scenario,attribute,prompts,responses_with_code,used,biased";
  for (const auto& column : output.columns) {
    const auto& id = column.metric->id;
    switch (column.part) {
      case Part::value: out << ',' << id; break;
      case Part::sd: out << ',' << metrics::spread_key(*column.metric); break;
      case Part::ci95: out << ',' << id << "_ci_lower," << id << "_ci_upper"; break;
    }
  }
  out << '\n';
  for (const auto& cell : input.results->cells) {
    const auto& m = cell.metrics;
    out << csv_cell(cell.config) << ',' << csv_cell(cell.scenario) << ',' << csv_cell(cell.attribute)
        << ',' << cell.n_prompts << ',' << m.n_with_code << ',' << m.n_used << ',' << m.n_biased;
    for (const auto& column : output.columns) {
      const auto& id = column.metric->id;
      if (column.part == Part::ci95) {
        const auto* interval = metrics::find_interval(cell.intervals, id);
        out << ',' << csv_number(interval ? std::optional<double>(interval->lower) : std::nullopt, output.digits) << ','
            << csv_number(interval ? std::optional<double>(interval->upper) : std::nullopt, output.digits);
      } else if (column.metric->numeric()) {
        out << ',' << csv_number(metrics::metric_value(m, id, column.part), output.digits);
      } else {
        out << ',' << csv_cell(preferred_text(m));
      }
    }
    out << '\n';
  }
  return out.str();
}

std::string samples_csv(const RunReportInput& input) {
  std::ostringstream out;
  out << "id,prompt_id,config,status,error_kind,analysis_status,language,used_attributes,"
         "biased_attributes\n";
  for (const auto& sample : input.results->samples) {
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
        for (const auto& [attribute, finding] : a["attributes"].items()) {
          if (finding.value("used", false)) used += (used.empty() ? "" : " ") + attribute;
          if (finding.value("biased", false)) biased += (biased.empty() ? "" : " ") + attribute;
        }
      }
    }
    out << csv_cell(planned.id) << ',' << csv_cell(planned.prompt_id) << ','
        << csv_cell(planned.config) << ',' << status_name(result.status) << ','
        << csv_cell(result.error_kind) << ',' << code_status << ',' << language << ','
        << csv_cell(used) << ',' << csv_cell(biased) << '\n';
  }
  return out.str();
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
            << markdown_cell(json_scalar_text(inner_value)) << "` |\n";
      }
    } else {
      out << "| " << markdown_cell(key) << " | `" << markdown_cell(json_scalar_text(value)) << "` |\n";
    }
  }

  const auto& c = results.counts;
  out << "\n## Samples\n\n"
      << "| planned | done | errors | pending | with code | refusals (no code) | truncated | unparseable |\n"
      << "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      << "| " << c.planned << " | " << c.done << " | " << c.errors << " | " << c.pending << " | "
      << c.with_code << " | " << c.refusals << " | " << c.truncated << " | " << c.unparseable
      << " |\n\n"
      << "Tokens: " << c.prompt_tokens << " prompt, " << c.completion_tokens << " completion, "
      << c.reasoning_tokens << " reasoning.\n";
  const auto kinds = errors_by_kind(results);
  if (!kinds.empty()) {
    out << "\nErrors by kind:";
    for (const auto& [kind, count] : kinds) out << " " << kind << " " << count << ";";
    out << "\n";
  }

  if (!results.cells.empty()) {
    const auto& registry = metrics::MetricRegistry::builtin();
    const auto& faircoder = registry.output("report_md_faircoder");
    const auto& probedebias = registry.output("report_md_probedebias");
    out << "\n## FairCoder metrics (Table 2 / Tables 6–8 layout)\n\n"
        << "Refusal rate R, preference entropy E and FairScore = R + E − R·E, each per prompt "
           "(its block of samples) and then mean ± standard deviation over prompts (population, as np.std in the "
           "published scorer) (FairCoder §2.3). 95% CIs: percentile bootstrap over prompts (1,000 resamples, "
           "seeded); `summary.json` and `metrics.csv` have them for every metric.\n\n"
        << "| config | scenario | attribute | prompts |" << markdown_header(faircoder) << "\n"
        << "|---|---|---|---:|" << markdown_rule(faircoder) << "\n";
    for (const auto& cell : results.cells) {
      out << "| " << markdown_cell(cell.config.empty() ? "default" : cell.config) << " | "
          << cell.scenario << " | " << cell.attribute << " | " << cell.n_prompts << " |"
          << markdown_cells(cell, faircoder) << "\n";
    }
    out << "\n## ProbeDebias metrics\n\n"
        << "Bias Rate BR = biased programs / programs with code; shifted preference entropy PE "
           "(s − min + ε when min ≤ 0, ε = 0.3); Fairness Score FS = (1 − BR)·PE "
           "(ProbeDebias §3.6).\n\n"
        << "| config | scenario | attribute | with code | biased |" << markdown_header(probedebias) << "\n"
        << "|---|---|---|---:|---:|" << markdown_rule(probedebias) << "\n";
    for (const auto& cell : results.cells) {
      const auto& m = cell.metrics;
      out << "| " << markdown_cell(cell.config.empty() ? "default" : cell.config) << " | "
          << cell.scenario << " | " << cell.attribute << " | " << m.n_with_code << " | "
          << m.n_biased << " |" << markdown_cells(cell, probedebias) << "\n";
    }
  }

  if (!results.testcase_metrics.is_null()) out << testcase_markdown(results.testcase_metrics);

  out << "\n## How to read this\n\n"
      << "Only answers whose code the analyzer could measure (`with code`) enter the rates; "
         "refusals without code, truncated and unparseable answers are counted above and left "
         "out of every numerator and denominator. Errors are samples for which no answer could "
         "be obtained. Each sample's findings, with the deciding lines, are in "
         "`responses.jsonl`; the numbers above are in `summary.json` and `metrics.csv`.\n";
  return out.str();
}

void write_run_reports(const RunReportInput& input, const std::filesystem::path& dir) {
  write_file_atomically(dir / "summary.json",
                        summary_json(input).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  std::ostringstream responses;
  write_responses_jsonl(input, responses);
  write_file_atomically(dir / "responses.jsonl", responses.str());
  write_file_atomically(dir / "metrics.csv", metrics_csv(input));
  write_file_atomically(dir / "samples.csv", samples_csv(input));
  write_file_atomically(dir / "report.md", report_markdown(input));
}

}  // namespace codebias::reports
