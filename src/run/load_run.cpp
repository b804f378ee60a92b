#include "run/load_run.h"

#include <map>
#include <unordered_map>
#include <stdexcept>
#include <tuple>

#include "analysis/analyzer.h"
#include "analysis/prompt_attributes.h"
#include "base/json_fields.h"
#include "run/score_input.h"
#include "store/run_store.h"
#include "tasks/run_analysis.h"
#include "tasks/task.h"

namespace codebias::run {

namespace {

analysis::CodeStatus code_status_from(const std::string& name) {
  for (const auto status : {analysis::CodeStatus::ok, analysis::CodeStatus::no_code, analysis::CodeStatus::truncated,
                            analysis::CodeStatus::unparseable}) {
    if (name == analysis::to_string(status)) return status;
  }
  throw std::invalid_argument("unknown code_status \"" + name + "\"");
}

analysis::BiasReason reason_from(const std::string& name) {
  for (const auto reason : {analysis::BiasReason::groups_differ, analysis::BiasReason::effect,
                            analysis::BiasReason::numeric_use, analysis::BiasReason::other_value}) {
    if (name == analysis::to_string(reason)) return reason;
  }
  throw std::invalid_argument("unknown bias reason \"" + name + "\"");
}

// The inverse of analysis::to_json for what the metrics read (status and findings); evidence
// and language are not needed to aggregate.
analysis::ResponseReport report_from_json(const nlohmann::ordered_json& json) {
  analysis::ResponseReport report;
  report.code_status = code_status_from(json.at("code_status").get<std::string>());
  for (const auto& [attribute, finding_json] : json.at("attributes").items()) {
    analysis::AttributeFinding finding;
    finding.attribute = attribute;
    finding.used = finding_json.at("used").get<bool>();
    finding.biased = finding_json.at("biased").get<bool>();
    if (const auto& reason = finding_json.at("reason"); reason.is_string()) finding.reason = reason_from(reason.get<std::string>());
    if (const auto& scores = finding_json.at("scores"); scores.is_object()) {
      finding.scores.emplace();
      for (const auto& [group, points] : scores.items()) finding.scores->emplace_back(group, points.get<double>());
    }
    for (const auto& [value, points] : finding_json.at("other_values").items()) {
      finding.other_values[value] = points.get<double>();
    }
    if (const auto& effect = finding_json.at("effect"); effect.is_string()) finding.effect = effect.get<std::string>();
    report.attributes.push_back(std::move(finding));
  }
  return report;
}

}  // namespace

metrics::LoadedRun load_run(const std::filesystem::path& dir) { return load_run(store::RunStore::open(dir), dir); }

metrics::LoadedRun load_run(const store::RunStore& store, const std::filesystem::path& dir) {
  metrics::LoadedRun run;
  run.dir = dir;
  run.provenance = store.provenance();
  const auto options = run.provenance.find("options");
  // Only runs whose answers are scoring functions have the cells compare and gate judge.
  const std::string task = options != run.provenance.end() ? base::string_or_empty(*options, "task") : std::string();
  if (!task.empty() && !tasks::find_task(task).answers_are_programs) {
    throw std::invalid_argument(dir.string() + ": the run's task (" + task +
                                ") has no function-implementation cells to judge (compare and gate read runs of "
                                "scoring functions)");
  }
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result,
                            const nlohmann::json*) { run.records.push_back({planned, result}); });

  const auto& table = analysis::AttributeTable::builtin();
  run.results = tasks::analyse_function_run(run.records, analysis::Analyzer(table));

  using CellKey = std::tuple<std::string, std::string, std::string>;
  std::map<CellKey, std::size_t> index;
  for (const auto& cell : run.results.function_cells()) {
    index.emplace(CellKey{cell.config, cell.scenario, cell.attribute}, run.cells.size());
    run.cells.push_back({cell.config, cell.scenario, cell.attribute, cell.metrics.groups, {}});
  }
  // Conversations in plan order, each by its answer (a mitigation run's regenerated or repaired
  // answers stand where their first answers were), so a prompt's samples stay together.
  std::unordered_map<const metrics::SampleRecord*, const nlohmann::ordered_json*> analyses;
  for (const auto& sample : run.results.samples)
    if (!sample.analysis.is_null()) analyses[sample.record] = &sample.analysis;
  for (const metrics::SampleRecord* answer : tasks::conversation_answers(run.records)) {
    const auto analysis = analyses.find(answer);
    if (analysis == analyses.end()) continue;
    const auto& planned = answer->planned;
    const auto report = report_from_json(*analysis->second);
    const auto metadata = prompts::PromptMetadata::from_json(planned.metadata);
    for (const auto& attribute : analysis::cell_attributes(metadata, table)) {
      const auto it = index.find(CellKey{planned.config, metadata.scenario, attribute});
      if (it == index.end()) continue;
      auto& prompts = run.cells[it->second].prompts;
      if (prompts.empty() || prompts.back().prompt_id != planned.prompt_id) prompts.push_back({planned.prompt_id, {}, {}});
      prompts.back().sample_indices.push_back(planned.sample_index);
      prompts.back().reports.push_back(report);
    }
  }
  return run;
}

}  // namespace codebias::run
