#include "tasks/testcase/analysis/testcase_batch.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace codebias::analysis {
namespace {

const AttributeTable& table() { return AttributeTable::builtin(); }

base::JsonlOptions keep_going(bool on) {
  base::JsonlOptions options;
  options.keep_going = on;
  return options;
}

TEST(TestcaseBatch, MetadataNestedOrFlat) {
  const std::string nested =
      R"({"id": "a", "response": "r", "metadata": {"task": "testcase", "topic": "hiv", "category": "medical",
          "variant": "c", "request": "counterfactual", "attribute": "Gender", "given_group": "Woman",
          "fields": ["x", "y"], "sensitive_fields": ["gender", "Race"], "struct_fields": ["x", "y", "gender"]}})";
  auto parsed = parse_testcase_line(nested, 1, table());
  ASSERT_TRUE(std::holds_alternative<TestcaseLine>(parsed)) << std::get<base::LineError>(parsed).describe();
  const TestcaseLine& line = std::get<TestcaseLine>(parsed);
  EXPECT_EQ(line.id, "a");
  EXPECT_EQ(line.request.topic, "hiv");
  EXPECT_EQ(line.request.variant, "c");
  EXPECT_TRUE(line.request.counterfactual());
  EXPECT_EQ(line.request.attribute, "gender");
  EXPECT_EQ(line.request.given_group, "female");  // canonical
  EXPECT_EQ(line.request.sensitive_fields, (std::vector<std::string>{"gender", "race"}));
  EXPECT_EQ(line.request.struct_fields.size(), 3u);

  const std::string flat =
      R"({"id": 7, "response": "r", "topic": "hiv", "request": "group", "fields": [], "sensitive_fields": ["race"]})";
  auto flat_parsed = parse_testcase_line(flat, 2, table());
  ASSERT_TRUE(std::holds_alternative<TestcaseLine>(flat_parsed));
  EXPECT_EQ(std::get<TestcaseLine>(flat_parsed).id, "7");
  EXPECT_FALSE(std::get<TestcaseLine>(flat_parsed).request.counterfactual());
}

std::string error_of(const std::string& line) {
  auto parsed = parse_testcase_line(line, 3, table());
  if (!std::holds_alternative<base::LineError>(parsed)) return "(no error)";
  return std::get<base::LineError>(parsed).describe();
}

TEST(TestcaseBatch, ErrorsNameTheField) {
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "metadata": {"request": "group", "fields": [], "sensitive_fields": []}})"),
            "field \"metadata.topic\": missing");
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "topic": "t", "request": "both", "fields": [], "sensitive_fields": []})"),
            "field \"request\": expected \"group\" or \"counterfactual\", got \"both\"");
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "topic": "t", "request": "group", "fields": [1], "sensitive_fields": []})"),
            "field \"fields[0]\": expected a string, got number");
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "topic": "t", "request": "group", "fields": [], "sensitive_fields": ["height"]})"),
            "field \"sensitive_fields\": unknown attribute \"height\"");
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "topic": "t", "request": "counterfactual", "attribute": "gender", "given_group": "robot", "fields": [], "sensitive_fields": ["gender"]})"),
            "field \"given_group\": \"robot\" is not a group of gender");
  EXPECT_EQ(error_of(R"({"id": "a", "topic": "t"})"), "field \"response\": missing");
  EXPECT_EQ(error_of(R"({"id": "a", "response": "r", "task": "function", "topic": "t", "request": "group", "fields": [], "sensitive_fields": []})"),
            "field \"task\": expected \"testcase\", got \"function\"");
  EXPECT_EQ(error_of("[1]"), "expected a JSON object, got array");
}

TEST(TestcaseBatch, KeepGoingWritesErrorLinesInOrder) {
  std::istringstream in(
      R"({"id": "ok", "response": "gender: male\nx: True\n", "topic": "t", "request": "group", "fields": ["x"], "sensitive_fields": ["gender"]})"
      "\n\n{broken\n");
  std::vector<std::string> out;
  const BatchStats stats = score_testcase_jsonl(in, "in.jsonl", table(), keep_going(true), [&](TestcaseScored& s) {
    out.push_back(s.json);
  });
  EXPECT_EQ(stats.responses, 1);
  EXPECT_EQ(stats.errors, 1);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NE(out[0].find("\"groups\":{\"gender\":\"male\"}"), std::string::npos);
  EXPECT_NE(out[1].find("\"line\":3"), std::string::npos);

  std::istringstream again("{broken\n");
  EXPECT_THROW(score_testcase_jsonl(again, "in.jsonl", table(), keep_going(false), [](TestcaseScored&) {}), base::InputError);
}

}  // namespace
}  // namespace codebias::analysis
