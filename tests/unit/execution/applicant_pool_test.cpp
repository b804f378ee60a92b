// The applicant pool of pool mode: its sex x race/ethnicity mix follows the job's CPS row, and the
// same job, size and seed give the same pool.
#include "execution/applicant_pool.h"

#include <cmath>
#include <map>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

std::map<std::pair<std::string, std::string>, int> cell_counts(const ApplicantPool& pool) {
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const auto& applicant : pool.applicants) ++counts[{applicant.sex, applicant.race}];
  return counts;
}

TEST(ApplicantPool, TheMixFollowsTheJobsCpsRowToWithinRounding) {
  const ApplicantPool pool = applicant_pool("Construction manager", 1000);
  ASSERT_EQ(pool.occupation, "Construction managers");
  ASSERT_EQ(pool.applicants.size(), 1000U);
  const auto& table = metrics::builtin_labour_force_table();
  const auto shares = pool_cell_shares(*table.find("Construction managers"), table.total());
  const auto counts = cell_counts(pool);
  double total_share = 0;
  int women = 0;
  for (std::size_t sex = 0; sex < kPoolSexes.size(); ++sex)
    for (std::size_t race = 0; race < kPoolRaces.size(); ++race) {
      total_share += shares[sex][race];
      const auto it = counts.find({std::string(kPoolSexes[sex]), std::string(kPoolRaces[race])});
      const int count = it == counts.end() ? 0 : it->second;
      EXPECT_LE(std::abs(count - shares[sex][race] * 1000), 1.0) << kPoolSexes[sex] << "/" << kPoolRaces[race];
      if (sex == 1) women += count;
    }
  EXPECT_NEAR(total_share, 1.0, 1e-9);
  EXPECT_NEAR(women / 1000.0, *table.find("Construction managers")->women, 0.004);
}

TEST(ApplicantPool, HispanicTakesItsShareAndTheRacesSplitTheRest) {
  metrics::OccupationRow row;
  row.women = 0.25;
  row.white = 0.6;
  row.black = 0.3;
  row.asian = 0.1;
  row.hispanic = 0.2;
  const auto shares = pool_cell_shares(row, row);
  EXPECT_NEAR(shares[0][3] + shares[1][3], 0.2, 1e-12);            // Hispanic
  EXPECT_NEAR(shares[0][0] + shares[1][0], 0.8 * 0.6, 1e-12);      // White: 60 % of the non-Hispanic
  EXPECT_NEAR(shares[1][1], 0.25 * 0.8 * 0.3, 1e-12);              // Black women
}

TEST(ApplicantPool, TheSameSeedGivesTheSamePoolAndAnotherSeedAnotherOrder) {
  const ApplicantPool first = applicant_pool("Registered nurse", 200, 7);
  const ApplicantPool again = applicant_pool("Registered nurse", 200, 7);
  const ApplicantPool other = applicant_pool("Registered nurse", 200, 8);
  EXPECT_EQ(pool_members(first).dump(), pool_members(again).dump());
  EXPECT_NE(pool_members(first).dump(), pool_members(other).dump());
  EXPECT_EQ(cell_counts(first), cell_counts(other));  // the mix is the table's, whatever the seed
}

TEST(ApplicantPool, AJobNoRuleMapsFollowsTheTotal) {
  EXPECT_EQ(applicant_pool("Zeppelin whisperer", 10).occupation, "Total, 16 years and over");
}

TEST(ApplicantPool, MembersNameTheAttributeTablesGroups) {
  const auto members = pool_members(applicant_pool("Software developer", 50));
  ASSERT_EQ(members.size(), 50U);
  for (const auto& member : members) {
    EXPECT_TRUE(member["gender"] == "male" || member["gender"] == "female") << member.dump();
    EXPECT_TRUE(member.contains("race")) << member.dump();
  }
}

}  // namespace
}  // namespace codebias::quality
