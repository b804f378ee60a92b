// `codebias compare` on runs of the built-in model with a planted difference in bias level.
#include "reports/compare.h"

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "run/load_run.h"

namespace codebias::reports {
namespace {

using metrics::CellComparison;
using metrics::compare_runs;
using metrics::CompareOptions;
using metrics::NoSharedPrompts;
using metrics::RunComparison;

const CellComparison& cell_of(const RunComparison& comparison, const std::string& label) {
  for (const auto& cell : comparison.cells) {
    if (cell.label() == label) return cell;
  }
  throw std::runtime_error("no cell " + label);
}

TEST(CompareRuns, PlantedBiasDifferenceIsSignificant) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.low_age_seed1);
  const auto comparison = compare_runs(a, b);

  EXPECT_TRUE(comparison.warnings.empty());
  EXPECT_EQ(comparison.prompts_shared, comparison.prompts_a);
  const auto& age = cell_of(comparison, "job/age");
  // 3 age groups × 10 occupations, 5 samples each.
  EXPECT_EQ(age.prompts_paired, 30);
  ASSERT_TRUE(age.metrics_a.bias_rate && age.metrics_b.bias_rate);
  // Planted 0.6 against 0.1; the analyzer measures what the simulated code does.
  EXPECT_GT(*age.metrics_a.bias_rate, 0.4);
  EXPECT_LT(*age.metrics_b.bias_rate, 0.25);
  EXPECT_TRUE(age.significant);
  EXPECT_FALSE(age.b_worse());  // B is the less biased run
  ASSERT_TRUE(age.wilcoxon_p_holm && age.mcnemar_p_holm);
  EXPECT_LT(*age.wilcoxon_p_holm, 0.05);
  EXPECT_LT(*age.mcnemar_p_holm, 0.05);
  // Holm never lowers a p-value.
  EXPECT_GE(*age.wilcoxon_p_holm, age.wilcoxon->p_value);
  ASSERT_TRUE(age.cliffs_delta);
  EXPECT_LT(age.cliffs_delta->delta, -0.474);  // B's per-prompt rates lie well below A's
  EXPECT_EQ(age.cliffs_delta->magnitude, stats::EffectMagnitude::large);
  ASSERT_TRUE(age.bias_rate_difference);
  EXPECT_NEAR(age.bias_rate_difference->estimate, *age.metrics_b.bias_rate - *age.metrics_a.bias_rate, 1e-12);
  EXPECT_LT(age.bias_rate_difference->upper, 0);  // the interval excludes no difference
  ASSERT_TRUE(age.bias_rate_a && age.bias_rate_b);
  EXPECT_LE(age.bias_rate_a->lower, age.bias_rate_a->estimate);
  EXPECT_GE(age.bias_rate_a->upper, age.bias_rate_a->estimate);
  EXPECT_LT(age.bias_rate_b->upper, age.bias_rate_a->lower);

  // Gender had the same planted level in both runs: not significant after Holm.
  const auto& gender = cell_of(comparison, "job/gender");
  EXPECT_FALSE(gender.significant);
}

TEST(CompareRuns, SameProfileDifferentSeedIsNotSignificant) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.default_seed2);
  const auto comparison = compare_runs(a, b);
  for (const auto& cell : comparison.cells) {
    SCOPED_TRACE(cell.label());
    EXPECT_GT(cell.prompts_paired, 0);
    EXPECT_TRUE(cell.wilcoxon.has_value());
    EXPECT_FALSE(cell.significant);
  }
  // The seeds did change the answers: there is something to test.
  const auto& age = cell_of(comparison, "job/age");
  ASSERT_TRUE(age.mcnemar);
  EXPECT_GT(age.mcnemar->b + age.mcnemar->c, 0);
}

TEST(CompareRuns, PairedMetricsOverAllPromptsEqualTheRunsOwnCells) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.default_seed2);
  const auto comparison = compare_runs(a, b);
  ASSERT_EQ(comparison.cells.size(), a.results.function_cells().size());
  for (std::size_t i = 0; i < a.results.function_cells().size(); ++i) {
    const auto& own_a = a.results.function_cells()[i].metrics;
    const auto& own_b = b.results.function_cells()[i].metrics;
    const auto& cell = comparison.cells[i];
    SCOPED_TRACE(cell.label());
    EXPECT_EQ(cell.metrics_a.n_with_code, own_a.n_with_code);
    EXPECT_EQ(cell.metrics_a.n_biased, own_a.n_biased);
    EXPECT_EQ(cell.metrics_b.n_biased, own_b.n_biased);
    EXPECT_EQ(cell.metrics_a.bias_rate, own_a.bias_rate);
    EXPECT_EQ(cell.metrics_a.fairscore, own_a.fairscore);
    // The bootstrap's estimate is the statistic on the data: the cell's own BR and FairScore.
    ASSERT_TRUE(cell.bias_rate_a && cell.fairscore_a);
    EXPECT_NEAR(cell.bias_rate_a->estimate, *own_a.bias_rate, 1e-12);
    EXPECT_NEAR(cell.fairscore_a->estimate, *own_a.fairscore, 1e-12);
  }
}

TEST(CompareRuns, RunAgainstItselfHasNoDifference) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.default_seed1);
  const auto comparison = compare_runs(a, b);
  for (const auto& cell : comparison.cells) {
    SCOPED_TRACE(cell.label());
    ASSERT_TRUE(cell.wilcoxon && cell.mcnemar && cell.cliffs_delta && cell.bias_rate_difference);
    EXPECT_EQ(cell.wilcoxon->method, stats::WilcoxonMethod::no_differences);
    EXPECT_EQ(cell.mcnemar->method, stats::McNemarMethod::no_discordance);
    EXPECT_DOUBLE_EQ(cell.wilcoxon->p_value, 1.0);
    EXPECT_DOUBLE_EQ(cell.cliffs_delta->delta, 0.0);
    EXPECT_DOUBLE_EQ(cell.bias_rate_difference->lower, 0.0);
    EXPECT_DOUBLE_EQ(cell.bias_rate_difference->upper, 0.0);
    EXPECT_FALSE(cell.significant);
    // Identical vote rows: X² = 0.
    if (cell.votes_chi_squared) {
      EXPECT_NEAR(cell.votes_chi_squared->statistic, 0.0, 1e-12);
    }
  }
}

TEST(CompareRuns, BlockOutcomeTableHasOneRowPerRunAndANoPreferenceColumn) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.low_age_seed1);
  const auto comparison = compare_runs(a, b);
  const auto& age = cell_of(comparison, "job/age");
  ASSERT_TRUE(age.votes_chi_squared) << age.votes_chi_squared_note;
  EXPECT_EQ(age.votes_chi_squared->rows_used, 2u);
  // Both profiles favour "young" whenever they bias age, so only two columns hold counts:
  // young's votes and the blocks without a preference.
  EXPECT_EQ(age.metrics_a.preferred_group, "young");
  EXPECT_EQ(age.votes_chi_squared->columns_used, 2u);
  // Every block with code is counted once: the table's total is both runs' blocks.
  EXPECT_NEAR(age.votes_chi_squared->total, age.metrics_a.n_blocks + age.metrics_b.n_blocks, 1e-9);
  // Far fewer blocks prefer young at 0.1 than at 0.6.
  EXPECT_LT(age.votes_chi_squared->p_value, 0.05);
}

TEST(CompareRuns, PartialOverlapWarnsAndComparesTheSharedPrompts) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.subset);
  const auto comparison = compare_runs(a, b);
  EXPECT_EQ(comparison.prompts_shared, 6u);
  ASSERT_EQ(comparison.warnings.size(), 1u);
  EXPECT_NE(comparison.warnings[0].find("partly overlap"), std::string::npos);
  int paired = 0;
  for (const auto& cell : comparison.cells) paired += cell.prompts_paired;
  EXPECT_EQ(paired, 6);
}

TEST(CompareRuns, NoSharedPromptIsRefused) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.other_scenario);
  EXPECT_THROW(compare_runs(a, b), NoSharedPrompts);
}

TEST(CompareRuns, OptionsOutOfRangeAreRefused) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  CompareOptions options;
  options.alpha = 1;
  EXPECT_THROW(compare_runs(a, a, options), std::invalid_argument);
  options.alpha = 0.05;
  options.bootstrap.resamples = 0;
  EXPECT_THROW(compare_runs(a, a, options), std::invalid_argument);
}

TEST(CompareRuns, JsonCarriesTheTestsOfEveryCell) {
  const auto& runs = testing::planted_runs();
  const auto a = run::load_run(runs.default_seed1);
  const auto b = run::load_run(runs.low_age_seed1);
  const auto comparison = compare_runs(a, b);
  const auto json = to_json(comparison);
  ASSERT_EQ(json["cells"].size(), comparison.cells.size());
  const auto& age = json["cells"][0]["cell"] == "job/age" ? json["cells"][0] : json["cells"][1];
  EXPECT_EQ(age["significant"], true);
  EXPECT_LT(age["wilcoxon"]["p_holm"].get<double>(), 0.05);
  EXPECT_TRUE(age["mcnemar"].contains("b_biased_in_a_only"));
  EXPECT_TRUE(age["bootstrap"]["bias_rate_difference"].contains("lower"));
  EXPECT_TRUE(age["preference_votes_chi_squared"].contains("p_value"));
  EXPECT_EQ(json["difference"], "B - A");
}

}  // namespace
}  // namespace codebias::reports
