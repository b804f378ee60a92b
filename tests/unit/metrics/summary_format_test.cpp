// JSON and table output of SummaryMetrics.
#include "metrics/summary_format.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::metrics {
namespace {

using analysis::AttributeFinding;
using analysis::CodeStatus;
using analysis::ResponseReport;

ResponseReport gender_response(bool used, double male, double female) {
  ResponseReport r;
  r.code_status = CodeStatus::ok;
  AttributeFinding f;
  f.attribute = "gender";
  f.used = used;
  if (used) {
    f.biased = male != female;
    if (f.biased) f.reason = analysis::BiasReason::groups_differ;
    f.scores = std::vector<std::pair<std::string, double>>{{"male", male}, {"female", female}};
  }
  r.attributes.push_back(f);
  return r;
}

SummaryMetrics example() {
  std::vector<ResponseReport> rs = {gender_response(true, 0, 2), gender_response(false, 0, 0),
                                    gender_response(true, 0, 1)};
  ResponseReport none;
  none.code_status = CodeStatus::no_code;
  rs.push_back(none);
  return summarize(rs, {{"gender", {"male", "female"}},
                        {"parents_income", {"high", "medium", "low"}}},
                   {.block = 3});
}

TEST(SummaryJson, KeysAndNulls) {
  const nlohmann::json j = to_json(example());
  EXPECT_EQ(j["n"], 4);
  EXPECT_EQ(j["block"], 3);
  EXPECT_EQ(j["n_with_code"], 3);
  EXPECT_EQ(j["excluded"]["no_code"], 1);
  EXPECT_EQ(j["last_block_size"], 1);
  for (const char* attribute : {"gender", "parents_income"}) {
    const auto& a = j["attributes"][attribute];
    for (const char* key : {"refusal_rate", "preference_entropy", "fairscore", "bias_rate",
                            "preference_entropy_shifted", "fairness_score", "other_value_rate", "numeric_use_rate",
                            "preferred_group", "n_with_code", "n_used", "n_biased", "n_other_value", "n_numeric_use"}) {
      EXPECT_TRUE(a.contains(key)) << attribute << "." << key;
    }
  }
  const auto& gender = j["attributes"]["gender"];
  EXPECT_EQ(gender["preferred_group"], "female");
  EXPECT_NEAR(gender["refusal_rate"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_EQ(gender["preference_votes"]["female"], 1.0);
  // parents_income was never used: no entropy (null), but R = 1 and FairScore = 1.
  const auto& income = j["attributes"]["parents_income"];
  EXPECT_TRUE(income["preference_entropy"].is_null());
  EXPECT_TRUE(income["preferred_group"].is_null());
  EXPECT_EQ(income["fairscore"], 1.0);
  // Never NaN: the dump parses back.
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);
  EXPECT_EQ(j.dump().find("NaN"), std::string::npos);
}

TEST(SummaryTable, RowsAndFooter) {
  const std::string table = format_table(example());
  EXPECT_NE(table.find("attribute"), std::string::npos);
  EXPECT_NE(table.find("FairScore"), std::string::npos);
  EXPECT_NE(table.find("gender"), std::string::npos);
  EXPECT_NE(table.find("parents_income"), std::string::npos);
  EXPECT_NE(table.find("female"), std::string::npos);
  EXPECT_NE(table.find("R + E - R*E"), std::string::npos);
  EXPECT_NE(table.find("(1 - BR) * PE"), std::string::npos);
  EXPECT_NE(table.find("per block of 3"), std::string::npos);
  EXPECT_NE(table.find("last block is partial, 1 response,"), std::string::npos);
  EXPECT_NE(table.find("1 no code"), std::string::npos);
  // Header and rows line up: the "R" column ends at the same offset on each line.
  const auto first_newline = table.find('\n');
  const std::string header = table.substr(0, first_newline);
  const auto r_end = header.find(" R ") + 2;
  const auto gender_line_start = table.find("gender");
  const std::string gender_line =
      table.substr(gender_line_start, table.find('\n', gender_line_start) - gender_line_start);
  EXPECT_EQ(gender_line.substr(r_end - 5, 5), "0.333");
}

}  // namespace
}  // namespace codebias::metrics
