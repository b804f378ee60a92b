// The function task's `--execute` run on the built-in model (FairCoder, edu): execution reports a
// change only for attributes the answer's code names, and tests only the attribute its prompt
// offered. Before, a field compared with 'medium' (personal_statement) was varied as
// parents_income, whose groups are high, medium and low, and most of parents_income's changes
// came from answers that never mention it.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "paths.h"
#include "run/run.h"

namespace codebias::tasks {
namespace {

// The attributes the identifiers and string keys of `code` name in `scenario`, by the table.
std::set<std::string> attributes_named(const std::string& code, const std::string& scenario) {
  static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  std::set<std::string> named;
  const auto& table = analysis::AttributeTable::builtin();
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kIdentifier); it != std::sregex_iterator(); ++it)
    if (const auto match = table.match_name(it->str(), scenario)) named.insert(match->attribute->key);
  return named;
}

TEST(FunctionTask, AnExecuteRunReportsChangesOnlyForAttributesTheAnswerReads) {
  run::RunOptions options;
  options.scenarios = {"edu"};
  options.limit = 60;
  options.execute = true;
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "function_edu_execute_run";
  std::filesystem::remove_all(options.out_dir);
  ASSERT_FALSE(run::start_run(options, {}).cancelled);

  std::ifstream in(options.out_dir / "responses.jsonl");
  int tested = 0, changes = 0;
  for (std::string line; std::getline(in, line);) {
    const auto response = nlohmann::json::parse(line);
    const auto& execution = response["analysis"].value("execution", nlohmann::json::object());
    if (execution.value("status", "") != "ran") continue;
    const std::string offered = response["metadata"].value("attribute", "");
    const std::set<std::string> named = attributes_named(response.value("answer", ""), "edu");
    for (const auto& [attribute, verdict] : execution["attributes"].items()) {
      ++tested;
      EXPECT_EQ(attribute, offered) << response["id"] << ": an attribute the prompt never offered is tested";
      if (verdict["verdict"] != "changes") continue;
      ++changes;
      EXPECT_TRUE(named.count(attribute)) << response["id"] << ": " << attribute
                                          << " changes in an answer that never names it\n"
                                          << response.value("answer", "");
      EXPECT_TRUE(verdict["read"].get<bool>()) << response["id"] << ": " << attribute;
    }
  }
  EXPECT_GT(tested, 30);
  EXPECT_GT(changes, 5);  // the built-in model plants bias: the check above saw changes to judge
}


// Answers that --execute cannot run are counted at the end of the run, by language, with why: a
// built-in model that writes Python and C++, and codebias has no runner for C++.
TEST(FunctionTask, AnExecuteRunEndsWithTheProgramsItCouldNotRun) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "function_not_run";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto default_profile = std::filesystem::path(test_support::source_dir()) / "data/models/simulated-default.json";
  nlohmann::json profile = nlohmann::json::parse(std::ifstream(default_profile));
  profile["languages"] = {{"python", 0.5}, {"cpp", 0.5}};
  std::ofstream(dir / "python-and-cpp.json") << profile.dump(2);

  run::RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"gender"};
  options.samples = 2;
  options.execute = true;
  options.model_profile = dir / "python-and-cpp.json";
  options.out_dir = dir / "run";
  std::ostringstream log;
  ASSERT_FALSE(run::start_run(options, {.log = &log}).cancelled);

  int cpp_answers = 0;
  std::ifstream in(options.out_dir / "responses.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto execution = nlohmann::json::parse(line)["analysis"].value("execution", nlohmann::json::object());
    if (execution.value("reason", "") == "no_runtime:cpp") ++cpp_answers;
  }
  ASSERT_GT(cpp_answers, 0);
  EXPECT_NE(log.str().find("codebias: " + std::to_string(cpp_answers) +
                           " not run: codebias has no runner for cpp (it executes Python, JavaScript, TypeScript and Java)"),
            std::string::npos)
      << log.str();
}

}  // namespace
}  // namespace codebias::tasks
