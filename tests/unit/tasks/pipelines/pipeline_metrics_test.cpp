// CBS, irrelevant retention, selective retention and the paired pipeline-vs-conditional tests
// over hand-made answers whose counts are known.
#include "tasks/pipelines/pipeline_metrics.h"

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

PipelineAnswer answer(const std::string& path, int variant, std::optional<bool> race, std::optional<bool> color,
                      bool with_code = true) {
  PipelineAnswer a;
  a.prompt_id = "german_credit/" + path + "/v" + std::to_string(variant);
  a.dataset = "german_credit";
  a.path = path;
  a.level = path == kPipelinePath ? "full" : "";
  a.mitigation = "none";
  a.attribute_set = "all";
  a.variant = variant;
  a.with_code = with_code;
  a.attributes = {{"race", "sensitive", race}, {"favorite_color", "irrelevant", color}};
  return a;
}

const RetentionCell& cell_of(const PipelineMetrics& m, const std::string& path, const std::string& attribute) {
  for (const auto& cell : m.cells) {
    if (cell.path == path && cell.attribute == attribute) return cell;
  }
  throw std::runtime_error("no cell " + path + "/" + attribute);
}

TEST(PipelineMetrics, CbsCountsOnlyAnswersWithCodeAndADecidedUse) {
  const auto m = compute_pipeline_metrics({answer(kPipelinePath, 0, true, false), answer(kPipelinePath, 1, true, true),
                                           answer(kPipelinePath, 2, false, false),
                                           answer(kPipelinePath, 3, std::nullopt, false),
                                           answer(kPipelinePath, 4, true, false, /*with_code=*/false)});
  const auto& race = cell_of(m, kPipelinePath, "race");
  EXPECT_EQ(race.n_answers, 5);
  EXPECT_EQ(race.n_with_code, 4);
  EXPECT_EQ(race.n_decided, 3);
  EXPECT_EQ(race.n_used, 2);
  EXPECT_DOUBLE_EQ(*race.retention, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(*retention_metric_value(race, "cbs"), 2.0 / 3.0);
  EXPECT_FALSE(retention_metric_value(race, "irrelevant_retention"));
  // Kept race while dropping the colour: variant 0 only, of the three with both decided.
  EXPECT_EQ(race.n_selective_decided, 3);
  EXPECT_EQ(race.n_selective, 1);
  const auto* interval = find_interval(race.intervals, "cbs");
  ASSERT_NE(interval, nullptr);
  EXPECT_LE(interval->lower, 2.0 / 3.0);
  EXPECT_GE(interval->upper, 2.0 / 3.0);

  const auto& color = cell_of(m, kPipelinePath, "favorite_color");
  EXPECT_EQ(color.n_decided, 4);
  EXPECT_DOUBLE_EQ(*retention_metric_value(color, "irrelevant_retention"), 0.25);
  EXPECT_FALSE(color.selective_retention);
}

TEST(PipelineMetrics, PairsVariantsAcrossPathsAndCountsCombinationsMoreBiasedAsPipelines) {
  std::vector<PipelineAnswer> answers;
  for (int v = 0; v < 12; ++v) {
    answers.push_back(answer(kConditionalPath, v, v < 2, false));  // 2 of 12
    answers.push_back(answer(kPipelinePath, v, v < 11, false));    // 11 of 12
  }
  const auto m = compute_pipeline_metrics(answers);
  ASSERT_EQ(m.comparisons.size(), 1u);
  const auto& c = m.comparisons[0];
  EXPECT_EQ(c.n_pairs, 12);
  EXPECT_DOUBLE_EQ(*c.cbs_conditional, 2.0 / 12.0);
  EXPECT_DOUBLE_EQ(*c.cbs_pipeline, 11.0 / 12.0);
  EXPECT_DOUBLE_EQ(*c.difference, 9.0 / 12.0);
  EXPECT_EQ(c.mcnemar.b, 0);  // used in the conditional only
  EXPECT_EQ(c.mcnemar.c, 9);  // used in the pipeline only
  EXPECT_LT(c.p_holm, 0.05);
  EXPECT_TRUE(c.significant);
  EXPECT_EQ(m.n_combinations, 1);
  EXPECT_EQ(m.n_pipeline_more_biased, 1);
  EXPECT_EQ(m.n_pipeline_more_biased_significant, 1);

  ASSERT_EQ(m.paths.size(), 2u);
  EXPECT_EQ(m.paths[0].path, kConditionalPath);
  EXPECT_EQ(m.paths[1].n_used, 11);
  ASSERT_EQ(m.by_level.size(), 2u);  // the conditional path (no level) and full
}

TEST(PipelineMetrics, AnUndecidedOrCodelessPartnerMakesNoPair) {
  const auto m = compute_pipeline_metrics({answer(kConditionalPath, 0, std::nullopt, false),
                                           answer(kPipelinePath, 0, true, false),
                                           answer(kConditionalPath, 1, true, false, /*with_code=*/false),
                                           answer(kPipelinePath, 1, true, false)});
  ASSERT_EQ(m.comparisons.size(), 1u);
  EXPECT_EQ(m.comparisons[0].n_pairs, 0);
  EXPECT_EQ(m.n_combinations, 0);
  EXPECT_FALSE(m.comparisons[0].cbs_pipeline);
}

}  // namespace
}  // namespace codebias::metrics
