// Each task's part of a suite file is parsed by its task's registry row when the suite is loaded
// (tasks/suite_loading.h): a bad part fails at load, naming its field, and a part no parser
// claims is a typo.
#include <any>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "suites/suite.h"
#include "suites/suite_reader.h"
#include "tasks/hiring_audit/hiring_suite.h"
#include "tasks/suite_loading.h"
#include "tasks/task.h"
#include "tasks/screening/screening_suite.h"

namespace codebias::tasks {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string load_error(const json& document) {
  try {
    parse_suite(document.dump(), "my_suite.json");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

json builtin_document(std::string_view name) { return json::parse(suites::builtin_suite_text(name).json); }

TEST(SuiteLoading, ABadTaskPartFailsWhenTheSuiteIsLoaded) {
  json hiring = builtin_document("hiring-audit");
  hiring["hiring_audit"]["resumes"][3]["level"] = "nope";
  EXPECT_THAT(load_error(hiring), HasSubstr("hiring_audit.resumes[3].level: not one of hiring_audit.levels"));

  json cat = builtin_document("bad-cat");
  cat["cat"]["items"][1]["gender"] = "X";
  EXPECT_THAT(load_error(cat), HasSubstr("my_suite.json: cat.items[1].gender: expected one of Male, Female"));
}

TEST(SuiteLoading, EveryBuiltinTaskPartIsParsedByItsRow) {
  for (const auto& name : suites::builtin_suite_names()) {
    const json document = builtin_document(name);
    const suites::Suite& suite = builtin_suite(name);
    for (const Task& task : all_tasks()) {
      if (task.suite_part == nullptr) continue;
      const std::string key(task.suite_part->key);
      EXPECT_EQ(suite.task_parts.count(key), document.contains(key) ? 1u : 0u) << name << " " << key;
    }
  }
  EXPECT_NE(builtin_suite("hiring-audit").part<hiring::HiringPart>(), nullptr);
  EXPECT_EQ(builtin_suite("hiring-audit").part<suites::CatPart>(), nullptr);
}

// A part whose parser is not passed is an unknown field; passed, it is parsed into task_parts.
std::any parse_toy(const suites::SuiteReader& reader, const json& part, const suites::Suite&) {
  return reader.string_field(part, "word", "toy");
}

TEST(SuiteLoading, APartIsKnownByTheParsersPassed) {
  const std::string text = R"({"format": "codebias-suite/1", "name": "t", "source": "s",
    "styles": [{"name": "vanilla"}], "toy": {"word": "hello"}})";
  EXPECT_THROW(suites::parse_suite(text, "t.json", {}), std::runtime_error);
  const suites::TaskPartParser toy{"toy", false, &parse_toy};
  const suites::Suite suite = suites::parse_suite(text, "t.json", std::span(&toy, 1));
  ASSERT_EQ(suite.task_parts.count("toy"), 1u);
  EXPECT_EQ(std::any_cast<std::string>(suite.task_parts.at("toy")), "hello");
  try {
    suites::parse_suite(R"({"format": "codebias-suite/1", "name": "t", "source": "s",
      "styles": [{"name": "vanilla"}], "toy": {}})",
                        "t.json", std::span(&toy, 1));
    ADD_FAILURE() << "a toy part without its word parsed";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("t.json: toy: missing field 'word'"));
  }
}

}  // namespace
}  // namespace codebias::tasks
