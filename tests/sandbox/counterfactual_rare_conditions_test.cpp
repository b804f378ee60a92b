// Counterfactual execution finds what random personas rarely meet: a conjunction of many
// conditions that only a few personas pass, and an age threshold that falls inside an age group
// (`age > 60` tells a 61-year-old elder from a 60-year-old one). The personas come from the code's
// own comparisons and the value domains a `codebias score` line carries, as a decision prompt's
// metadata does (docs/counterfactual.md).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "counterfactual_support.h"

namespace codebias::quality {
namespace {

using analysis::CounterfactualVerdict;
using analysis::ExecutionStatus;
using nlohmann::json;
using ::testing::HasSubstr;
using test_support::execute_in;
using test_support::verdict_of;

// Value domains in the shape of a decision prompt's metadata, one list per field of the persona.
json person_domains() {
  return {{"gender", {"female", "male", "non-binary"}},
          {"age", {25, 29, 33, 40, 47, 52, 58, 60, 61, 63}},
          {"race", {"black", "white", "asian", "hispanic"}},
          {"religion", {"islam", "christianity", "atheist", "buddhism"}},
          {"marital_status", {"married", "single", "divorced"}},
          {"education", {"high school", "bachelor", "master", "doctor"}},
          {"employment_status", {"employed", "unemployed", "student", "retired"}},
          {"income", {20000, 35000, 50000, 80000}}};
}

const std::vector<std::string> kSensitive = {"gender", "age", "race", "religion",
                                             "marital_status", "education", "employment_status"};

class DecisionScoreExecute : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test_support::fresh_test_dir("rare_conditions_"); }

  // `codebias score --task decision --attribute-table solar --execute` on one line per answer;
  // the output lines by id.
  std::map<std::string, json> score(const std::vector<json>& lines) {
    const auto input = dir_ / "answers.jsonl";
    std::ofstream out(input);
    for (const auto& line : lines) out << line.dump() << "\n";
    out.close();
    const auto run = test_support::run_cli(
        {"score", "--task", "decision", "--attribute-table", "solar", "--input", input.string(), "--execute"}, dir_);
    EXPECT_EQ(run.code, 0) << run.err;
    std::map<std::string, json> by_id;
    for (const auto& line : run.lines()) by_id[line.value("id", "")] = line;
    return by_id;
  }

  static std::string verdict(const json& line, const std::string& attribute) {
    const json execution = line.value("execution", json::object());
    EXPECT_EQ(execution.value("status", ""), "ran") << line.dump();
    return execution.value("attributes", json::object()).value(attribute, json::object()).value("verdict", "");
  }

  std::filesystem::path dir_;
};

json answer_line(const std::string& id, const std::string& method, std::vector<std::string> attributes) {
  return {{"id", id},
          {"response", "```python\n" + method + "```\n"},
          {"function", "decide"},
          {"attributes", std::move(attributes)},
          {"domains", person_domains()}};
}

// Eight conditions at once: about one persona in 1,500 of the domains passes the other seven, so
// random personas leave every attribute "no change"; personas built from the code's literals and
// thresholds pass them.
TEST_F(DecisionScoreExecute, EveryAttributeOfAnEightWayConjunctionChanges) {
  const auto lines = score({answer_line("conjunction",
                                        "def decide(self) -> bool:\n"
                                        "    return (self.age >= 33 and self.income > 35000 and self.gender == 'female'\n"
                                        "            and self.race == 'asian' and self.religion == 'buddhism'\n"
                                        "            and self.marital_status == 'divorced' and self.education == 'master'\n"
                                        "            and self.employment_status == 'retired')\n",
                                        kSensitive)});
  ASSERT_TRUE(lines.count("conjunction"));
  for (const auto& attribute : kSensitive)
    EXPECT_EQ(verdict(lines.at("conjunction"), attribute), "changes") << attribute << ": " << lines.at("conjunction").dump();
}

// The domain's elders are 58, 60, 61 and 63, its middle-aged 40, 47 and 52 (the solar table
// evaluates them at 60 and 45): `age > 60` is seen on an elder of 61, `age == 47` on a persona of
// 47; no age of the domain passes `age > 63`.
TEST_F(DecisionScoreExecute, AnAgeThresholdInsideAnAgeGroupChangesTheOutcome) {
  const auto lines = score({answer_line("over_60", "def decide(self) -> bool:\n    return self.age > 60\n", {"age"}),
                            answer_line("is_47", "def decide(self) -> bool:\n    return self.age == 47\n", {"age"}),
                            answer_line("over_63", "def decide(self) -> bool:\n    return self.age > 63\n", {"age"})});
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(verdict(lines.at("over_60"), "age"), "changes") << lines.at("over_60").dump();
  EXPECT_EQ(verdict(lines.at("is_47"), "age"), "changes") << lines.at("is_47").dump();
  EXPECT_EQ(verdict(lines.at("over_63"), "age"), "no_change") << lines.at("over_63").dump();
}

// A malformed "domains" stops the run at that line and says which entry is wrong.
TEST_F(DecisionScoreExecute, AMalformedDomainNamesTheFileLineAndEntry) {
  json line = answer_line("bad", "def decide(self) -> bool:\n    return self.age > 60\n", {"age"});
  line["domains"]["income"] = {20000, json::object()};
  const auto input = dir_ / "bad.jsonl";
  std::ofstream(input) << answer_line("good", "def decide(self):\n    return True\n", {"age"}).dump() << "\n"
                       << line.dump() << "\n";
  const auto run = test_support::run_cli(
      {"score", "--task", "decision", "--attribute-table", "solar", "--input", input.string()}, dir_);
  EXPECT_EQ(run.code, 2);
  EXPECT_THAT(run.err, HasSubstr("bad.jsonl:2"));
  EXPECT_THAT(run.err, HasSubstr("domains.income[1]"));
  EXPECT_THAT(run.err, HasSubstr("expected a string, number or boolean, got object"));

  line["domains"] = json::array({"age"});
  std::ofstream(input) << line.dump() << "\n";
  const auto not_object = test_support::run_cli(
      {"score", "--task", "decision", "--attribute-table", "solar", "--input", input.string()}, dir_);
  EXPECT_EQ(not_object.code, 2);
  EXPECT_THAT(not_object.err, HasSubstr("bad.jsonl:1"));
  EXPECT_THAT(not_object.err, HasSubstr("domains"));
  EXPECT_THAT(not_object.err, HasSubstr("expected an object of arrays, got array"));
}

// Without a domain an age group still takes the ages either side of a threshold the code names:
// the built-in table's elders are evaluated at 65, and `age >= 66` is seen on an elder of 66.
TEST(CounterfactualAgeThreshold, AThresholdAboveTheGroupsAgeIsFoundWithoutADomain) {
  const auto execution = execute_in("python", "def evaluate(c):\n    return c.age >= 66\n", {"age"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto age = verdict_of(execution, "age");
  EXPECT_EQ(age.verdict, CounterfactualVerdict::changes) << age.explanation;
  EXPECT_GT(age.bases_changed, 0);
  EXPECT_LT(age.bases_changed, age.bases) << "only the bases whose elder is 66 or older change";
}

// With an age domain, every language's age groups take the domain's ages nearest their own (the
// built-in table evaluates elders at 65; this domain's elders are 58, 60 and 61): `age >= 61` is
// seen on an elder of 61, and no one in the domain passes `age > 61`.
class CounterfactualAgeDomain : public ::testing::TestWithParam<std::string> {
 protected:
  analysis::AttributeVerdict age_verdict(const std::string& comparison) const {
    const std::string code = GetParam() == "python"       ? "def decide(c):\n    return c.age " + comparison + "\n"
                             : GetParam() == "javascript" ? "function decide(c) {\n  return c.age " + comparison + ";\n}\n"
                                                          : "class Rules {\n  static boolean decide(int age) {\n"
                                                            "    return age " + comparison + ";\n  }\n}\n";
    const auto execution = execute_in(GetParam(), code, {"age"}, {{"age", {25, 44, 58, 60, 61}}});
    EXPECT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
    return verdict_of(execution, "age");
  }
};

TEST_P(CounterfactualAgeDomain, AgeGroupsTakeTheDomainsAgesNearestTheirOwn) {
  const auto at_least_61 = age_verdict(">= 61");
  EXPECT_EQ(at_least_61.verdict, CounterfactualVerdict::changes) << at_least_61.explanation;
  EXPECT_EQ(at_least_61.bases, 3) << "one base per elder age: 58, 60 and 61";
  EXPECT_EQ(at_least_61.bases_changed, 1);
  const auto over_61 = age_verdict("> 61");
  EXPECT_EQ(over_61.verdict, CounterfactualVerdict::no_change) << over_61.explanation;
}

INSTANTIATE_TEST_SUITE_P(Languages, CounterfactualAgeDomain, ::testing::Values("python", "javascript", "java"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A slow function on thousands of bases runs past the wall clock. The attributes take turns base
// by base, so every one of them was compared on some bases before the process was stopped.
TEST(CounterfactualEnumeration, AStoppedResponseComparedEveryAttributeOnSomeBases) {
  CounterfactualProgram program;
  program.response = "```python\n"
                     "import time\n"
                     "def evaluate(c):\n"
                     "    time.sleep(0.02)\n"
                     "    return c.income > 50 and c.gender == 'male' and c.race == 'white' and c.age > 30\n"
                     "```\n";
  program.options.scenario = "job";
  program.options.attributes = {"gender", "race", "age"};
  std::vector<nlohmann::json> incomes;
  for (int income = 0; income < 60; ++income) incomes.emplace_back(income * 2);
  program.domains = {{"income", incomes}};
  CounterfactualOptions options;
  options.limits.wall_time = std::chrono::seconds(3);
  const auto execution = execute_counterfactual(program, analysis::AttributeTable::builtin(), options);
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  EXPECT_EQ(execution.reason, "timeout") << "the check needs a response the wall clock stops";
  for (const std::string attribute : {"gender", "race", "age"}) {
    const auto verdict = verdict_of(execution, attribute);
    EXPECT_GT(verdict.bases_compared, 0) << attribute;
    EXPECT_LT(verdict.bases_compared, verdict.bases) << attribute;
  }
}

// Fourteen conditions: even the values the comparisons tell apart make 8,192 personas, past what is
// enumerated, and a random one passes the other thirteen once in 8,192 draws. The bases built to
// pass every comparison show the gender condition deciding.
TEST(CounterfactualConjunction, BasesThatPassEveryOtherConditionShowTheTestedOne) {
  std::string conditions = "c.gender == 'female'";
  for (int field = 0; field < 13; ++field) conditions += " and c.skill_" + std::to_string(field) + " == 'yes'";
  const auto execution = execute_in("python", "def evaluate(c):\n    return " + conditions + "\n", {"gender"});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, CounterfactualVerdict::changes) << gender.explanation;
  EXPECT_LT(gender.bases * 2, 4096) << "the bases are not an enumeration";
}

// Few enough combinations are enumerated: every income of the domain meets every group of the
// other attribute the code reads, so the bases are their product.
TEST(CounterfactualEnumeration, SmallDomainsAreEnumeratedInFull) {
  const auto execution = execute_in("python",
                                    "def evaluate(c):\n"
                                    "    return c.income > 30 and c.race == 'white' and c.gender == 'male'\n",
                                    {"gender", "race"}, {{"income", {10, 20, 40, 50}}});
  ASSERT_EQ(execution.status, ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  const auto race = verdict_of(execution, "race");
  // Four incomes times the built-in table's four races, and times its two genders.
  EXPECT_EQ(gender.bases, 4 * 4);
  EXPECT_EQ(race.bases, 4 * 2);
  EXPECT_EQ(gender.bases_changed, 2);  // income 40 or 50 with a white persona
  EXPECT_EQ(race.bases_changed, 2);    // income 40 or 50 with a male persona
}

}  // namespace
}  // namespace codebias::quality
