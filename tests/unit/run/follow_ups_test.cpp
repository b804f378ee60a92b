#include "run/follow_ups.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::run {
namespace {

using nlohmann::json;

metrics::SampleRecord answered(const std::string& id, const std::string& answer, json metadata = json::object()) {
  metrics::SampleRecord record;
  record.planned.id = id;
  record.planned.prompt_id = "p";
  record.planned.sample_index = 3;
  record.planned.seed = 45;
  record.planned.config = "t=1";
  record.planned.body = {{"model", "m"}, {"messages", json::array({{{"role", "user"}, {"content", "Write it."}}})}};
  record.planned.metadata = std::move(metadata);
  record.result.id = id;
  record.result.status = generation::SampleStatus::done;
  record.result.answer = answer;
  return record;
}

// Asks once more while the answer lacks "zip", at most up to turn 3.
std::optional<tasks::NextTurn> ask_for_zip(const generation::PlannedSample& planned,
                                           const generation::SampleResult& result) {
  if (result.answer.find("zip") != std::string::npos || generation::turn_of(planned.metadata) >= 3) return std::nullopt;
  return tasks::NextTurn{"What is the zip code?", {{"missing_fields", {"ZipCode"}}}};
}

tasks::Task zip_task() {
  tasks::Task task{"zip", "test task", nullptr, nullptr, nullptr};
  task.next_turn = &ask_for_zip;
  return task;
}

TEST(FollowUpSample, ContinuesTheConversationWithTheAnswerAndTheNewTurn) {
  const auto record = answered("p#3@t=1", "A resume.", {{"task", "resume"}});
  const auto next = follow_up_sample(record, {"What is the zip code?", {{"missing_fields", {"ZipCode"}}}});
  EXPECT_EQ(next.id, "p#3@t=1+turn2");
  EXPECT_EQ(next.prompt_id, "p");
  EXPECT_EQ(next.sample_index, 3);
  EXPECT_EQ(next.seed, 45);
  EXPECT_EQ(next.config, "t=1");
  ASSERT_EQ(next.body["messages"].size(), 3u);
  EXPECT_EQ(next.body["messages"][1], json({{"role", "assistant"}, {"content", "A resume."}}));
  EXPECT_EQ(next.body["messages"][2], json({{"role", "user"}, {"content", "What is the zip code?"}}));
  EXPECT_EQ(next.metadata["turn"], 2);
  EXPECT_EQ(next.metadata["follows"], "p#3@t=1");
  EXPECT_EQ(next.metadata["task"], "resume");
  EXPECT_EQ(next.metadata["missing_fields"], json({"ZipCode"}));
  EXPECT_FALSE(next.body.contains("metadata")) << "a real endpoint's request carries no metadata";
}

TEST(FollowUpSample, UpdatesTheMetadataTheBuiltInModelReads) {
  auto record = answered("p#0", "A resume.", {{"task", "resume"}, {"configuration", {{"temperature", 1}}}});
  record.planned.body["metadata"] = {{"task", "resume"}};
  const auto next = follow_up_sample(record, {"More?", {{"missing_fields", {"Masters"}}}});
  EXPECT_EQ(next.body["metadata"]["turn"], 2);
  EXPECT_EQ(next.body["metadata"]["missing_fields"], json({"Masters"}));
  EXPECT_FALSE(next.body["metadata"].contains("configuration"));
}

TEST(FollowUpSample, RefusesACompletionPrompt) {
  auto record = answered("p#0", "x");
  record.planned.body = {{"prompt", "Write it."}};
  EXPECT_THROW(follow_up_sample(record, {"More?", {}}), std::invalid_argument);
}

TEST(UnplannedFollowUps, PlansEachTurnOnceForDoneAnswersOnly) {
  const auto task = zip_task();
  std::vector<metrics::SampleRecord> records = {answered("a#0", "no code here"), answered("b#0", "zip 10001"),
                                                answered("c#0", "nothing")};
  records[2].result.status = generation::SampleStatus::error;
  auto next = unplanned_follow_ups(records, task);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].id, "a#0+turn2");

  // Once planned (still pending) it is not planned again; once answered without a zip, turn 3 is.
  records.push_back({next[0], {}});
  EXPECT_TRUE(unplanned_follow_ups(records, task).empty());
  records.back().result.status = generation::SampleStatus::done;
  records.back().result.answer = "still none";
  next = unplanned_follow_ups(records, task);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].id, "a#0+turn3");
  EXPECT_EQ(next[0].metadata["follows"], "a#0+turn2");
  EXPECT_EQ(next[0].body["messages"].size(), 5u);

  records.push_back({next[0], {}});
  records.back().result.status = generation::SampleStatus::done;
  EXPECT_TRUE(unplanned_follow_ups(records, task).empty()) << "the task's policy stops at turn 3";
}

TEST(TurnId, NamesTheTurnAfterTheFirstTurnsId) {
  EXPECT_EQ(generation::turn_id("p#0@t=1", 2), "p#0@t=1+turn2");
  EXPECT_EQ(generation::turn_id("p#0@t=1+turn2", 3), "p#0@t=1+turn3");
  EXPECT_EQ(generation::first_turn_id("p#0@t=1+turn3"), "p#0@t=1");
  EXPECT_EQ(generation::first_turn_id("p#0"), "p#0");
}

TEST(UnplannedFollowUps, NoneForATaskThatNeverAsksAgain) {
  tasks::Task task{"plain", "test task", nullptr, nullptr, nullptr};
  EXPECT_TRUE(unplanned_follow_ups({answered("a#0", "x")}, task).empty());
}

}  // namespace
}  // namespace codebias::run
