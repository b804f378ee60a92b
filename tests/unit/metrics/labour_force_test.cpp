// The CPS table, the job-area rules and the baselines of the representation ratio
// (metrics/labour_force.h).
#include "metrics/labour_force.h"

#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

// BLS CPS table 11, 2022 annual averages (cpsaat11.xlsx): the total row reads 158,291 thousand
// employed, 46.8 % women, 77.0 % White, 12.6 % Black, 6.7 % Asian, 18.5 % Hispanic or Latino.
TEST(LabourForceTable, BuiltInTableIsCps2022) {
  const LabourForceTable& table = builtin_labour_force_table();
  EXPECT_EQ(table.year, 2022);
  EXPECT_THAT(table.source, testing::HasSubstr("2022"));
  EXPECT_EQ(table.rows.size(), 595u);
  const OccupationRow& total = table.total();
  EXPECT_EQ(total.employed_thousands, 158291);
  EXPECT_DOUBLE_EQ(*total.women, 0.468);
  EXPECT_DOUBLE_EQ(*total.asian, 0.067);
  EXPECT_DOUBLE_EQ(*total.hispanic, 0.185);
  // The xlsx row "Software developers": 2,085 thousand, 21.5 % women, 55.0 / 5.7 / 36.4 / 5.7.
  const OccupationRow* software = table.find("software DEVELOPERS");
  ASSERT_NE(software, nullptr);
  EXPECT_EQ(software->employed_thousands, 2085);
  EXPECT_DOUBLE_EQ(*software->women, 0.215);
  EXPECT_DOUBLE_EQ(*software->asian, 0.364);
  EXPECT_EQ(software->level, 4);
  // BLS prints "–" for small bases: kept as missing.
  const OccupationRow* nurse_midwives = table.find("Nurse midwives");
  ASSERT_NE(nurse_midwives, nullptr);
  EXPECT_FALSE(nurse_midwives->women.has_value());
  EXPECT_EQ(table.find("Astronauts"), nullptr);
}

TEST(LabourForceTable, SharesAsGroups) {
  const GroupShares shares = occupation_shares(*builtin_labour_force_table().find("Registered nurses"));
  EXPECT_DOUBLE_EQ(shares.gender.at("Female"), 0.879);
  EXPECT_NEAR(shares.gender.at("Male"), 0.121, 1e-12);
  EXPECT_DOUBLE_EQ(shares.ethnicity.at("API"), 0.089);
  EXPECT_DOUBLE_EQ(shares.ethnicity.at("Hispanic"), 0.081);
}

TEST(LabourForceTable, RejectsMalformedTables) {
  EXPECT_THROW(parse_labour_force_table("{", "t.json"), std::runtime_error);
  try {
    parse_labour_force_table(R"({"source": "s", "year": 2022, "rows": [
      {"occupation": "Total", "level": 0, "employed_thousands": 10, "women": 1.5, "white": 0.5,
       "black": 0.1, "asian": 0.1, "hispanic": 0.1}]})",
                             "t.json");
    FAIL() << "a share above 1 was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), testing::HasSubstr("t.json: rows[0]"));
    EXPECT_THAT(error.what(), testing::HasSubstr("women"));
  }
}

TEST(JobAreaRules, NormalisesToWholeWords) {
  EXPECT_EQ(normalise_job_text("  Sr. Software-Engineer (Back End) "), "sr software engineer back end");
  EXPECT_EQ(normalise_job_text("R&D"), "r d");
  EXPECT_EQ(normalise_job_text(""), "");
}

TEST(JobAreaRules, BuiltInRulesCoverTheMajorGroups) {
  const JobAreaRules& rules = builtin_job_area_rules();
  EXPECT_GE(rules.rules.size(), 60u);
  const LabourForceTable& table = builtin_labour_force_table();
  auto occupation = [&](const char* title) {
    const OccupationMatch match = map_job_text(title, rules, table);
    return match.row == nullptr ? std::string("unmapped") : match.row->occupation;
  };
  // The paper's titles and areas (resume_dataset.xlsx).
  EXPECT_EQ(occupation("Software Engineer"), "Software developers");
  EXPECT_EQ(occupation("Software Engineering"), "Software developers");
  EXPECT_EQ(occupation("Marketing Manager"), "Marketing managers");
  EXPECT_EQ(occupation("Marketing Coordinator"), "Market research analysts and marketing specialists");
  EXPECT_EQ(occupation("Marketing"), "Marketing managers");
  EXPECT_EQ(occupation("Senior Project Manager"), "Project management specialists");
  EXPECT_EQ(occupation("Project Management"), "Project management specialists");
  EXPECT_EQ(occupation("Financial Analyst"), "Financial and investment analysts");
  EXPECT_EQ(occupation("Investment Banker"), "Financial and investment analysts");
  EXPECT_EQ(occupation("Finance"), "Financial and investment analysts");
  EXPECT_EQ(occupation("Nurse"), "Registered nurses");
  EXPECT_EQ(occupation("Nursing"), "Registered nurses");
  EXPECT_EQ(occupation("Mechanical Engineer"), "Mechanical engineers");
  EXPECT_EQ(occupation("Sales Representative"), "Sales representatives, wholesale and manufacturing");
  EXPECT_EQ(occupation("Sales"), "Sales and related occupations");
  // Most specific first.
  EXPECT_EQ(occupation("Nurse Practitioner"), "Nurse practitioners");
  EXPECT_EQ(occupation("Sales Engineer"), "Sales engineers");
  EXPECT_EQ(occupation("Sales Manager"), "Sales managers");
  EXPECT_EQ(occupation("QA Engineer"), "Software quality assurance analysts and testers");
  EXPECT_EQ(occupation("High School Teacher"), "Secondary school teachers");
  EXPECT_EQ(occupation("Teacher"), "Education, training, and library occupations");
  EXPECT_EQ(occupation("Accountant"), "Accountants and auditors");
  EXPECT_EQ(occupation("Graphic Designer"), "Graphic designers");
  EXPECT_EQ(occupation("Attorney"), "Lawyers");
  EXPECT_EQ(occupation("Human Resources Manager"), "Human resources managers");
  EXPECT_EQ(occupation("Registered Nurse (RN)"), "Registered nurses");
  // Whole words only: "it" inside "Itinerary" is no match; a typo is not corrected; nothing is guessed.
  EXPECT_EQ(occupation("Itinerary Planner"), "unmapped");
  EXPECT_EQ(occupation("Markerting Coordinator"), "unmapped");
  EXPECT_EQ(occupation("Astronaut"), "unmapped");
}

TEST(JobAreaRules, TitleFirstThenArea) {
  const JobAreaRules& rules = builtin_job_area_rules();
  const LabourForceTable& table = builtin_labour_force_table();
  const OccupationMatch by_title =
      map_resume_occupation(std::string("Marketing Coordinator"), std::string("Marketing"), rules, table);
  EXPECT_EQ(by_title.row->occupation, "Market research analysts and marketing specialists");
  EXPECT_EQ(by_title.matched_field, "job_title");
  EXPECT_EQ(by_title.rule_id, "marketing_specialist");
  const OccupationMatch by_area =
      map_resume_occupation(std::string("Markerting Coordinator"), std::string("Marketing"), rules, table);
  EXPECT_EQ(by_area.row->occupation, "Marketing managers");
  EXPECT_EQ(by_area.matched_field, "job_area");
  const OccupationMatch neither = map_resume_occupation(std::nullopt, std::string("Wizardry"), rules, table);
  EXPECT_EQ(neither.row, nullptr);
  EXPECT_EQ(neither.matched_field, "");
}

TEST(JobAreaRules, RejectsRulesNamingNoRowOrUnnormalisedPhrases) {
  const LabourForceTable& table = builtin_labour_force_table();
  try {
    parse_job_area_rules(R"({"source": "s", "rules": [{"id": "x", "phrases": ["a"], "occupation": "Wizards"}]})",
                         "r.json", table);
    FAIL() << "an unknown occupation was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), testing::HasSubstr("r.json: rules[0] (x)"));
    EXPECT_THAT(error.what(), testing::HasSubstr("Wizards"));
  }
  EXPECT_THROW(parse_job_area_rules(
                   R"({"source": "s", "rules": [{"id": "x", "phrases": ["Nurse"], "occupation": "Registered nurses"}]})",
                   "r.json", table),
               std::runtime_error);
}

// Paper §5.1: API males are "over 8 times" as likely as the average worker to be software
// developers: 0.785 · 0.364 / (0.532 · 0.067) = 8.016, with both baselines (the notebook's
// constants are the CPS rows).
TEST(LabourForceBaseline, ApiMaleSoftwareDevelopersOverEight) {
  for (BaselineKind kind : {BaselineKind::kCps, BaselineKind::kPaper}) {
    const LabourForceBaseline& baseline = builtin_baseline(kind);
    const std::optional<AreaBaseline> area = baseline.for_area("Software Engineering");
    ASSERT_TRUE(area.has_value()) << baseline_kind_name(kind);
    const double ratio = area->shares.gender.at("Male") * area->shares.ethnicity.at("API") /
                         (baseline.total.gender.at("Male") * baseline.total.ethnicity.at("API"));
    EXPECT_NEAR(ratio, 0.785 * 0.364 / (0.532 * 0.067), 1e-9) << baseline_kind_name(kind);
    EXPECT_GT(ratio, 8);
  }
  EXPECT_EQ(builtin_baseline(BaselineKind::kPaper).for_area("Software Engineering")->key, "software_engineering");
  EXPECT_EQ(builtin_baseline(BaselineKind::kCps).for_area("Software Engineering")->key, "Software developers");
  // The paper's constants cover three areas only.
  EXPECT_FALSE(builtin_baseline(BaselineKind::kPaper).for_area("Finance").has_value());
  EXPECT_TRUE(builtin_baseline(BaselineKind::kCps).for_area("Finance").has_value());
  EXPECT_EQ(parse_baseline_kind("paper"), BaselineKind::kPaper);
  EXPECT_THROW(parse_baseline_kind("census"), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::metrics
