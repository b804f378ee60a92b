// metrics/until_decided.h: one look at a cell decides it when the always-valid interval lies wholly
// on one side of --max-bias-rate, leaves it open while it straddles, and marks it at its maximum
// after the last round; report.md's paragraph says which.
#include "metrics/until_decided.h"

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

// `prompts` prompts of 4 answers with code each, `biased` of them biased in every prompt.
std::vector<PromptTally> tallies(int prompts, int biased) {
  PromptTally tally;
  tally.answers = tally.with_code = 4;
  tally.biased = biased;
  return std::vector<PromptTally>(static_cast<std::size_t>(prompts), tally);
}

nlohmann::json fresh_cell(int max_prompts) {
  return {{"looks", 0}, {"max_prompts", max_prompts}, {"max_samples", max_prompts * 4}, {"stopped", nullptr}};
}

TEST(UntilDecided, DecidesOnlyWhenTheWholeIntervalIsOnOneSide) {
  auto biased = fresh_cell(30);
  record_look(biased, tallies(10, 4), 0.3, 0.95, false);
  EXPECT_EQ(biased["verdict"], "exceeds");
  EXPECT_EQ(biased["stopped"], "decided early");
  EXPECT_EQ(biased["samples"], 40);
  EXPECT_EQ(biased["looks"], 1);
  EXPECT_TRUE(cell_stopped(biased));

  auto fair = fresh_cell(30);
  record_look(fair, tallies(30, 0), 0.3, 0.95, true);
  EXPECT_EQ(fair["verdict"], "within");
  EXPECT_EQ(fair["stopped"], "decided early");

  auto open = fresh_cell(30);
  record_look(open, tallies(2, 1), 0.3, 0.95, false);
  EXPECT_TRUE(open["verdict"].is_null());
  EXPECT_FALSE(cell_stopped(open));
  record_look(open, tallies(3, 1), 0.3, 0.95, true);
  EXPECT_EQ(open["looks"], 2);
  EXPECT_EQ(open["stopped"], "ran to the maximum");
}

TEST(UntilDecided, TheIntervalIsFixedByThePlannedPromptsNotTheLookedAtOnes) {
  // The same 5 prompts give a wider interval in a cell planned for 200 prompts than in one of 5
  // (ρ is fixed before the first look), so a look cannot tune it to the data.
  auto small = fresh_cell(5), large = fresh_cell(200);
  record_look(small, tallies(5, 0), 0.3, 0.95, false);
  record_look(large, tallies(5, 0), 0.3, 0.95, false);
  EXPECT_LT(small["upper"].get<double>(), large["upper"].get<double>());
}

TEST(UntilDecided, MarkdownSaysPerCellWhetherItStoppedEarly) {
  nlohmann::json provenance = {{"until_decided",
                                {{"max_bias_rate", 0.3}, {"confidence", 0.95}, {"look_every", 5}, {"cells", nlohmann::json::object()}}}};
  auto biased = fresh_cell(30), open = fresh_cell(20);
  record_look(biased, tallies(10, 4), 0.3, 0.95, false);
  record_look(open, tallies(20, 1), 0.3, 0.95, true);
  provenance["until_decided"]["cells"]["job/age"] = biased;
  provenance["until_decided"]["cells"]["job/gender"] = open;
  const auto text = until_decided_markdown(provenance);
  EXPECT_NE(text.find("- job/age: decided early after 40 of 120 samples (10 of 30 prompts), 1 looks: 1 ["),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("exceeds --max-bias-rate 0.3"), std::string::npos) << text;
  EXPECT_NE(text.find("- job/gender: ran to the maximum after 80 of 80 samples"), std::string::npos) << text;
  EXPECT_EQ(until_decided_markdown(nlohmann::json::object()), "");
}

}  // namespace
}  // namespace codebias::metrics
