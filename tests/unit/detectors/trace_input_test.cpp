// Reading detect input and label lines (detectors/trace_input.h).
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "detectors/trace_input.h"

namespace {

using namespace codebias::detectors;
const codebias::analysis::AttributeTable& table() { return codebias::analysis::AttributeTable::builtin(); }

codebias::base::LineError error_of(const std::string& line) {
  auto parsed = parse_labelled_line(line, 7, table());
  EXPECT_TRUE(std::holds_alternative<codebias::base::LineError>(parsed)) << line;
  return std::holds_alternative<codebias::base::LineError>(parsed) ? std::get<codebias::base::LineError>(parsed)
                                                                    : codebias::base::LineError{};
}

TEST(TraceInput, AResponseHasItsTraceSplitOffAsGenerationDoes) {
  auto parsed = parse_trace_line(R"({"id": 3, "response": "<think>give women +1</think>def f(): pass", "scenario": "job", "attributes": ["Gender"]})", 1, table());
  const Trace& trace = std::get<Trace>(parsed);
  EXPECT_EQ(trace.id, "3");
  EXPECT_EQ(trace.reasoning, "give women +1");
  EXPECT_EQ(trace.attributes, (std::vector<std::string>{"gender"}));
}

TEST(TraceInput, ErrorsNameTheField) {
  EXPECT_EQ(error_of(R"({"id": "a", "reasoning": "x"})").field, "label");
  EXPECT_EQ(error_of(R"({"id": "a", "reasoning": "x", "label": "maybe"})").field, "label");
  EXPECT_EQ(error_of(R"({"id": "a", "reasoning": 5, "label": "biased"})").field, "reasoning");
  EXPECT_EQ(error_of(R"({"id": "a", "reasoning": "x", "response": "y", "label": "biased"})").field, "response");
  EXPECT_EQ(error_of(R"({"id": "a", "label": "biased"})").field, "reasoning");
  const auto scenario = error_of(R"({"id": "a", "reasoning": "x", "scenario": "zoo", "label": "biased"})");
  EXPECT_EQ(scenario.field, "scenario");
  EXPECT_EQ(scenario.id, "a");
  EXPECT_EQ(error_of(R"({"reasoning": "x", "attributes": ["shoe_size"], "label": "biased"})").field, "attributes");
  EXPECT_EQ(error_of("not json").line, 7);
}

TEST(TraceInput, LabelFilesStopAtTheFirstBadLine) {
  std::istringstream good("{\"reasoning\": \"a\", \"label\": \"biased\", \"model\": \"m1\"}\n\n{\"reasoning\": \"b\", \"label\": \"unbiased\"}\n");
  const auto traces = read_labelled_traces(good, "l.jsonl", table());
  ASSERT_EQ(traces.size(), 2u);
  EXPECT_TRUE(traces[0].biased);
  EXPECT_EQ(traces[0].model, "m1");
  EXPECT_EQ(traces[1].trace.id, "3");  // the line number when there is no id
  std::istringstream bad("{\"reasoning\": \"a\", \"label\": \"biased\"}\n{\"reasoning\": \"b\", \"label\": 1}\n");
  try {
    read_labelled_traces(bad, "l.jsonl", table());
    FAIL() << "no error";
  } catch (const codebias::base::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("l.jsonl:2"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("label"), std::string::npos) << error.what();
  }
}

}  // namespace
