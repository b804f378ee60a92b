#include "analysis/findings/report_json.h"

#include <limits>
#include <string>
#include <vector>

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
  race.reason = BiasReason::groups_differ;
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
  age.reason = BiasReason::effect;
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
  std::string line = report_json_line(sample_report(), "r1");
  EXPECT_EQ(line,
            R"({"id":"r1","code_status":"ok","language":"python","attributes":{)"
            R"("race":{"used":true,"biased":true,"reason":"groups_differ","scores":{"white":0.0,"black":1.5,"asian":0.0},)"
            R"("other_values":{"other":-1.0},"effect":null,"evidence":[{"line":12,)"
            R"("text":"if c.race == 'black': score += 1.5","groups":["black"],"amount":1.5,)"
            R"("rule":"if-chain/compare-eq"}]},)"
            R"("age":{"used":true,"biased":true,"reason":"effect","scores":null,"other_values":{},)"
            R"("effect":"score *= 0.5 when age > 60","evidence":[{"line":20,"text":"score *= 0.5",)"
            R"("groups":["elder"],"amount":null,"rule":"accumulate/multiply"}]}}})");
}

TEST(BiasReasonNames, AreTheSerialisedStrings) {
  EXPECT_STREQ(to_string(BiasReason::groups_differ), "groups_differ");
  EXPECT_STREQ(to_string(BiasReason::effect), "effect");
  EXPECT_STREQ(to_string(BiasReason::numeric_use), "numeric_use");
  EXPECT_STREQ(to_string(BiasReason::other_value), "other_value");
}

// A finding whose groups all get the same points is still biased when only a value outside the
// groups is rewarded; the reason says so next to the equal scores.
TEST(ReportJson, EqualScoresBiasedSayWhy) {
  ResponseReport report;
  report.code_status = CodeStatus::ok;
  AttributeFinding race;
  race.attribute = "race";
  race.used = true;
  race.biased = true;
  race.reason = BiasReason::other_value;
  race.scores = std::vector<std::pair<std::string, double>>{{"white", 0}, {"black", 0}};
  race.other_values = {{"excellent", 2}};
  report.attributes.push_back(race);
  const auto json = to_json(report, "r");
  EXPECT_EQ(json["attributes"]["race"]["reason"], "other_value");
  report.attributes[0].biased = false;
  report.attributes[0].reason = BiasReason::none;
  EXPECT_TRUE(to_json(report, "r")["attributes"]["race"]["reason"].is_null());
}

TEST(ReportJson, NoCodeReportHasEmptyAttributesObject) {
  ResponseReport report;
  EXPECT_EQ(report_json_line(report, "x"), R"({"id":"x","code_status":"no_code","language":"","attributes":{}})");
}

TEST(ReportJson, InvalidUtf8IsReplacedNotThrown) {
  ResponseReport report = sample_report();
  report.attributes[0].evidence[0].text = std::string("caf\xc3 \xff");
  std::string line;
  ASSERT_NO_THROW(line = report_json_line(report, "bad"));
  EXPECT_NE(line.find("caf\xef\xbf\xbd \xef\xbf\xbd"), std::string::npos) << line;
  EXPECT_TRUE(nlohmann::json::accept(line));
}

// The writer against nlohmann's serializer of the same document, built here independently:
// escapes, control bytes, multi-byte and broken UTF-8, and doubles of every shape.
nlohmann::ordered_json reference_document(const ResponseReport& report, std::string_view id) {
  using nlohmann::ordered_json;
  ordered_json out = {{"id", std::string(id)}, {"code_status", to_string(report.code_status)}, {"language", report.language}};
  ordered_json attributes = ordered_json::object();
  for (const AttributeFinding& f : report.attributes) {
    ordered_json finding = {{"used", f.used}, {"biased", f.biased}};
    finding["reason"] = f.biased ? ordered_json(to_string(f.reason)) : ordered_json(nullptr);
    if (f.scores) {
      ordered_json scores = ordered_json::object();
      for (const auto& [group, points] : *f.scores) scores[group] = points;
      finding["scores"] = scores;
    } else {
      finding["scores"] = nullptr;
    }
    ordered_json other = ordered_json::object();
    for (const auto& [value, points] : f.other_values) other[value] = points;
    finding["other_values"] = other;
    finding["effect"] = f.effect ? ordered_json(*f.effect) : ordered_json(nullptr);
    ordered_json evidence = ordered_json::array();
    for (const Evidence& e : f.evidence)
      evidence.push_back({{"line", e.line}, {"text", e.text}, {"groups", e.groups},
                          {"amount", e.amount ? ordered_json(*e.amount) : ordered_json(nullptr)}, {"rule", e.rule}});
    finding["evidence"] = evidence;
    attributes[f.attribute] = finding;
  }
  out["attributes"] = attributes;
  return out;
}

TEST(ReportJson, WriterMatchesTheSerializerOfTheSameDocument) {
  static constexpr char kControls[] = "ctl \x01\x1f\x7f \b\f\n\r\t \0 end";
  const std::vector<std::string> texts = {
      "plain", "", "quote \" backslash \\ slash /", std::string(kControls, sizeof kControls - 1),
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "broken \xc3 \xff \xe2\x82", "\xf0\x9f"};
  const std::vector<double> numbers = {0.0, -0.0, 1, -1, 0.5, 1.5, 0.1, 1.0 / 3, 2.0 / 3, 1e-5, 1e-4, 123456789012345.0,
                                       1e15, 1e16, 1e21, -2.75, 5e-324, 1.7976931348623157e308,
                                       std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  for (const std::string& text : texts) {
    ResponseReport report = sample_report();
    report.language = text;
    AttributeFinding& race = report.attributes[0];
    race.attribute = text + "attr";
    race.other_values.clear();
    std::vector<std::pair<std::string, double>> scores;
    for (size_t i = 0; i < numbers.size(); ++i) {
      scores.emplace_back(text + std::to_string(i), numbers[i]);
      race.other_values[std::to_string(i) + text] = numbers[numbers.size() - 1 - i];
    }
    race.scores = scores;
    race.effect = text;
    race.evidence[0].text = text;
    race.evidence[0].groups = {text, "x"};
    race.evidence[0].rule = text;
    for (double amount : numbers) {
      race.evidence[0].amount = amount;
      EXPECT_EQ(report_json_line(report, text), dump_json_line(reference_document(report, text))) << text << ' ' << amount;
    }
  }
}

}  // namespace
}  // namespace codebias::analysis
