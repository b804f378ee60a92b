#include "run/follow_ups.h"

#include <stdexcept>
#include <unordered_set>

#include "prompts/prompt_metadata.h"

namespace codebias::run {

generation::PlannedSample follow_up_sample(const metrics::SampleRecord& record, const tasks::NextTurn& turn) {
  const auto& planned = record.planned;
  const auto messages = planned.body.find("messages");
  if (messages == planned.body.end() || !messages->is_array()) {
    throw std::invalid_argument("sample " + planned.id + " has no chat messages to continue");
  }
  generation::PlannedSample sample = planned;
  sample.metadata.update(turn.metadata);
  auto metadata = prompts::PromptMetadata::from_json(sample.metadata);
  const int next = metadata.turn_number() + 1;
  sample.id = generation::turn_id(planned.id, next);
  metadata.turn = next;
  metadata.extra["follows"] = planned.id;
  sample.metadata = metadata.to_json();
  auto& conversation = sample.body["messages"];
  conversation.push_back({{"role", "assistant"}, {"content", record.result.answer}});
  conversation.push_back({{"role", "user"}, {"content", turn.user_message}});
  // The built-in model reads the metadata from the body (run.cpp, plan_samples); a real
  // endpoint's body carries none.
  if (sample.body.contains("metadata")) {
    metadata.configuration = nullptr;  // the run's, not the prompt's
    sample.body["metadata"] = metadata.to_json();
  }
  return sample;
}

std::vector<generation::PlannedSample> unplanned_follow_ups(const std::vector<metrics::SampleRecord>& records,
                                                            const tasks::Task& task) {
  std::vector<generation::PlannedSample> samples;
  if (task.next_turn == nullptr) return samples;
  std::unordered_set<std::string> planned;
  for (const auto& record : records) planned.insert(record.planned.id);
  for (const auto& record : records) {
    if (record.result.status != generation::SampleStatus::done) continue;
    if (planned.count(generation::turn_id(record.planned.id, generation::turn_of(record.planned.metadata) + 1)) != 0)
      continue;
    if (const auto turn = task.next_turn(record.planned, record.result)) samples.push_back(follow_up_sample(record, *turn));
  }
  return samples;
}

}  // namespace codebias::run
