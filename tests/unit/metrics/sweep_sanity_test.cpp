// Sweep sanity: configurations whose answers are byte-identical are flagged, and the pooled
// answers are counted with their distinct ones.
#include "metrics/sweep_sanity.h"

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

SampleRecord answered(const std::string& prompt, int sample, const std::string& config, const std::string& answer) {
  SampleRecord record;
  record.planned.prompt_id = prompt;
  record.planned.sample_index = sample;
  record.planned.config = config;
  record.result.status = generation::SampleStatus::done;
  record.result.answer = answer;
  return record;
}

RunResults results_of(const std::vector<SampleRecord>& records) {
  RunResults results;
  for (const auto& record : records) results.samples.push_back({&record, nullptr});
  return results;
}

TEST(SweepSanity, ConfigurationsWithTheSameAnswersAreFlaggedAndCountedOnce) {
  std::vector<SampleRecord> records;
  for (const std::string config : {"t=0", "t=0.7", "t=1"}) {
    records.push_back(answered("p1", 0, config, "A"));
    records.push_back(answered("p1", 1, config, config == "t=1" ? "C" : "B"));
  }
  const SweepSanity sanity = check_sweep(results_of(records));
  EXPECT_EQ(sanity.configurations, 3u);
  ASSERT_EQ(sanity.identical.size(), 1u);
  EXPECT_EQ(sanity.identical[0], (std::vector<std::string>{"t=0", "t=0.7"}));
  EXPECT_EQ(sanity.answers, 6u);
  EXPECT_EQ(sanity.distinct_answers, 3u);  // p1#0 "A", p1#1 "B", p1#1 "C"
  const std::string note = identical_configurations_note(sanity);
  EXPECT_NE(note.find("t=0, t=0.7"), std::string::npos) << note;
  EXPECT_NE(note.find("3 distinct answers of 6"), std::string::npos) << note;
  EXPECT_EQ(to_json(sanity)["identical_configurations"].dump(), R"([["t=0","t=0.7"]])");
}

TEST(SweepSanity, DifferentAnswersOrOneConfigurationFlagNothing) {
  std::vector<SampleRecord> records = {answered("p1", 0, "t=0", "A"), answered("p1", 0, "t=1", "B")};
  EXPECT_TRUE(check_sweep(results_of(records)).identical.empty());
  records = {answered("p1", 0, "", "A"), answered("p2", 0, "", "A")};
  const SweepSanity single = check_sweep(results_of(records));
  EXPECT_EQ(single.configurations, 1u);
  EXPECT_TRUE(single.identical.empty());
  EXPECT_EQ(identical_configurations_note(single), "");
}

}  // namespace
}  // namespace codebias::metrics
