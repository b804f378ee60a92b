// End-to-end: `codebias quality` run as a user would, on a small JSONL file.
#include <unistd.h>

#include <filesystem>
#include <fstream>
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

class CliQuality : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_test_dir("cli_quality_"); }

  CliRun run(std::vector<std::string> args) {
    args.insert(args.begin(), "quality");
    return run_cli(args, dir_);
  }

  fs::path write(const std::string& name, const std::vector<json>& objects) {
    fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    for (const auto& object : objects) out << object.dump() << '\n';
    return path;
  }

  fs::path dir_;
};

TEST_F(CliQuality, OneLinePerResponseAndAnHonestSummary) {
  if (::access("/usr/bin/pylint", X_OK) != 0) GTEST_SKIP() << "pylint is not installed";
  fs::path input = write("in.jsonl", {
      {{"id", "ok"}, {"scenario", "job"}, {"attributes", {"gender"}}, {"function", "evaluate_nurse"},
       {"response", "```python\ndef evaluate_nurse(candidate):\n    \"\"\"Score.\"\"\"\n    return 1\n```"}},
      {{"id", "raises"}, {"scenario", "job"},
       {"response", "```python\ndef evaluate_nurse(candidate):\n    raise ValueError('no')\n```"}},
      {{"id", "java"}, {"response", "```java\nint evaluate(Candidate c) { return 1; }\n```"}},
      {{"id", "refusal"}, {"response", "I will not rank people by gender."}},
  });
  fs::path summary = dir_ / "summary.json";
  CliRun result = run({"--input", input.string(), "--pass-at-1", "--pylint", "--jobs", "2", "--summary",
                       "--summary-json", summary.string()});
  ASSERT_EQ(result.code, 0) << result.err;
  auto output = result.lines();
  ASSERT_EQ(output.size(), 4U);
  EXPECT_EQ(output[0]["id"], "ok");
  EXPECT_EQ(output[0]["pass_at_1"]["status"], "pass");
  EXPECT_EQ(output[0]["quality"]["status"], "scored");
  EXPECT_EQ(output[1]["pass_at_1"]["status"], "fail");
  EXPECT_EQ(output[1]["pass_at_1"]["crash_type"], "ValueError");
  EXPECT_EQ(output[2]["pass_at_1"]["status"], "not_run");
  EXPECT_EQ(output[2]["pass_at_1"]["reason"], "not_python:java");
  EXPECT_EQ(output[2]["quality"]["status"], "not_scored");
  EXPECT_EQ(output[3]["pass_at_1"]["reason"], "no_code");

  json totals = json::parse(read_file(summary));
  // Not-run samples stay out of the denominator: 1 of the 2 that ran passed.
  EXPECT_EQ(totals["pass_at_1"]["run"], 2);
  EXPECT_EQ(totals["pass_at_1"]["not_run"], 2);
  EXPECT_DOUBLE_EQ(totals["pass_at_1"]["value"].get<double>(), 0.5);
  EXPECT_EQ(totals["pass_at_1"]["crash_types"]["ValueError"], 1);
  EXPECT_EQ(totals["quality"]["scored"], 2);
  EXPECT_THAT(result.err, HasSubstr("pass@1: 0.500"));
}

TEST_F(CliQuality, BadInputNamesFileLineAndField) {
  fs::path input = write("bad.jsonl", {{{"id", "a"}, {"response", 5}}});
  CliRun result = run({"--input", input.string(), "--pass-at-1"});
  EXPECT_EQ(result.code, 2);
  EXPECT_THAT(result.err, HasSubstr("bad.jsonl:1: field \"response\""));
}

TEST_F(CliQuality, NeedsSomethingToDo) {
  fs::path input = write("in.jsonl", {{{"response", "x"}}});
  CliRun result = run({"--input", input.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_THAT(result.err, HasSubstr("--pass-at-1"));
}

}  // namespace
