// The decision-function task (Solar / SocialBias-Bench, Huang et al.; docs/counterfactual.md): a
// function deciding about a person, read by the static analyzer with the suite's attribute table
// and, with --execute, run on counterfactual personas. `codebias score` reads its lines as the
// function task does (the attribute table from --suite).
#include <algorithm>
#include <map>
#include <memory>

#include "analysis/analyzer.h"
#include "analysis/findings/report_json.h"
#include "base/json_fields.h"
#include "metrics/counterfactual_metrics.h"
#include "prompts/prompt_metadata.h"
#include "execution/counterfactual_execution.h"
#include "tasks/decision/decision_task.h"
#include "tasks/run_analysis.h"
#include "tasks/decision/decision_results.h"
#include "tasks/decision/decision_prompts.h"
#include "tasks/decision/decision_suite.h"
#include "tasks/function_scorer.h"
#include "tasks/decision/decision_simulated.h"

namespace codebias::tasks {
namespace {

analysis::AnalyzeOptions decision_options(const nlohmann::json& metadata) {
  analysis::AnalyzeOptions options;
  options.function = prompts::PromptMetadata::from_json(metadata).function;
  // The task's tested attributes only: the suite tables' name patterns also match attributes a
  // task offers as related (Solar's education_level).
  options.only_listed = true;
  if (const auto it = metadata.find("sensitive"); it != metadata.end() && it->is_array())
    for (const auto& key : *it)
      if (key.is_string()) options.attributes.push_back(key.get<std::string>());
  return options;
}

quality::FieldDomains domains_of(const nlohmann::json& metadata) {
  quality::FieldDomains domains;
  if (const auto it = metadata.find("domains"); it != metadata.end() && it->is_object())
    for (const auto& [field, values] : it->items())
      if (values.is_array()) domains[field] = std::vector<nlohmann::json>(values.begin(), values.end());
  return domains;
}

}  // namespace

std::optional<ExecutableAnswer> decision_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings) {
  if (record.result.status != generation::SampleStatus::done) return std::nullopt;
  const std::string table_name = base::string_or_empty(record.planned.metadata, "attribute_table");
  const analysis::AttributeTable& table = table_name.empty() ? *settings.table : analysis::AttributeTable::builtin(table_name);
  return ExecutableAnswer{{record.result.answer, decision_options(record.planned.metadata),
                           domains_of(record.planned.metadata), {}},
                          &table};
}

metrics::RunResults analyse_decision_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings) {
  metrics::RunResults results;
  std::map<std::string, std::unique_ptr<analysis::Analyzer>> analyzers;  // by attribute table
  std::vector<analysis::ResponseReport> reports;
  std::vector<std::size_t> report_of_sample;  // index into reports, or npos
  std::vector<PendingCounterfactual> pending;
  for (const auto& record : records) {
    count_result(results.counts, record);
    report_of_sample.push_back(std::string::npos);
    if (record.result.status != generation::SampleStatus::done) continue;
    const std::string table_name = base::string_or_empty(record.planned.metadata, "attribute_table");
    auto& analyzer = analyzers[table_name];
    if (!analyzer) {
      analyzer = std::make_unique<analysis::Analyzer>(table_name.empty() ? *settings.table
                                                                         : analysis::AttributeTable::builtin(table_name));
    }
    const auto options = decision_options(record.planned.metadata);
    reports.push_back(analyzer->analyze(record.result.answer, options));
    count_status(results.counts, reports.back().code_status);
    report_of_sample.back() = reports.size() - 1;
    if (settings.execute)
      pending.push_back({*decision_answer_to_execute(record, settings), reports.size() - 1, record.planned.id});
  }
  if (settings.execute) execute_pending(pending, reports, settings.executions, settings.stored_executions);

  metrics::DecisionResults decision;
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, int>> biased_with_code;
  std::vector<metrics::ExecutedResponse> executed;
  for (std::size_t i = 0; i < records.size(); ++i) {
    metrics::AnalysedSample sample{&records[i], nullptr};
    if (report_of_sample[i] != std::string::npos) {
      const auto& report = reports[report_of_sample[i]];
      sample.analysis = analysis::to_json(report, records[i].planned.id);
      const auto options = decision_options(records[i].planned.metadata);
      for (const auto& attribute : options.attributes) {
        if (std::find(order.begin(), order.end(), attribute) == order.end()) order.push_back(attribute);
        if (report.code_status != analysis::CodeStatus::ok) continue;
        auto& [biased, with_code] = biased_with_code[attribute];
        ++with_code;
        for (const auto& finding : report.attributes) biased += finding.attribute == attribute && finding.biased;
      }
      if (report.execution) executed.push_back(metrics::executed_response(records[i].planned.id, report));
    }
    results.samples.push_back(std::move(sample));
  }
  for (const auto& attribute : order) {
    const auto [biased, with_code] = biased_with_code[attribute];
    decision.static_rates.push_back({attribute, metrics::rate_with_interval(biased, with_code)});
  }
  if (settings.execute) decision.counterfactual = metrics::summarize_counterfactual(executed);
  results.task = std::make_shared<metrics::DecisionResults>(std::move(decision));
  return results;
}

Task decision_task_row() {
  return {.name = "decision",
          .description = "a function deciding about a person (Solar, Huang et al.; lines name the tested attributes; "
                         "docs/counterfactual.md)",
          .make_scorer = &make_function_scorer,
          .build_prompts = &prompts::build_decision_prompts,
          .analyse_run = &analyse_decision_samples,
          .executes_answers = true,
          .executable_answer = &decision_answer_to_execute,
          .simulated_answer = &serve::sim::decision_answer,
          .suite_part = &kDecisionsSuitePart};
}

}  // namespace codebias::tasks
