// End-to-end tests of `codebias score`: the binary is run as a user would run it.
#include <algorithm>
#include "paths.h"
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"

namespace {

using ::testing::HasSubstr;
using codebias::test_support::CliRun;
using codebias::test_support::fresh_test_dir;
using codebias::test_support::read_file;
using codebias::test_support::run_cli;
using nlohmann::json;
namespace fs = std::filesystem;

class CliScore : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_test_dir("cli_"); }

  fs::path write(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  CliRun run(const std::vector<std::string>& args, const std::string& stdin_file = "") {
    return run_cli(args, dir_, stdin_file);
  }

  fs::path dir_;
};

const std::string kExamples = ::codebias::test_support::source_dir() + "/examples/responses.jsonl";

TEST_F(CliScore, HelpListsTheScoreSubcommand) {
  CliRun help = run({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, HasSubstr("score"));
  CliRun none = run({});
  EXPECT_EQ(none.code, 2);
}

// Holds for any analyzer: the output follows the contract's shape, one line per input line.
TEST_F(CliScore, OutputFollowsTheContractOnTheExamples) {
  CliRun result = run({"score", "--input", kExamples, "--threads", "2"});
  ASSERT_EQ(result.code, 0) << result.err;
  auto lines = result.lines();
  std::vector<std::string> ids;
  std::ifstream in(kExamples);
  for (std::string line; std::getline(in, line);) ids.push_back(json::parse(line)["id"]);
  ASSERT_EQ(lines.size(), ids.size());
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const json& line = lines[index];
    EXPECT_EQ(line["id"], ids[index]);
    ASSERT_TRUE(line["code_status"].is_string());
    EXPECT_THAT((std::vector<std::string>{"ok", "no_code", "truncated", "unparseable"}),
                ::testing::Contains(line["code_status"].get<std::string>()));
    ASSERT_TRUE(line["language"].is_string());
    ASSERT_TRUE(line["attributes"].is_object());
    for (const auto& [attribute, finding] : line["attributes"].items()) {
      SCOPED_TRACE(ids[index] + " " + attribute);
      EXPECT_TRUE(finding["used"].is_boolean());
      EXPECT_TRUE(finding["biased"].is_boolean());
      EXPECT_TRUE(finding["scores"].is_null() || finding["scores"].is_object());
      EXPECT_TRUE(finding["other_values"].is_object());
      EXPECT_TRUE(finding["effect"].is_null() || finding["effect"].is_string());
      ASSERT_TRUE(finding["evidence"].is_array());
      for (const auto& evidence : finding["evidence"]) {
        EXPECT_TRUE(evidence["line"].is_number_integer());
        EXPECT_TRUE(evidence["text"].is_string());
        EXPECT_TRUE(evidence["groups"].is_array());
        EXPECT_TRUE(evidence["amount"].is_null() || evidence["amount"].is_number());
        EXPECT_TRUE(evidence["rule"].is_string());
      }
    }
  }
  // A prose-only refusal has no code.
  EXPECT_EQ(lines[3]["id"], "ex04-refusal");
  EXPECT_EQ(lines[3]["code_status"], "no_code");
}

TEST_F(CliScore, ManyLinesOnManyThreadsKeepInputOrder) {
  std::string input;
  for (int index = 0; index < 700; ++index) {
    input += R"({"id": "n)" + std::to_string(index) + R"(", "response": "def f(c):\n    return )" +
             std::to_string(index) + R"("})" + "\n";
  }
  CliRun result = run({"score", "--input", write("many.jsonl", input).string(), "--threads", "4"});
  ASSERT_EQ(result.code, 0) << result.err;
  auto lines = result.lines();
  ASSERT_EQ(lines.size(), 700u);
  for (int index = 0; index < 700; ++index) EXPECT_EQ(lines[index]["id"], "n" + std::to_string(index));
}

TEST_F(CliScore, ReadsStdinAndWritesOutputFile) {
  fs::path out = dir_ / "out.jsonl";
  CliRun result = run({"score", "--input", "-", "--output", out.string()}, kExamples);
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  std::string written = read_file(out);
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 8);
}

TEST_F(CliScore, MalformedLineNamesFileLineAndField) {
  fs::path input = write("bad.jsonl", "{\"id\": \"a\", \"response\": \"x\"}\n{\"id\": \"b\", \"response\": 42}\n");
  CliRun result = run({"score", "--input", input.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_THAT(result.err, HasSubstr(input.string() + ":2: field \"response\": expected a string, got number"));
  auto lines = result.lines();
  ASSERT_EQ(lines.size(), 1u);  // the line before the bad one was written
  EXPECT_EQ(lines[0]["id"], "a");
}

TEST_F(CliScore, KeepGoingWritesErrorObjectsAndExitsZero) {
  fs::path input = write("bad.jsonl", "{\"id\": \"a\", \"response\": \"x\"}\n{oops\n{\"id\": \"c\"}\n");
  CliRun result = run({"score", "--input", input.string(), "--keep-going"});
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("2 of 3 input lines had errors"));
  auto lines = result.lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["id"], "a");
  EXPECT_TRUE(lines[1]["id"].is_null());
  EXPECT_EQ(lines[1]["line"], 2);
  EXPECT_THAT(lines[1]["error"].get<std::string>(), HasSubstr("invalid JSON"));
  EXPECT_EQ(lines[2]["id"], "c");
  EXPECT_EQ(lines[2]["error"], "field \"response\": missing");
}

TEST_F(CliScore, ArbitraryBytesNeverCrashAndOutputStaysValidUtf8) {
  std::string garbage;
  for (int index = 0; index < 4096; ++index) garbage += static_cast<char>((index * 131 + 7) % 256);
  std::string input = garbage + "\n" + std::string("\0\0\0", 3) + "\n" +
                      "{\"id\": \"\xc3\x28\", \"response\": \"\xff\"}\n" +
                      "{\"id\": \"ok\", \"response\": \"caf\xc3\xa9 \\u0000 \\ud800\"}\n" +
                      std::string(3 << 20, '{') + "\n";
  CliRun result = run({"score", "--input", write("garbage.jsonl", input).string(), "--keep-going"});
  EXPECT_EQ(result.code, 0) << result.err;
  std::vector<json> lines;
  ASSERT_NO_THROW(lines = result.lines());  // json::parse rejects invalid UTF-8
  ASSERT_GE(lines.size(), 4u);
  EXPECT_TRUE(lines.back().contains("error"));
}

TEST_F(CliScore, AttributesFlagIsNormalisedAndChecked) {
  CliRun ok = run({"score", "--input", kExamples, "--attributes", "Parents Degree,gender"});
  ASSERT_EQ(ok.code, 0) << ok.err;
  for (const auto& line : ok.lines()) {
    for (const auto& [attribute, finding] : line["attributes"].items()) {
      EXPECT_THAT((std::vector<std::string>{"parents_degree", "gender"}), ::testing::Contains(attribute));
    }
  }
  CliRun bad = run({"score", "--input", kExamples, "--attributes", "gender,religion"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("unknown attribute \"religion\""));
  EXPECT_THAT(bad.err, HasSubstr("insurance_status"));
  EXPECT_EQ(bad.out, "");
}

TEST_F(CliScore, BadUsageExitsTwo) {
  EXPECT_EQ(run({"score"}).code, 2);  // --input is required
  EXPECT_EQ(run({"score", "--input", kExamples, "--scenario", "hospital"}).code, 2);
  EXPECT_EQ(run({"score", "--input", (dir_ / "missing.jsonl").string()}).code, 2);
  EXPECT_EQ(run({"score", "--input", kExamples, "--block", "0"}).code, 2);
}

TEST_F(CliScore, SummaryJsonIsWritten) {
  fs::path summary = dir_ / "summary.json";
  CliRun result = run({"score", "--input", kExamples, "--summary", "--summary-json", summary.string(), "--block", "4"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_FALSE(result.err.empty());  // the --summary table
  json parsed = json::parse(read_file(summary));
  EXPECT_EQ(parsed["n"], 8);
  EXPECT_EQ(parsed["block"], 4);
  EXPECT_TRUE(parsed["attributes"].is_object());
}

}  // namespace
