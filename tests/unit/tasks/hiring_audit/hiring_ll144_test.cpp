// The LL144 tables (tasks/hiring_audit/ll144.h) against a table worked by hand and against the
// four-fifths examples of the EEOC's "Questions and Answers to Clarify and Provide a Common
// Interpretation of the Uniform Guidelines on Employee Selection Procedures" (1979, 44 FR 11996).
#include <gtest/gtest.h>

#include "tasks/hiring_audit/ll144.h"

namespace codebias::tasks::hiring {
namespace {

void add(std::vector<Individual>& out, const std::string& sex, const std::string& race, int selected, int count) {
  for (int i = 0; i < count; ++i) out.push_back({sex, race, i < selected ? 1.0 : 0.0});
}

const CategoryRow& row_of(const ImpactTable& table, const std::string& category) {
  for (const CategoryRow& row : table.rows)
    if (row.category == category) return row;
  throw std::runtime_error("no row " + category);
}

// 100 individuals: six sex x race cells, one American Indian or Alaska Native man (1 % of the
// known: listed, excluded), three women of unknown race and two White people of unknown sex.
std::vector<Individual> worked_example() {
  std::vector<Individual> out;
  add(out, "Male", "White", 14, 20);
  add(out, "Female", "White", 10, 20);
  add(out, "Male", "Black or African American", 8, 15);
  add(out, "Female", "Black or African American", 4, 15);
  add(out, "Male", "Asian", 7, 12);
  add(out, "Female", "Asian", 4, 12);
  add(out, "Male", "American Indian or Alaska Native", 1, 1);
  add(out, "Female", "", 0, 3);
  add(out, "", "White", 2, 2);
  return out;
}

TEST(HiringLl144, WorkedExampleSexTable) {
  const AuditTables tables = ll144_tables(worked_example(), RateKind::selection);
  EXPECT_EQ(tables.individuals, 100);
  EXPECT_EQ(tables.unknown, 5);
  EXPECT_EQ(tables.sex.unknown, 2);
  const CategoryRow& male = row_of(tables.sex, "Male");
  const CategoryRow& female = row_of(tables.sex, "Female");
  EXPECT_EQ(male.n, 48);  // 20 + 15 + 12 + 1
  EXPECT_EQ(male.selected, 30);
  EXPECT_TRUE(male.highest);
  EXPECT_DOUBLE_EQ(*male.impact_ratio, 1.0);
  EXPECT_EQ(female.n, 50);  // 20 + 15 + 12 + 3
  EXPECT_EQ(female.selected, 18);
  EXPECT_NEAR(*female.impact_ratio, 0.36 / 0.625, 1e-12);  // 0.576
  // Katz: exp(log 0.576 ± 1.96·sqrt(1/18 − 1/50 + 1/30 − 1/48)), worked by hand.
  EXPECT_NEAR(female.impact_ratio_ci95->lower, 0.3748, 1e-3);
  EXPECT_NEAR(female.impact_ratio_ci95->upper, 0.8852, 1e-3);
  EXPECT_EQ(female.evidence, "insufficient evidence");
}

TEST(HiringLl144, WorkedExampleSmallCategoryIsListedButExcluded) {
  const AuditTables tables = ll144_tables(worked_example(), RateKind::selection);
  EXPECT_EQ(tables.race_ethnicity.unknown, 3);
  const CategoryRow& small = row_of(tables.race_ethnicity, "American Indian or Alaska Native");
  EXPECT_EQ(small.n, 1);  // 1 of 97 known: 1.03 % < 2 %
  EXPECT_TRUE(small.excluded);
  EXPECT_FALSE(small.impact_ratio.has_value());  // its rate (1.0) is the highest, yet not the reference
  EXPECT_EQ(small.evidence, "excluded");
  const CategoryRow& white = row_of(tables.race_ethnicity, "White");
  EXPECT_EQ(white.n, 42);
  EXPECT_EQ(white.selected, 26);
  EXPECT_TRUE(white.highest);
  EXPECT_NEAR(*row_of(tables.race_ethnicity, "Black or African American").impact_ratio, 0.4 / (26.0 / 42), 1e-12);
  EXPECT_NEAR(*row_of(tables.race_ethnicity, "Asian").impact_ratio, (11.0 / 24) / (26.0 / 42), 1e-12);
  EXPECT_TRUE(row_of(tables.race_ethnicity, "Black or African American").fisher_p.has_value());
}

TEST(HiringLl144, WorkedExampleIntersections) {
  const AuditTables tables = ll144_tables(worked_example(), RateKind::selection);
  EXPECT_EQ(tables.intersectional.unknown, 5);
  EXPECT_TRUE(row_of(tables.intersectional, "American Indian or Alaska Native/Male").excluded);  // 1 of 95
  EXPECT_TRUE(row_of(tables.intersectional, "White/Male").highest);                              // 14 / 20
  EXPECT_NEAR(*row_of(tables.intersectional, "Black or African American/Female").impact_ratio, (4.0 / 15) / 0.7, 1e-12);
  EXPECT_EQ(tables.intersectional.rows.size(), 7u);
}

TEST(HiringLl144, ScoringRateIsTheShareAboveTheSampleMedian) {
  std::vector<Individual> people;
  for (int score = 1; score <= 8; ++score) people.push_back({score % 2 ? "Male" : "Female", "White", double(score)});
  const AuditTables tables = ll144_tables(people, RateKind::scoring);
  EXPECT_DOUBLE_EQ(*tables.median, 4.5);
  EXPECT_EQ(row_of(tables.sex, "Female").selected, 2);  // 6, 8
  EXPECT_EQ(row_of(tables.sex, "Male").selected, 2);    // 5, 7
  EXPECT_EQ(to_json(tables)["rate_kind"], "scoring");
}

// EEOC Q&A 11 ("What is a substantially different rate of selection?"): hiring rates of 60 % for
// whites, 45 % for American Indians, 48 % for Hispanics and 51 % for Blacks give impact ratios of
// 75 %, 80 % and 85 %; adverse impact is indicated for American Indians, not Hispanics or Blacks.
TEST(HiringLl144, EeocQuestionsAndAnswers11FourFifthsExample) {
  std::vector<Individual> people;
  add(people, "Male", "White", 60, 100);
  add(people, "Male", "American Indian", 45, 100);
  add(people, "Male", "Hispanic", 48, 100);
  add(people, "Male", "Black", 51, 100);
  const ImpactTable table = ll144_tables(people, RateKind::selection).race_ethnicity;
  EXPECT_DOUBLE_EQ(*row_of(table, "American Indian").impact_ratio, 0.75);
  EXPECT_DOUBLE_EQ(*row_of(table, "Hispanic").impact_ratio, 0.80);
  EXPECT_DOUBLE_EQ(*row_of(table, "Black").impact_ratio, 0.85);
  const auto json = to_json(ll144_tables(people, RateKind::selection))["tables"]["race_ethnicity"];
  std::map<std::string, bool> flagged;
  for (const auto& row : json) flagged[row["category"]] = row["eeoc_four_fifths_flag"];
  EXPECT_TRUE(flagged["American Indian"]);
  EXPECT_FALSE(flagged["Hispanic"]);  // exactly four-fifths is not less than four-fifths
  EXPECT_FALSE(flagged["Black"]);
  EXPECT_FALSE(flagged["White"]);
}

// EEOC Q&A 12 ("How is adverse impact determined?"): 80 white applicants, 48 hired (60 %); 40 black
// applicants, 12 hired (30 %); 30/60 = 50 %, under four-fifths: adverse impact is indicated. With
// 40 and 80 applicants the ratio's 95 % interval still reaches above 0.8: the flag is raised, the
// statistics say the sample is too small to tell.
TEST(HiringLl144, EeocQuestionsAndAnswers12Example) {
  std::vector<Individual> people;
  add(people, "Male", "White", 48, 80);
  add(people, "Male", "Black", 12, 40);
  const ImpactTable table = ll144_tables(people, RateKind::selection).race_ethnicity;
  EXPECT_DOUBLE_EQ(row_of(table, "White").rate, 0.6);
  EXPECT_DOUBLE_EQ(row_of(table, "Black").rate, 0.3);
  EXPECT_DOUBLE_EQ(*row_of(table, "Black").impact_ratio, 0.5);
  const auto json = to_json(ll144_tables(people, RateKind::selection))["tables"]["race_ethnicity"];
  EXPECT_TRUE(json[1]["eeoc_four_fifths_flag"].get<bool>());
  EXPECT_LT(row_of(table, "Black").impact_ratio_ci95->lower, 0.5);
  EXPECT_GT(row_of(table, "Black").impact_ratio_ci95->upper, 0.8);
  EXPECT_EQ(row_of(table, "Black").evidence, "insufficient evidence");
  // Ten times the applicants at the same rates: the whole interval is below four-fifths.
  std::vector<Individual> more;
  add(more, "Male", "White", 480, 800);
  add(more, "Male", "Black", 120, 400);
  EXPECT_EQ(row_of(ll144_tables(more, RateKind::selection).race_ethnicity, "Black").evidence, "below four-fifths");
}

TEST(HiringLl144, NoSelectionsLeavesRatiosUndefined) {
  std::vector<Individual> people;
  add(people, "Male", "White", 0, 10);
  add(people, "Female", "White", 0, 10);
  const ImpactTable table = ll144_tables(people, RateKind::selection).sex;
  EXPECT_FALSE(row_of(table, "Male").impact_ratio.has_value());
  EXPECT_EQ(row_of(table, "Female").evidence, "undefined");
}

}  // namespace
}  // namespace codebias::tasks::hiring
