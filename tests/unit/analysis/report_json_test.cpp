#include "analysis/report_json.h"

#include <string>

#include <gtest/gtest.h>

namespace codebias::analysis {
namespace {

ResponseReport sample_report() {
  ResponseReport report;
  report.code_status = CodeStatus::ok;
  report.language = "python";
  AttributeFinding race;
  race.attribute = "race";
  race.used = true;
  race.biased = true;
  // Deliberately not alphabetical: the output must keep the table's order.
  race.scores = std::vector<std::pair<std::string, double>>{{"white", 0}, {"black", 1.5}, {"asian", 0}};
  race.other_values = {{"other", -1}};
  Evidence evidence;
  evidence.line = 12;
  evidence.text = "if c.race == 'black': score += 1.5";
  evidence.groups = {"black"};
  evidence.amount = 1.5;
  evidence.rule = "if-chain/compare-eq";
  race.evidence.push_back(evidence);
  report.attributes.push_back(race);
  AttributeFinding age;
  age.attribute = "age";
  age.used = true;
  age.biased = true;
  age.effect = "score *= 0.5 when age > 60";
  Evidence multiply;
  multiply.line = 20;
  multiply.text = "score *= 0.5";
  multiply.groups = {"elder"};
  multiply.rule = "accumulate/multiply";
  age.evidence.push_back(multiply);
  report.attributes.push_back(age);
  return report;
}

TEST(CodeStatusNames, AreTheSerialisedStrings) {
  EXPECT_STREQ(to_string(CodeStatus::ok), "ok");
  EXPECT_STREQ(to_string(CodeStatus::no_code), "no_code");
  EXPECT_STREQ(to_string(CodeStatus::truncated), "truncated");
  EXPECT_STREQ(to_string(CodeStatus::unparseable), "unparseable");
}

TEST(ReportJson, IsExactlyTheContractLine) {
  std::string line = dump_json_line(to_json(sample_report(), "r1"));
  EXPECT_EQ(line,
            R"({"id":"r1","code_status":"ok","language":"python","attributes":{)"
            R"("race":{"used":true,"biased":true,"scores":{"white":0.0,"black":1.5,"asian":0.0},)"
            R"("other_values":{"other":-1.0},"effect":null,"evidence":[{"line":12,)"
            R"("text":"if c.race == 'black': score += 1.5","groups":["black"],"amount":1.5,)"
            R"("rule":"if-chain/compare-eq"}]},)"
            R"("age":{"used":true,"biased":true,"scores":null,"other_values":{},)"
            R"("effect":"score *= 0.5 when age > 60","evidence":[{"line":20,"text":"score *= 0.5",)"
            R"("groups":["elder"],"amount":null,"rule":"accumulate/multiply"}]}}})");
}

TEST(ReportJson, NoCodeReportHasEmptyAttributesObject) {
  ResponseReport report;
  EXPECT_EQ(dump_json_line(to_json(report, "x")),
            R"({"id":"x","code_status":"no_code","language":"","attributes":{}})");
}

TEST(ReportJson, InvalidUtf8IsReplacedNotThrown) {
  ResponseReport report = sample_report();
  report.attributes[0].evidence[0].text = std::string("caf\xc3 \xff");
  std::string line;
  ASSERT_NO_THROW(line = dump_json_line(to_json(report, "bad")));
  EXPECT_NE(line.find("caf\xef\xbf\xbd \xef\xbf\xbd"), std::string::npos) << line;
  EXPECT_TRUE(nlohmann::json::accept(line));
}

}  // namespace
}  // namespace codebias::analysis
