// `codebias suites`: every built-in suite with its task, what it measures, its paper, its size and
// an example; the README's table is the command's output, and `run --help` names the same suites.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"
#include "paths.h"

namespace codebias {
namespace {

test_support::CliRun run(const std::vector<std::string>& args) {
  return test_support::run_cli(args, test_support::fresh_test_dir("cli_suites_"));
}

TEST(CliSuites, EverySuiteSaysWhatItMeasuresWithItsPaperSizeAndExample) {
  const auto result = run({"suites", "--format", "json"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto suites = nlohmann::json::parse(result.out);
  std::vector<std::string> names;
  for (const auto& suite : suites) {
    const std::string name = suite["name"];
    names.push_back(name);
    EXPECT_FALSE(suite["task"].get<std::string>().empty()) << name;
    EXPECT_GT(suite["measures"].get<std::string>().size(), 40u) << name;
    EXPECT_FALSE(suite["paper"].get<std::string>().empty()) << name;
    EXPECT_EQ(suite["example"].get<std::string>().rfind("codebias run --suite " + name + " ", 0), 0u) << name;
    EXPECT_GT(suite["default_prompts"].get<int>(), 0) << name;
    EXPECT_GE(suite["default_samples"].get<int>(), suite["default_prompts"].get<int>()) << name;
    EXPECT_GE(suite["full_prompts"].get<int>(), suite["default_prompts"].get<int>()) << name;
  }
  // Every file of data/suites/, by file name.
  EXPECT_EQ(names, (std::vector<std::string>{"bad-cat", "bad-resume", "faircoder", "hiring-audit", "huang",
                                                    "ml-pipelines", "solar"}));
}

TEST(CliSuites, ReadmeTableIsTheCommandsOutput) {
  const auto result = run({"suites", "--format", "md"});
  ASSERT_EQ(result.code, 0) << result.err;
  const std::string readme = test_support::read_file(std::filesystem::path(test_support::source_dir()) / "README.md");
  const std::string begin = "<!-- codebias suites --format md -->\n";
  const auto start = readme.find(begin);
  const auto end = readme.find("<!-- end codebias suites -->");
  ASSERT_NE(start, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(readme.substr(start + begin.size(), end - start - begin.size()), result.out)
      << "README.md's suite table is stale: paste `codebias suites --format md` between its markers";
}

TEST(CliSuites, RunHelpNamesEveryBuiltInSuite) {
  const auto result = run({"run", "--help"});
  const std::string help = result.out + result.err;
  for (const char* name : {"faircoder", "ml-pipelines", "bad-resume", "bad-cat", "solar", "huang"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
  EXPECT_NE(help.find("codebias suites"), std::string::npos);
}

}  // namespace
}  // namespace codebias
