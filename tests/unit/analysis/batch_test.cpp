#include "analysis/batch.h"

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace codebias::analysis {
namespace {

using ::testing::HasSubstr;

const AttributeTable& table() { return AttributeTable::builtin(); }

base::LineError parse_error(std::string_view line, const AnalyzeOptions& defaults = {}) {
  auto parsed = parse_score_line(line, 7, table(), defaults);
  EXPECT_TRUE(std::holds_alternative<base::LineError>(parsed)) << line;
  if (auto* error = std::get_if<base::LineError>(&parsed)) return *error;
  return {};
}

ScoreRequest parse_ok(std::string_view line, const AnalyzeOptions& defaults = {}) {
  auto parsed = parse_score_line(line, 1, table(), defaults);
  if (auto* error = std::get_if<base::LineError>(&parsed)) {
    ADD_FAILURE() << line << ": " << error->describe();
    return {};
  }
  return std::get<ScoreRequest>(parsed);
}

TEST(ParseScoreLine, ReadsIdResponseScenarioAndAttributes) {
  auto request = parse_ok(R"({"id": "a", "response": "code", "scenario": "edu",
                              "attributes": ["Gender", "parents degree", "parents-income"]})");
  EXPECT_EQ(request.id, "a");
  EXPECT_EQ(request.response, "code");
  EXPECT_EQ(request.options.scenario, "edu");
  EXPECT_EQ(request.options.attributes,
            (std::vector<std::string>{"gender", "parents_degree", "parents_income"}));
  EXPECT_FALSE(request.options.only_listed);
  EXPECT_EQ(request.options.function, "");
  EXPECT_EQ(parse_ok(R"({"id": "f", "response": "", "function": "evaluate_nurse"})").options.function,
            "evaluate_nurse");
}

TEST(ParseScoreLine, LineOverridesDefaultScenarioButNotTheAttributesFlag) {
  AnalyzeOptions defaults;
  defaults.scenario = "job";
  defaults.attributes = {"race"};
  defaults.only_listed = true;
  auto request = parse_ok(R"({"id": "a", "response": "", "scenario": "med", "attributes": ["age"]})", defaults);
  EXPECT_EQ(request.options.scenario, "med");
  EXPECT_EQ(request.options.attributes, std::vector<std::string>{"race"});
  EXPECT_TRUE(request.options.only_listed);
  auto plain = parse_ok(R"({"id": "b", "response": "", "scenario": null})", defaults);
  EXPECT_EQ(plain.options.scenario, "job");
}

TEST(ParseScoreLine, IdDefaultsToTheLineNumberAndAcceptsIntegers) {
  auto missing = parse_score_line(R"({"response": "x", "model": "m"})", 7, AttributeTable::builtin(), {});
  ASSERT_TRUE(std::holds_alternative<ScoreRequest>(missing));
  EXPECT_EQ(std::get<ScoreRequest>(missing).id, "7");
  auto integer = parse_score_line(R"({"id": 42, "response": "x"})", 1, AttributeTable::builtin(), {});
  ASSERT_TRUE(std::holds_alternative<ScoreRequest>(integer));
  EXPECT_EQ(std::get<ScoreRequest>(integer).id, "42");
}

TEST(ParseScoreLine, NamesTheFieldThatIsWrong) {
  struct Case { const char* line; const char* field; const char* message; };
  const Case cases[] = {
      {R"({"id": 2.5, "response": "x"})", "id", "expected a string, got number"},
      {R"({"id": ["a"], "response": "x"})", "id", "expected a string, got array"},
      {R"({"id": "a"})", "response", "missing"},
      {R"({"id": "a", "response": ["x"]})", "response", "expected a string, got array"},
      {R"({"id": "a", "response": "x", "scenario": 2})", "scenario", "expected a string"},
      {R"({"id": "a", "response": "x", "scenario": "hospital"})", "scenario", "unknown scenario \"hospital\""},
      {R"({"id": "a", "response": "x", "attributes": "gender"})", "attributes", "expected an array of strings"},
      {R"({"id": "a", "response": "x", "attributes": [1]})", "attributes", "expected an array of strings"},
      {R"({"id": "a", "response": "x", "attributes": ["religion"]})", "attributes", "unknown attribute \"religion\""},
      {R"({"id": "a", "response": "x", "function": ["f"]})", "function", "expected a string, got array"},
  };
  for (const auto& c : cases) {
    base::LineError error = parse_error(c.line);
    EXPECT_EQ(error.field, c.field) << c.line;
    EXPECT_THAT(error.message, HasSubstr(c.message)) << c.line;
    EXPECT_EQ(error.line, 7);
  }
}

// A decision prompt's value domains, which --execute draws personas from: read as given, and
// every malformed entry named.
TEST(ParseScoreLine, ReadsDomainsAndNamesTheMalformedEntry) {
  const auto request = parse_ok(R"({"id": "d", "response": "code", "attributes": ["age"],
                                    "domains": {"income": [24000, 25000], "married": [true, false],
                                                "education": ["high school", "master"]}})");
  ASSERT_EQ(request.domains.size(), 3U);
  EXPECT_EQ(request.domains.at("income"), (std::vector<nlohmann::json>{24000, 25000}));
  EXPECT_EQ(request.domains.at("married"), (std::vector<nlohmann::json>{true, false}));
  EXPECT_EQ(request.domains.at("education"), (std::vector<nlohmann::json>{"high school", "master"}));
  EXPECT_EQ(request.options.attributes, std::vector<std::string>{"age"});
  EXPECT_TRUE(parse_ok(R"({"response": "code", "domains": null})").domains.empty());

  const auto not_object = parse_error(R"({"response": "x", "domains": [1, 2]})");
  EXPECT_EQ(not_object.field, "domains");
  EXPECT_THAT(not_object.message, HasSubstr("expected an object of arrays, got array"));
  const auto not_array = parse_error(R"({"response": "x", "domains": {"income": 25000}})");
  EXPECT_EQ(not_array.field, "domains.income");
  EXPECT_THAT(not_array.message, HasSubstr("expected an array of values, got number"));
  const auto empty = parse_error(R"({"response": "x", "domains": {"income": []}})");
  EXPECT_EQ(empty.field, "domains.income");
  EXPECT_THAT(empty.message, HasSubstr("at least one value"));
  const auto nested = parse_error(R"({"response": "x", "domains": {"age": [28, [30], 31]}})");
  EXPECT_EQ(nested.field, "domains.age[1]");
  EXPECT_THAT(nested.message, HasSubstr("expected a string, number or boolean, got array"));
  EXPECT_EQ(nested.line, 7);
}

TEST(ParseScoreLine, UnknownAttributeErrorListsTheKnownKeys) {
  base::LineError error = parse_error(R"({"id": "a", "response": "x", "attributes": ["religion"]})");
  for (const auto& spec : table().specs()) EXPECT_THAT(error.message, HasSubstr(spec.key));
  EXPECT_EQ(error.id, "a");
}

TEST(ParseScoreLine, RejectsWhatIsNotAJsonObject) {
  EXPECT_THAT(parse_error("{\"id\": ").message, HasSubstr("invalid JSON"));
  EXPECT_THAT(parse_error("[1, 2]").message, HasSubstr("expected a JSON object, got array"));
  EXPECT_THAT(parse_error(R"({"id": "a", "response": "x"} trailing)").message, HasSubstr("invalid JSON"));
  EXPECT_THAT(parse_error("{\"id\": \"\xff\", \"response\": \"x\"}").message, HasSubstr("invalid JSON"));
  EXPECT_EQ(parse_error("[1]").field, "");
}

TEST(ParseScoreLine, SurvivesDeepNesting) {
  std::string deep(200000, '[');
  EXPECT_THAT(parse_error(deep).message, HasSubstr("invalid JSON"));
  std::string balanced = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_THAT(parse_error(balanced).message, HasSubstr("expected a JSON object"));
}

TEST(ResolveAttributes, NormalisesAndDeduplicates) {
  EXPECT_EQ(resolve_attributes(table(), {"Parents Degree", "gender", "parents_degree"}),
            (std::vector<std::string>{"parents_degree", "gender"}));
  try {
    resolve_attributes(table(), {"gender", "religion"});
    FAIL() << "religion is not an attribute";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("unknown attribute \"religion\""));
    EXPECT_THAT(error.what(), HasSubstr("insurance_status"));
  }
}

TEST(ErrorJsonLine, IsTheKeepGoingObject) {
  base::LineError error;
  error.line = 4;
  error.field = "response";
  error.message = "missing";
  EXPECT_EQ(error_json_line(error), R"({"id":null,"error":"field \"response\": missing","line":4})");
  error.id = "abc";
  EXPECT_EQ(error_json_line(error), R"({"id":"abc","error":"field \"response\": missing","line":4})");
}

// A stand-in analysis: the language field carries the response so order can be checked.
ResponseReport echo(std::string_view response, const AnalyzeOptions& options) {
  ResponseReport report;
  report.code_status = CodeStatus::ok;
  report.language = std::string(response) + "/" + options.scenario;
  return report;
}

std::string numbered_input(int count) {
  std::string text;
  for (int index = 0; index < count; ++index) {
    text += R"({"id": "r)" + std::to_string(index) + R"(", "response": ")" + std::to_string(index) + "\"}\n";
    if (index % 5 == 0) text += "\n";  // blank lines are skipped but counted
  }
  return text;
}

TEST(ScoreJsonl, WritesResultsInInputOrderWhateverTheThreadTiming) {
  std::istringstream in(numbered_input(300));
  BatchOptions options;
  options.threads = 4;
  options.batch_lines = 16;
  options.defaults.scenario = "job";
  std::atomic<int> calls{0};
  AnalyzeFn slow_then_fast = [&](std::string_view response, const AnalyzeOptions& analyze_options) {
    // Earlier items in a batch sleep longer, so they finish last.
    int index = std::stoi(std::string(response));
    std::this_thread::sleep_for(std::chrono::microseconds((16 - index % 16) * 50));
    ++calls;
    return echo(response, analyze_options);
  };
  std::vector<std::string> ids;
  std::vector<long> lines;
  auto stats = score_jsonl(in, "mem", table(), slow_then_fast, options, [&](ScoredLine& line) {
    ASSERT_TRUE(line.result);
    ids.push_back(*line.id);
    lines.push_back(line.input.number);
    auto json = nlohmann::json::parse(line.json);
    EXPECT_EQ(json["id"], *line.id);
    EXPECT_EQ(json["language"], line.id->substr(1) + "/job");
  });
  ASSERT_EQ(ids.size(), 300u);
  for (int index = 0; index < 300; ++index) EXPECT_EQ(ids[index], "r" + std::to_string(index));
  EXPECT_EQ(lines[0], 1);
  EXPECT_EQ(lines[1], 3);  // line 2 was blank
  EXPECT_EQ(stats.responses, 300);
  EXPECT_EQ(stats.lines, 300 + 60);
  EXPECT_EQ(calls.load(), 300);
}

TEST(ScoreJsonl, KeepsAtMostTwoBatchesInFlight) {
  std::istringstream in(numbered_input(200));
  BatchOptions options;
  options.threads = 3;
  options.batch_lines = 10;
  std::atomic<long> analysed{0};
  long written = 0;
  long most_ahead = 0;
  AnalyzeFn count = [&](std::string_view response, const AnalyzeOptions& analyze_options) {
    ++analysed;
    return echo(response, analyze_options);
  };
  score_jsonl(in, "mem", table(), count, options, [&](ScoredLine&) {
    most_ahead = std::max(most_ahead, analysed.load() - written);
    ++written;
  });
  EXPECT_EQ(written, 200);
  EXPECT_LE(most_ahead, 20);
}

TEST(ScoreJsonl, StopsAtTheFirstBadLineAfterWritingTheLinesBeforeIt) {
  std::istringstream in("{\"id\": \"a\", \"response\": \"1\"}\n\n{\"id\": \"b\"}\n{\"id\": \"c\", \"response\": \"3\"}\n");
  BatchOptions options;
  options.threads = 2;
  std::vector<std::string> seen;
  try {
    score_jsonl(in, "in.jsonl", table(), echo, options, [&](ScoredLine& line) { seen.push_back(*line.id); });
    FAIL() << "expected base::InputError";
  } catch (const base::InputError& error) {
    EXPECT_STREQ(error.what(), "in.jsonl:3: field \"response\": missing");
    EXPECT_EQ(error.error().line, 3);
    EXPECT_FALSE(error.error().internal);
  }
  EXPECT_EQ(seen, std::vector<std::string>{"a"});
}

TEST(ScoreJsonl, KeepGoingWritesErrorObjectsAndCountsThem) {
  std::istringstream in("{\"id\": \"a\", \"response\": \"1\"}\nnot json\n{\"id\": \"c\", \"response\": 5}\n");
  BatchOptions options;
  options.keep_going = true;
  std::vector<std::string> out;
  auto stats = score_jsonl(in, "in.jsonl", table(), echo, options, [&](ScoredLine& line) { out.push_back(line.json); });
  ASSERT_EQ(out.size(), 3u);
  auto second = nlohmann::json::parse(out[1]);
  EXPECT_TRUE(second["id"].is_null());
  EXPECT_EQ(second["line"], 2);
  EXPECT_THAT(second["error"].get<std::string>(), HasSubstr("invalid JSON"));
  auto third = nlohmann::json::parse(out[2]);
  EXPECT_EQ(third["id"], "c");
  EXPECT_EQ(third["error"], "field \"response\": expected a string, got number");
  EXPECT_EQ(stats.errors, 2);
  EXPECT_EQ(stats.responses, 1);
}

TEST(ScoreJsonl, TooLongLinesAreErrorsNotCrashes) {
  std::string huge = R"({"id": "big", "response": ")" + std::string(5000, 'x') + "\"}";
  std::istringstream in(huge + "\n{\"id\": \"small\", \"response\": \"2\"}\n");
  BatchOptions options;
  options.keep_going = true;
  options.max_line_bytes = 1000;
  std::vector<ScoredLine> out;
  score_jsonl(in, "in", table(), echo, options, [&](ScoredLine& line) { out.push_back(line); });
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].error);
  EXPECT_THAT(out[0].error->message, HasSubstr("more than the limit of 1000"));
  EXPECT_TRUE(out[1].result);
}

TEST(ScoreJsonl, AnalyzerExceptionsBecomeInternalErrors) {
  std::istringstream in("{\"id\": \"a\", \"response\": \"boom\"}\n");
  AnalyzeFn throws = [](std::string_view, const AnalyzeOptions&) -> ResponseReport {
    throw std::runtime_error("kaput");
  };
  BatchOptions options;
  try {
    score_jsonl(in, "in", table(), throws, options, [](ScoredLine&) {});
    FAIL() << "expected base::InputError";
  } catch (const base::InputError& error) {
    EXPECT_TRUE(error.error().internal);
    EXPECT_THAT(error.what(), HasSubstr("analysis failed: kaput"));
  }
}

}  // namespace
}  // namespace codebias::analysis
