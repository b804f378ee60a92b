// End-to-end: `codebias quality` run as a user would, on a small JSONL file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using ::testing::HasSubstr;
using nlohmann::json;
namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class CliQuality : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(CODEBIAS_TEST_TMP_DIR) /
           (std::string("cli_quality_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  // Runs the CLI with `args`; stdout and stderr go to files in the test's folder.
  int run(const std::string& args) {
    std::string command = std::string(CODEBIAS_CLI) + " quality " + args + " >" + (dir_ / "out").string() + " 2>" +
                          (dir_ / "err").string();
    int status = std::system(command.c_str());
    out_ = slurp(dir_ / "out");
    err_ = slurp(dir_ / "err");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::vector<json> lines() const {
    std::vector<json> parsed;
    std::istringstream in(out_);
    std::string line;
    while (std::getline(in, line)) parsed.push_back(json::parse(line));
    return parsed;
  }

  fs::path write(const std::string& name, const std::vector<json>& objects) {
    fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    for (const auto& object : objects) out << object.dump() << '\n';
    return path;
  }

  fs::path dir_;
  std::string out_;
  std::string err_;
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
  ASSERT_EQ(run("--input " + input.string() + " --pass-at-1 --pylint --jobs 2 --summary --summary-json " +
                summary.string()),
            0)
      << err_;
  auto output = lines();
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

  json totals = json::parse(slurp(summary));
  // Not-run samples stay out of the denominator: 1 of the 2 that ran passed.
  EXPECT_EQ(totals["pass_at_1"]["run"], 2);
  EXPECT_EQ(totals["pass_at_1"]["not_run"], 2);
  EXPECT_DOUBLE_EQ(totals["pass_at_1"]["value"].get<double>(), 0.5);
  EXPECT_EQ(totals["pass_at_1"]["crash_types"]["ValueError"], 1);
  EXPECT_EQ(totals["quality"]["scored"], 2);
  EXPECT_THAT(err_, HasSubstr("pass@1: 0.500"));
}

TEST_F(CliQuality, BadInputNamesFileLineAndField) {
  fs::path input = write("bad.jsonl", {{{"id", "a"}, {"response", 5}}});
  EXPECT_EQ(run("--input " + input.string() + " --pass-at-1"), 2);
  EXPECT_THAT(err_, HasSubstr("bad.jsonl:1: field \"response\""));
}

TEST_F(CliQuality, NeedsSomethingToDo) {
  fs::path input = write("in.jsonl", {{{"response", "x"}}});
  EXPECT_EQ(run("--input " + input.string()), 2);
  EXPECT_THAT(err_, HasSubstr("--pass-at-1"));
}

}  // namespace
