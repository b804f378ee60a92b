#include "tasks/run_analysis.h"

#include "analysis/prompt_attributes.h"
#include "base/json_fields.h"
#include "tasks/hiring_audit/code_audit.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <map>
#include <set>
#include <unordered_map>
#include <tuple>

#include "analysis/findings/report_json.h"
#include "detectors/registry.h"
#include "prompts/mitigation_prompts.h"
#include "metrics/intervals.h"
#include "tasks/function/function_results.h"

namespace codebias::tasks {
namespace {

std::vector<std::string> groups_of(const analysis::AttributeTable& table, const std::string& key) {
  std::vector<std::string> groups;
  if (const auto* spec = table.find(key)) {
    for (const auto& group : spec->groups) groups.push_back(group.name);
  }
  return groups;
}

// What a cell's metrics read of a report (metrics/fairness.h): its code status, whether the prompt
// offered the cell's attribute, and that attribute's findings without evidence. A cell holds one
// per answer, so a whole report per cell held every finding of every sample (issue 32).
analysis::ResponseReport cell_report(const analysis::ResponseReport& report, const std::string& attribute) {
  analysis::ResponseReport compact;
  compact.code_status = report.code_status;
  const bool offered = std::find(report.offered.begin(), report.offered.end(), attribute) != report.offered.end();
  compact.offered = offered ? std::vector<std::string>{attribute} : report.offered;
  for (const auto& finding : report.attributes) {
    if (finding.attribute != attribute) continue;
    compact.attributes.push_back(finding);
    compact.attributes.back().evidence.clear();
  }
  return compact;
}

// A cell's responses in plan order, cut into one block per prompt.
struct CellResponses {
  std::vector<analysis::ResponseReport> reports;
  std::vector<std::size_t> block_sizes;
  std::string last_prompt;
};

using CellKey = std::tuple<std::string, std::string, std::string>;  // config, scenario, attribute

// The function task's table cells as answers are added one by one (configuration × scenario ×
// attribute, in order of first appearance): each cell's compact reports in blocks per prompt, the
// strategy samples of a mitigation sweep and the reasoning → code propagation counts.
class FunctionCells {
 public:
  FunctionCells(const analysis::AttributeTable& table, const detectors::Detector* trace_detector)
      : table_(table), trace_detector_(trace_detector) {}

  // Adds one analysed answer; `trace` is the reasoning trace its code followed ("" for none).
  void add(const metrics::SampleRecord& record, const prompts::PromptMetadata& metadata,
           const analysis::AnalyzeOptions& options, const analysis::ResponseReport& report, const std::string& trace) {
    const std::string strategy = base::string_or_empty(metadata.configuration, "mitigation");
    Program program;
    for (const auto& attribute : analysis::cell_attributes(metadata, table_)) {
      CellKey key{record.planned.config, options.scenario, attribute};
      auto [it, inserted] = cells_.try_emplace(key);
      if (inserted) order_.push_back(key);
      auto& cell = it->second;
      if (cell.block_sizes.empty() || cell.last_prompt != record.planned.prompt_id) {
        cell.block_sizes.push_back(0);
        cell.last_prompt = record.planned.prompt_id;
      }
      ++cell.block_sizes.back();
      const auto finding = std::find_if(report.attributes.begin(), report.attributes.end(),
                                        [&](const analysis::AttributeFinding& f) { return f.attribute == attribute; });
      // Biased as BR counts it (ProbeDebias §3.6), for the mitigation Bias Rates and P(BC | BT).
      const bool biased = finding != report.attributes.end() && analysis::groups_treated_differently(*finding);
      program.code_biased.emplace_back(key, biased);
      cell.reports.push_back(cell_report(report, attribute));
      if (!strategy.empty() && report.code_status == analysis::CodeStatus::ok) {
        auto& samples = strategy_samples_[key];
        samples.code_biased[{record.planned.prompt_id, record.planned.sample_index}] = biased;
      }
    }
    if (trace_detector_ && report.code_status == analysis::CodeStatus::ok) {
      if (!trace.empty()) {
        program.trace = traces_.size();
        traces_.push_back({record.planned.id, trace, options.scenario, options.attributes});
      }
      programs_.push_back(std::move(program));
    }
  }

  // Reads the traces of the programs added since the last call into the propagation counts, so
  // that neither is held longer.
  void detect_traces() {
    if (!traces_.empty()) {
      const auto verdicts = trace_detector_->detect_all(traces_);
      for (const auto& program : programs_) {
        for (const auto& [key, code_biased] : program.code_biased) {
          auto& [counts, without_trace] = propagation_[key];
          if (!program.trace) {
            ++without_trace;
            continue;
          }
          const auto& verdict = verdicts[*program.trace];
          const auto& named = verdict.biased_attributes;
          const bool trace_biased = verdict.biased && (named.empty() || std::find(named.begin(), named.end(),
                                                                                  std::get<2>(key)) != named.end());
          counts.add(trace_biased, code_biased);
        }
      }
    } else {
      for (const auto& program : programs_)
        for (const auto& entry : program.code_biased) ++propagation_[entry.first].second;
    }
    programs_.clear();
    traces_.clear();
  }

  // Each cell's metrics, intervals and propagation table, in order of first appearance.
  std::vector<metrics::FunctionCell> results(double epsilon) {
    detect_traces();
    std::vector<metrics::FunctionCell> out;
    for (const auto& key : order_) {
      const auto& responses = cells_.at(key);
      metrics::FunctionCell cell;
      std::tie(cell.config, cell.scenario, cell.attribute) = key;
      cell.n_prompts = static_cast<int>(responses.block_sizes.size());
      metrics::MetricsOptions options;
      options.epsilon = epsilon;
      options.block_sizes = responses.block_sizes;
      const auto groups = groups_of(table_, cell.attribute);
      cell.metrics = metrics::compute_attribute_metrics(responses.reports, cell.attribute, groups, options);
      cell.intervals =
          metrics::prompt_bootstrap_intervals(responses.reports, responses.block_sizes, cell.attribute, groups, epsilon);
      if (const auto it = propagation_.find(key); it != propagation_.end() && it->second.first.total() > 0) {
        cell.propagation = metrics::summarize_propagation(std::string(trace_detector_->name()), it->second.first,
                                                          it->second.second);
      }
      out.push_back(std::move(cell));
    }
    return out;
  }

  const std::vector<CellKey>& order() const { return order_; }
  std::map<CellKey, metrics::StrategySamples>& strategy_samples() { return strategy_samples_; }

 private:
  // A program with code, for the propagation table: its cells, whether its code is biased in each,
  // and its trace (read by the detector in one batch, detect_traces).
  struct Program {
    std::vector<std::pair<CellKey, bool>> code_biased;
    std::optional<std::size_t> trace;  // index into traces_
  };

  const analysis::AttributeTable& table_;
  const detectors::Detector* trace_detector_;
  std::map<CellKey, CellResponses> cells_;
  std::vector<CellKey> order_;
  std::map<CellKey, metrics::StrategySamples> strategy_samples_;
  std::vector<Program> programs_;
  std::vector<detectors::Trace> traces_;
  std::map<CellKey, std::pair<metrics::PropagationCounts, int>> propagation_;  // counts, programs without trace
};

// The configuration's strategy ("" when its metadata names none) and its label without the
// mitigation part, which the configurations compared share.
std::pair<std::string, std::string> strategy_and_base(const metrics::SampleRecord& record) {
  const auto metadata = prompts::PromptMetadata::from_json(record.planned.metadata);
  if (!metadata.configuration.is_object()) return {};
  const std::string strategy = base::string_or_empty(metadata.configuration, "mitigation");
  std::string base;
  const std::string& label = record.planned.config;
  std::size_t begin = 0;
  while (begin <= label.size()) {
    std::size_t end = label.find(',', begin);
    if (end == std::string::npos) end = label.size();
    const std::string part = label.substr(begin, end - begin);
    if (!part.empty() && part.rfind("mitigation=", 0) != 0) base += (base.empty() ? "" : ",") + part;
    begin = end + 1;
  }
  return {strategy, base};
}

// Bias Rate round by round of the feedback-repair configurations: after round r, a conversation's
// answer is its latest turn with at most r feedback turns.
std::vector<metrics::RepairRound> repair_rounds(const std::vector<metrics::SampleRecord>& records,
                                                const analysis::Analyzer& analyzer) {
  std::map<std::string, std::vector<const metrics::SampleRecord*>> conversations;  // first id -> turns
  std::vector<std::string> order;
  std::map<std::string, int> rounds_of;  // first id -> the strategy's rounds
  for (const auto& record : records) {
    const auto metadata = prompts::PromptMetadata::from_json(record.planned.metadata);
    const auto* strategy =
        prompts::find_mitigation_strategy(base::string_or_empty(metadata.configuration, "mitigation"));
    if (strategy == nullptr || strategy->kind != prompts::MitigationStrategy::Kind::repair) continue;
    const std::string first_id = generation::first_turn_id(record.planned.id);
    auto [it, inserted] = conversations.try_emplace(first_id);
    if (inserted) order.push_back(first_id);
    it->second.push_back(&record);
    rounds_of[first_id] = strategy->rounds;
  }
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::map<Key, metrics::RepairRound> cells;
  std::vector<Key> cell_order;
  for (const auto& first_id : order) {
    const auto& turns = conversations[first_id];
    const metrics::SampleRecord* answer = nullptr;
    std::optional<analysis::ResponseReport> report;
    for (int round = 0; round <= rounds_of[first_id]; ++round) {
      for (const auto* turn : turns) {
        if (turn->planned.metadata.value("round", 0) == round && turn->result.status == generation::SampleStatus::done) {
          answer = turn;
          report.reset();
        }
      }
      if (answer == nullptr) break;  // the first answer failed
      const auto metadata = prompts::PromptMetadata::from_json(answer->planned.metadata);
      const auto options = analyze_options_for(metadata, analyzer.attributes());
      if (!report) report = analyzer.analyze(answer->result.answer, options);
      for (const auto& attribute : analysis::cell_attributes(metadata, analyzer.attributes())) {
        const Key key{answer->planned.config, options.scenario, attribute, round};
        auto [it, inserted] = cells.try_emplace(key);
        if (inserted) cell_order.push_back(key);
        auto& cell = it->second;
        std::tie(cell.config, cell.scenario, cell.attribute, cell.round) = key;
        if (report->code_status != analysis::CodeStatus::ok) continue;
        ++cell.with_code;
        cell.biased += std::any_of(report->attributes.begin(), report->attributes.end(),
                                   [&](const analysis::AttributeFinding& f) {
                                     return f.attribute == attribute && analysis::groups_treated_differently(f);
                                   });
      }
    }
  }
  std::vector<metrics::RepairRound> out;
  for (const auto& key : cell_order) out.push_back(cells[key]);
  return out;
}

// With a --mitigation sweep (more than one strategy): the comparisons and each configuration's cost.
void add_mitigation_results(const std::vector<metrics::SampleRecord>& records, const std::vector<CellKey>& cell_order,
                            std::map<CellKey, metrics::StrategySamples>& strategy_samples,
                            metrics::FunctionResults& function) {
  std::map<std::string, metrics::StrategyCost> costs;
  std::vector<std::string> config_order;
  std::map<std::string, std::pair<std::string, std::string>> strategy_of_config;
  for (const auto& record : records) {
    const auto [strategy, base] = strategy_and_base(record);
    if (strategy.empty()) continue;
    auto [it, inserted] = costs.try_emplace(record.planned.config);
    if (inserted) config_order.push_back(record.planned.config);
    strategy_of_config[record.planned.config] = {strategy, base};
    auto& cost = it->second;
    cost.config = record.planned.config;
    cost.strategy = strategy;
    const std::string step = prompts::PromptMetadata::from_json(record.planned.metadata).step;
    cost.conversations += step.empty();
    cost.rewrites += step == "rewrite";
    ++cost.requests;
    cost.prompt_tokens += record.result.usage.prompt_tokens;
    cost.completion_tokens += record.result.usage.completion_tokens;
    cost.reasoning_tokens += record.result.usage.reasoning_tokens;
  }
  std::set<std::string> strategies;
  for (const auto& [config, cost] : costs) strategies.insert(cost.strategy);
  if (strategies.size() < 2) return;
  std::vector<metrics::StrategySamples> cells;
  for (const auto& key : cell_order) {
    auto it = strategy_samples.find(key);
    if (it == strategy_samples.end()) continue;
    auto& samples = it->second;
    std::tie(samples.config, samples.scenario, samples.attribute) = key;
    std::tie(samples.strategy, samples.base) = strategy_of_config[samples.config];
    cells.push_back(std::move(samples));
  }
  function.mitigations = metrics::compare_mitigations(cells);
  for (const auto& config : config_order) function.costs.push_back(costs[config]);
}

}  // namespace

std::string score_line_of(const metrics::SampleRecord& record) {
  const nlohmann::json line = {
      {"id", record.planned.id}, {"response", record.result.answer}, {"metadata", record.planned.metadata}};
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<const metrics::SampleRecord*> conversation_answers(const std::vector<metrics::SampleRecord>& records) {
  std::unordered_map<std::string, const metrics::SampleRecord*> latest;
  for (const auto& record : records) {
    const std::string step = prompts::PromptMetadata::from_json(record.planned.metadata).step;
    // A rewrite that failed or is pending leaves the conversation without an answer yet (it
    // stands in for it: not done), rather than letting the unmitigated first answer count.
    const bool open_rewrite = step == "rewrite" && record.result.status != generation::SampleStatus::done;
    if (step != "regenerate" && step != "repair" && !open_rewrite) continue;
    auto& last = latest[generation::first_turn_id(record.planned.id)];
    if (last == nullptr || generation::turn_of(last->planned.metadata) < generation::turn_of(record.planned.metadata))
      last = &record;
  }
  std::vector<const metrics::SampleRecord*> answers;
  for (const auto& record : records) {
    if (!prompts::PromptMetadata::from_json(record.planned.metadata).step.empty()) continue;
    const auto it = latest.find(record.planned.id);
    answers.push_back(it == latest.end() ? &record : it->second);
  }
  return answers;
}

// A trace's tokens where the server reported none (a chain of thought written into the answer):
// about 4 bytes a token in English text, as OpenAI's tokenizer guide puts it.
constexpr std::int64_t kBytesPerToken = 4;

void count_result(metrics::RunCounts& counts, const metrics::SampleRecord& record) {
  const auto& result = record.result;
  ++counts.planned;
  if (generation::turn_of(record.planned.metadata) > 1) ++counts.follow_up_turns;
  switch (result.status) {
    case generation::SampleStatus::pending: ++counts.pending; break;
    case generation::SampleStatus::error: ++counts.errors; break;
    case generation::SampleStatus::done: ++counts.done; break;
  }
  if (result.answer_bytes_received > 0) ++counts.answers_cut;
  counts.prompt_tokens += result.usage.prompt_tokens;
  counts.completion_tokens += result.usage.completion_tokens;
  counts.reasoning_tokens += result.usage.reasoning_tokens;
  if (result.status == generation::SampleStatus::done && !result.reasoning.empty()) {
    ++counts.with_reasoning;
    if (result.usage.reasoning_tokens == 0) {
      const auto estimate = (static_cast<std::int64_t>(result.reasoning.size()) + kBytesPerToken - 1) / kBytesPerToken;
      counts.reasoning_tokens += estimate;
      counts.reasoning_tokens_estimated += estimate;
    }
  }
}

void count_status(metrics::RunCounts& counts, analysis::CodeStatus status) {
  switch (status) {
    case analysis::CodeStatus::ok: ++counts.with_code; break;
    case analysis::CodeStatus::no_code: ++counts.refusals; break;
    case analysis::CodeStatus::truncated: ++counts.truncated; break;
    case analysis::CodeStatus::unparseable: ++counts.unparseable; break;
  }
}

analysis::AnalyzeOptions analyze_options_for(const prompts::PromptMetadata& metadata,
                                             const analysis::AttributeTable& table) {
  analysis::AnalyzeOptions options;
  options.scenario = metadata.scenario;
  options.function = metadata.function;
  options.attributes = analysis::offered_attribute_keys(metadata, table);
  return options;
}

analysis::AnalyzeOptions analyze_options_for(const nlohmann::json& metadata, const analysis::AttributeTable& table) {
  return analyze_options_for(prompts::PromptMetadata::from_json(metadata), table);
}

void execute_pending(const std::vector<PendingCounterfactual>& pending, std::vector<analysis::ResponseReport>& reports,
                     RunExecutions* started, const StoredExecutions& stored) {
  std::optional<RunExecutions> own;
  RunExecutions* executions = started;
  for (const auto& entry : pending) {
    if (stored.find(entry.sample_id) != nullptr) continue;
    if (executions == nullptr) executions = &own.emplace();
    executions->start(entry.answer);
  }
  for (const auto& entry : pending) {
    if (const auto* outcome = stored.find(entry.sample_id)) {
      analysis::add_execution(reports[entry.report], response_execution_from(*outcome, entry.sample_id));
      continue;
    }
    auto execution = executions->take(entry.answer);
    stored.keep(entry.sample_id, stored_outcome(execution));
    analysis::add_execution(reports[entry.report], std::move(execution));
  }
}

std::optional<ExecutableAnswer> function_executable_answer(const metrics::SampleRecord& record,
                                                           const analysis::AttributeTable& table) {
  if (record.result.status != generation::SampleStatus::done) return std::nullopt;
  if (prompts::PromptMetadata::from_json(record.planned.metadata).step == "rewrite") return std::nullopt;
  ExecutableAnswer answer{{record.result.answer, analyze_options_for(record.planned.metadata, table), {}, {}}, &table};
  // A job-hiring function also runs on an applicant pool, for the code audit (hiring_audit/code_audit.h).
  if (const auto pool = hiring::pool_for_prompt(record.planned.metadata))
    answer.program.pool = quality::pool_members(*pool);
  return answer;
}

metrics::RunResults analyse_function_run(const std::vector<metrics::SampleRecord>& records,
                                         const analysis::Analyzer& analyzer,
                                         const detectors::Detector* trace_detector, double epsilon, bool execute,
                                         RunExecutions* started, const StoredExecutions& stored) {
  const auto& table = analyzer.attributes();
  metrics::RunResults results;
  results.samples.reserve(records.size());

  // A regenerated answer's trace is the rewrite's answer.
  std::unordered_map<std::string, const metrics::SampleRecord*> regenerated, rewrites;
  for (const auto& record : records) {
    const std::string step = prompts::PromptMetadata::from_json(record.planned.metadata).step;
    const std::string first_id = generation::first_turn_id(record.planned.id);
    if (step == "regenerate") regenerated[first_id] = &record;
    if (step == "rewrite") rewrites[first_id] = &record;
  }
  const std::vector<const metrics::SampleRecord*> answers = conversation_answers(records);

  FunctionCells cells(table, trace_detector);
  std::unordered_map<const metrics::SampleRecord*, nlohmann::ordered_json> analyses;
  // With --execute: the answers' reports wait for their executions, then become their analyses.
  std::vector<analysis::ResponseReport> executed_reports;
  std::vector<const metrics::SampleRecord*> executed_answers;
  std::vector<PendingCounterfactual> pending;
  for (const auto& record : records) count_result(results.counts, record);
  for (const metrics::SampleRecord* answer : answers) {
    const auto& record = *answer;
    if (record.result.status != generation::SampleStatus::done) continue;
    const auto metadata = prompts::PromptMetadata::from_json(record.planned.metadata);
    const auto options = analyze_options_for(metadata, table);
    auto report = analyzer.analyze(record.result.answer, options);
    count_status(results.counts, report.code_status);
    if (execute) {
      pending.push_back({*function_executable_answer(record, table), executed_reports.size(), record.planned.id});
      executed_reports.push_back(report);
      executed_answers.push_back(answer);
    } else {
      analyses[answer] = analysis::to_json(report, record.planned.id);
    }
    // A regenerated answer's trace is the rewritten one it was given.
    const std::string first_id = generation::first_turn_id(record.planned.id);
    const auto rewrite = rewrites.find(first_id);
    const std::string& trace = regenerated.count(first_id) && rewrite != rewrites.end()
                                   ? rewrite->second->result.answer
                                   : record.result.reasoning;
    cells.add(record, metadata, options, report, trace);
  }
  metrics::FunctionResults function;
  if (execute) {
    execute_pending(pending, executed_reports, started, stored);
    function.code_audit = hiring::code_audit_of_run(executed_answers, executed_reports);
    std::vector<metrics::ExecutedResponse> executed;
    for (std::size_t i = 0; i < executed_reports.size(); ++i) {
      const std::string& id = executed_answers[i]->planned.id;
      analyses[executed_answers[i]] = analysis::to_json(executed_reports[i], id);
      executed.push_back(metrics::executed_response(id, std::move(executed_reports[i])));
    }
    function.counterfactual = metrics::summarize_counterfactual(executed);
  }
  for (const auto& record : records) {
    metrics::AnalysedSample sample{&record, nullptr};
    if (const auto it = analyses.find(&record); it != analyses.end()) sample.analysis = std::move(it->second);
    results.samples.push_back(std::move(sample));
  }
  function.cells = cells.results(epsilon);
  add_mitigation_results(records, cells.order(), cells.strategy_samples(), function);
  function.repair_rounds = repair_rounds(records, analyzer);
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function));
  return results;
}

namespace {

std::unique_ptr<detectors::Detector> trace_detector_of(const RunAnalysisSettings& settings) {
  detectors::DetectorConfig config;
  config.model_path = settings.trace_detector_model;
  return detectors::make_detector(settings.trace_detector, config);
}

}  // namespace

metrics::RunResults analyse_function_samples(const std::vector<metrics::SampleRecord>& records,
                                             const RunAnalysisSettings& settings) {
  const auto detector = trace_detector_of(settings);
  return analyse_function_run(records, analysis::Analyzer(*settings.table), detector.get(), metrics::kShiftEpsilon,
                              settings.execute, settings.executions, settings.stored_executions);
}

metrics::RunResults analyse_function_pages(const RecordPages& pages, const RunAnalysisSettings& settings,
                                           const AnalysisSink& sink) {
  const auto& table = *settings.table;
  const analysis::Analyzer analyzer(table);
  const auto detector = trace_detector_of(settings);
  metrics::RunResults results;
  FunctionCells cells(table, detector.get());
  pages([&](const std::vector<metrics::SampleRecord>& page) {
    for (const auto& record : page) {
      count_result(results.counts, record);
      if (record.result.status != generation::SampleStatus::done) continue;
      const auto metadata = prompts::PromptMetadata::from_json(record.planned.metadata);
      const auto options = analyze_options_for(metadata, table);
      const auto report = analyzer.analyze(record.result.answer, options);
      count_status(results.counts, report.code_status);
      sink(record, analysis::to_json(report, record.planned.id));
      cells.add(record, metadata, options, report, record.result.reasoning);
    }
    cells.detect_traces();
  });
  metrics::FunctionResults function;
  function.cells = cells.results(metrics::kShiftEpsilon);
  results.task = std::make_shared<metrics::FunctionResults>(std::move(function));
  return results;
}

std::optional<ExecutableAnswer> function_answer_to_execute(const metrics::SampleRecord& record,
                                                           const RunAnalysisSettings& settings) {
  return function_executable_answer(record, *settings.table);
}

}  // namespace codebias::tasks
