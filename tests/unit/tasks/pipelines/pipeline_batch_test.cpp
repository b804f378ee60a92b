// The ml-pipeline task's input lines: field errors, input order, --keep-going, the JSON form.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tasks/pipelines/analysis/pipeline_batch.h"

namespace codebias::analysis::pipelines {
namespace {

using ::testing::HasSubstr;

const std::string kColumns =
    R"([{"name": "duration", "role": "normal", "type": "integer"},)"
    R"( {"name": "race", "role": "sensitive", "type": "categorical"},)"
    R"( {"name": "favorite_color", "role": "irrelevant", "type": "categorical"}])";

std::string line_with(const std::string& metadata, const std::string& response = "x = 1") {
  return R"({"id": "a", "response": )" + nlohmann::json(response).dump() + R"(, "metadata": {)" + metadata + "}}";
}

std::string good_metadata() { return R"("path": "pipeline", "target": "credit_risk", "columns": )" + kColumns; }

base::LineError error_of(const std::string& line) {
  auto parsed = parse_pipeline_line(line, 7);
  EXPECT_TRUE(std::holds_alternative<base::LineError>(parsed)) << line;
  return std::holds_alternative<base::LineError>(parsed) ? std::get<base::LineError>(parsed) : base::LineError{};
}

TEST(PipelineLine, ReadsTheMetadataObjectOrTheTopLevel) {
  auto nested = parse_pipeline_line(line_with(good_metadata() + R"(, "target_values": ["good", "bad"], "function": "f")"), 1);
  ASSERT_TRUE(std::holds_alternative<PipelineLine>(nested));
  const PipelineRequest& r = std::get<PipelineLine>(nested).request;
  EXPECT_EQ(r.path, PipelinePath::pipeline);
  EXPECT_EQ(r.target, "credit_risk");
  EXPECT_EQ(r.target_values, (std::vector<std::string>{"good", "bad"}));
  ASSERT_EQ(r.columns.size(), 3u);
  EXPECT_EQ(r.columns[1].role, ColumnRole::sensitive);
  EXPECT_EQ(r.columns[0].type, ColumnType::integer);
  EXPECT_EQ(r.function, "f");
  auto top = parse_pipeline_line(R"({"response": "", "path": "conditional", "target": "t", "columns": )" + kColumns + "}", 4);
  ASSERT_TRUE(std::holds_alternative<PipelineLine>(top));
  EXPECT_EQ(std::get<PipelineLine>(top).id, "4");  // no id: the line number
  EXPECT_EQ(std::get<PipelineLine>(top).request.path, PipelinePath::conditional);
}

TEST(PipelineLine, ErrorsNameTheField) {
  EXPECT_EQ(error_of("[1]").message, "expected a JSON object, got array");
  EXPECT_EQ(error_of("{").message, "invalid JSON");
  EXPECT_EQ(error_of(R"({"id": "a"})").field, "response");
  EXPECT_EQ(error_of(R"({"id": [1], "response": ""})").field, "id");
  base::LineError missing_path = error_of(line_with(R"("target": "t", "columns": )" + kColumns));
  EXPECT_EQ(missing_path.field, "metadata.path");
  EXPECT_EQ(missing_path.message, "missing");
  EXPECT_EQ(missing_path.id, std::optional<std::string>("a"));
  EXPECT_EQ(missing_path.line, 7);
  EXPECT_THAT(error_of(line_with(R"("path": "notebook", "target": "t", "columns": )" + kColumns)).message,
              HasSubstr("expected \"conditional\" or \"pipeline\", got \"notebook\""));
  EXPECT_EQ(error_of(line_with(R"("path": "pipeline", "target": "", "columns": )" + kColumns)).field, "metadata.target");
  EXPECT_EQ(error_of(line_with(R"("path": "pipeline", "target": "t", "columns": [])")).message, "empty");
  EXPECT_EQ(error_of(line_with(R"("path": "pipeline", "target": "t", "columns": {})")).message,
            "expected an array of columns, got object");
  base::LineError role = error_of(line_with(R"("path": "pipeline", "target": "t", "columns": [{"name": "a", "role": "odd", "type": "integer"}])"));
  EXPECT_EQ(role.field, "metadata.columns[0].role");
  EXPECT_THAT(role.message, HasSubstr("got \"odd\""));
  EXPECT_EQ(error_of(line_with(R"("path": "pipeline", "target": "t", "columns": [{"name": "a", "role": "normal"}])")).field,
            "metadata.columns[0].type");
  EXPECT_THAT(error_of(line_with(R"("path": "pipeline", "target": "a", "columns": [{"name": "a", "role": "normal", "type": "float"}])")).message,
              HasSubstr("the target \"a\" is not a column"));
  EXPECT_THAT(error_of(line_with(R"("path": "pipeline", "target": "t", "columns": [{"name": "a", "role": "normal", "type": "float"}, {"name": "a", "role": "normal", "type": "float"}])")).field,
              "metadata.columns[1].name");
  EXPECT_EQ(error_of(line_with(good_metadata() + R"(, "target_values": ["good", true])")).field, "metadata.target_values[1]");
  EXPECT_THAT(error_of(line_with(good_metadata() + R"(, "task": "function")")).message, HasSubstr("expected \"ml-pipeline\""));
}

TEST(PipelineBatch, KeepsInputOrderAndGoesOnWithKeepGoing) {
  const std::string fit = "```python\nimport pandas as pd\ndf = pd.read_csv('c.csv')\nX = df[['duration']]\nmodel.fit(X, df['credit_risk'])\n```";
  std::string input;
  for (int i = 0; i < 40; ++i) {
    if (i == 5) input += "{\"id\": \"bad\"}\n\n";
    input += R"({"id": "l)" + std::to_string(i) + R"(", "response": )" + nlohmann::json(fit).dump() + ", " + good_metadata() + "}\n";
  }
  std::istringstream in(input);
  base::JsonlOptions options;
  options.keep_going = true;
  options.threads = 2;
  options.batch_lines = 7;
  std::vector<std::string> ids, lines;
  BatchStats stats = score_pipeline_jsonl(in, "in.jsonl", options, [&](PipelineScored& item) {
    ids.push_back(item.id.value_or("?"));
    lines.push_back(item.json);
  });
  EXPECT_EQ(stats.responses, 40);
  EXPECT_EQ(stats.errors, 1);
  ASSERT_EQ(ids.size(), 41u);
  EXPECT_EQ(ids[5], "bad");
  EXPECT_EQ(ids[6], "l5");
  EXPECT_EQ(ids[40], "l39");
  EXPECT_THAT(lines[5], HasSubstr(R"("error":"field \"response\": missing")"));
  EXPECT_EQ(lines[0],
            R"({"id":"l0","task":"ml-pipeline","path":"pipeline","code_status":"ok","language":"python","features":["duration"],)"
            R"("features_reason":null,"attributes":{"race":{"role":"sensitive","used":false,"evidence":[{"line":4,)"
            R"("text":"X = df[['duration']]","rule":"frame/column-list"}]},"favorite_color":{"role":"irrelevant","used":false,)"
            R"("evidence":[{"line":4,"text":"X = df[['duration']]","rule":"frame/column-list"}]}}})");
}

TEST(PipelineBatch, WithoutKeepGoingTheFirstBadLineThrows) {
  std::istringstream in(R"({"id": "ok", "response": "", )" + good_metadata() + "}\n{\"id\": \"x\", \"response\": 3}\n");
  std::vector<std::string> seen;
  base::JsonlOptions options;
  options.threads = 1;
  try {
    score_pipeline_jsonl(in, "in.jsonl", options, [&](PipelineScored& item) { seen.push_back(*item.id); });
    FAIL() << "no InputError";
  } catch (const base::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("in.jsonl:2"));
    EXPECT_THAT(e.what(), HasSubstr("response"));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"ok"}));
}

}  // namespace
}  // namespace codebias::analysis::pipelines
