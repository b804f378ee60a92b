#include "run/mitigation_steps.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "analysis/analyzer.h"
#include "base/json_fields.h"
#include "base/strings.h"
#include "detectors/registry.h"
#include "prompts/mitigation_prompts.h"
#include "prompts/prompt_metadata.h"
#include "run/follow_ups.h"
#include "tasks/run_analysis.h"

namespace codebias::run {
namespace {

using nlohmann::json;

const prompts::MitigationStrategy* strategy_of(const generation::PlannedSample& planned,
                                               prompts::MitigationStrategy::Kind kind) {
  const auto metadata = prompts::PromptMetadata::from_json(planned.metadata);
  const auto* strategy = prompts::find_mitigation_strategy(base::string_or_empty(metadata.configuration, "mitigation"));
  return strategy && strategy->kind == kind ? strategy : nullptr;
}

const prompts::MitigationStrategy* rewrite_strategy(const generation::PlannedSample& planned) {
  return strategy_of(planned, prompts::MitigationStrategy::Kind::rewrite);
}

// The feedback turn after a repair strategy's answer whose code the analyzer finds biased, while
// rounds are left; nullopt otherwise.
std::optional<tasks::NextTurn> repair_turn(const metrics::SampleRecord& record, const prompts::MitigationStrategy& strategy) {
  const int round = record.planned.metadata.value("round", 0);
  if (round >= strategy.rounds) return std::nullopt;
  static const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  const auto report =
      analyzer.analyze(record.result.answer, tasks::analyze_options_for(record.planned.metadata, analyzer.attributes()));
  if (report.code_status != analysis::CodeStatus::ok) return std::nullopt;
  std::vector<std::string> keys;
  std::string attributes, findings;
  for (const auto& finding : report.attributes) {
    if (!finding.biased) continue;
    keys.push_back(finding.attribute);
    std::string name = finding.attribute;  // "parents_degree" -> "parents degree"
    std::replace(name.begin(), name.end(), '_', ' ');
    attributes += (attributes.empty() ? "" : " and ") + name;
    std::string points;
    if (finding.scores)
      for (const auto& [group, value] : *finding.scores)
        points += (points.empty() ? "" : ", ") + group + " " + base::short_number(value);
    findings += (findings.empty() ? "" : "; ") + name + ": " + (points.empty() ? "groups scored differently" : points);
  }
  if (keys.empty()) return std::nullopt;
  tasks::NextTurn turn;
  turn.user_message = prompts::repair_request(strategy, attributes, findings);
  turn.metadata = {{"step", "repair"}, {"round", round + 1}, {"repair_attributes", keys}};
  return turn;
}

// The next step of `first`'s conversation: its id, metadata and (the built-in model reads it)
// the body's metadata; the caller sets the body's messages.
generation::PlannedSample next_step(const generation::PlannedSample& first, const std::string& follows, int turn,
                                    const char* step) {
  generation::PlannedSample sample = first;
  sample.id = generation::turn_id(first.id, turn);
  auto metadata = prompts::PromptMetadata::from_json(first.metadata);
  metadata.turn = turn;
  metadata.step = step;
  metadata.extra["follows"] = follows;
  sample.metadata = metadata.to_json();
  return sample;
}

void sync_body_metadata(generation::PlannedSample& sample) {
  if (!sample.body.contains("metadata")) return;
  auto metadata = prompts::PromptMetadata::from_json(sample.metadata);
  metadata.configuration = nullptr;  // the run's, not the prompt's
  sample.body["metadata"] = metadata.to_json();
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") + 1 - first);
}

}  // namespace

std::string prefilled_think_block(const std::string& trace) { return "<think>\n" + trace + "\n</think>\n\n"; }

std::vector<generation::PlannedSample> unplanned_mitigation_steps(const std::vector<metrics::SampleRecord>& records,
                                                                  const RunOptions& options) {
  std::unordered_set<std::string> planned;
  std::unordered_map<std::string, const metrics::SampleRecord*> first_turns;
  for (const auto& record : records) {
    planned.insert(record.planned.id);
    if (prompts::PromptMetadata::from_json(record.planned.metadata).step.empty())
      first_turns[record.planned.id] = &record;
  }
  std::vector<generation::PlannedSample> steps;
  std::vector<const metrics::SampleRecord*> to_check;  // first answers whose trace decides
  std::vector<detectors::Trace> traces;
  for (const auto& record : records) {
    if (record.result.status != generation::SampleStatus::done) continue;
    const auto metadata = prompts::PromptMetadata::from_json(record.planned.metadata);
    const std::string& step = metadata.step;
    if (const auto* repair = strategy_of(record.planned, prompts::MitigationStrategy::Kind::repair)) {
      const int turn = metadata.turn_number();
      if (planned.count(generation::turn_id(record.planned.id, turn + 1))) continue;
      if (const auto next = repair_turn(record, *repair)) steps.push_back(follow_up_sample(record, *next));
      continue;
    }
    const auto* strategy = rewrite_strategy(record.planned);
    if (strategy == nullptr) continue;
    if (step.empty()) {
      if (planned.count(generation::turn_id(record.planned.id, 2)) || record.result.reasoning.empty()) continue;
      to_check.push_back(&record);
      traces.push_back({record.planned.id, record.result.reasoning, metadata.scenario, {}});
      if (!metadata.attribute.empty()) traces.back().attributes = {metadata.attribute};
    } else if (step == "rewrite") {
      if (planned.count(generation::turn_id(record.planned.id, 3))) continue;
      const std::string rewritten = trimmed(record.result.answer);
      const auto first = first_turns.find(generation::first_turn_id(record.planned.id));
      if (rewritten.empty() || first == first_turns.end()) continue;  // the first answer stands
      generation::PlannedSample sample = next_step(first->second->planned, record.planned.id, 3, "regenerate");
      sample.body["messages"].push_back({{"role", "assistant"}, {"content", prefilled_think_block(rewritten)}});
      sample.body["continue_final_message"] = true;
      sample.body["add_generation_prompt"] = false;  // both engines' default is true; with it the prefill is ignored
      sync_body_metadata(sample);
      steps.push_back(std::move(sample));
    }
  }
  if (traces.empty()) return steps;
  detectors::DetectorConfig config;
  config.model_path = options.trace_detector_model.string();
  const auto detector = detectors::make_detector(options.trace_detector, config);
  const std::vector<detectors::Verdict> verdicts = detector->detect_all(traces);
  for (std::size_t i = 0; i < to_check.size(); ++i) {
    if (!verdicts[i].biased) continue;
    const auto& first = to_check[i]->planned;
    generation::PlannedSample sample = next_step(first, first.id, 2, "rewrite");
    auto metadata = prompts::PromptMetadata::from_json(sample.metadata);
    metadata.mitigation = rewrite_strategy(first)->name;
    metadata.extra["detector"] = std::string(detector->name());
    metadata.extra["detector_score"] = verdicts[i].score;
    metadata.extra["detector_biased_attributes"] = verdicts[i].biased_attributes;
    sample.metadata = metadata.to_json();
    sample.body["messages"] = json::array(
        {{{"role", "user"}, {"content", prompts::rewrite_request(*rewrite_strategy(first), to_check[i]->result.reasoning)}}});
    sync_body_metadata(sample);
    if (!options.rewrite_endpoint.empty()) {
      // Another model rewrites: its name, and none of the built-in model's metadata.
      sample.body["model"] = options.rewrite_model;
      sample.body.erase("metadata");
    }
    steps.push_back(std::move(sample));
  }
  return steps;
}

}  // namespace codebias::run
