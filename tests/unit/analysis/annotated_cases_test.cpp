// The annotated analyzer cases of tests/cases/: one test per file (its findings against its
// annotations), every rule of the table covered by a case, and the annotation grammar's errors.
#include <gmock/gmock.h>
#include "paths.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/ir/rules.h"
#include "annotated_case.h"

namespace codebias::test_support {
namespace {

namespace fs = std::filesystem;

const fs::path kCasesDir = fs::path(::codebias::test_support::source_dir()) / "tests" / "cases";

// Case files relative to tests/cases/, sorted; README.md is the grammar, not a case, and
// pipelines/ holds the feature-usage cases (tests/unit/tasks/pipelines/pipeline_cases_test.cpp),
// screening/ the résumé and CAT answers (tests/unit/tasks/screening/screening_cases_test.cpp),
// hiring_audit/ the hiring-audit answers (tests/unit/tasks/hiring_audit/hiring_answers_test.cpp).
std::vector<std::string> case_names() {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(kCasesDir); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && (it->path().filename() == "pipelines" || it->path().filename() == "screening" ||
                                it->path().filename() == "hiring_audit")) {
      it.disable_recursion_pending();
      continue;
    }
    const fs::directory_entry& entry = *it;
    if (entry.is_regular_file() && entry.path().filename() != "README.md")
      out.push_back(entry.path().lexically_relative(kCasesDir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

AnnotatedCase read_case(const std::string& name) {
  std::ifstream in(kCasesDir / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_annotated_case(name, text.str());
}

class AnnotatedCaseFile : public ::testing::TestWithParam<std::string> {};

TEST_P(AnnotatedCaseFile, FindingsMatchTheAnnotations) {
  AnnotatedCase annotated = read_case(GetParam());
  CaseOutcome outcome = check_annotated_case(annotated);
  for (const std::string& gap : outcome.gaps) std::cout << "todo: " << gap << "\n";
  std::string failures;
  for (const std::string& f : outcome.failures) failures += f + "\n";
  EXPECT_TRUE(outcome.failures.empty()) << failures;
}

// "python/compare_eq.py" -> "python_compare_eq"
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind('.'));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, AnnotatedCaseFile, ::testing::ValuesIn(case_names()), test_name);

TEST(AnnotatedCases, EveryRuleOfTheTableHasABiasCase) {
  std::set<const analysis::rules::Rule*> covered;
  for (const std::string& name : case_names()) {
    AnnotatedCase annotated = read_case(name);  // throws on a rule id not built from the table
    for (const LineExpectation& e : annotated.lines)
      if (e.bias && !e.todo)
        for (const analysis::rules::Rule* part : analysis::rules::parts_of(e.rule)) covered.insert(part);
  }
  std::string uncovered;
  for (const analysis::rules::Rule& rule : analysis::rules::table())
    if (rule.in_evidence && !covered.count(&rule)) uncovered += std::string(" ") + rule.id;
  EXPECT_EQ(uncovered, "") << "rule parts with no bias: case under tests/cases/";
}

TEST(AnnotatedCases, RuleIdsAreBuiltFromTheTable) {
  EXPECT_EQ(analysis::rules::parts_of("if-chain/else:compare-eq").size(), 3u);
  EXPECT_EQ(analysis::rules::parts_of("lookup/table").size(), 2u);
  EXPECT_EQ(analysis::rules::parts_of("compare-eq").size(), 1u);
  EXPECT_EQ(analysis::rules::parts_of("attribute-dependent").size(), 1u);
  EXPECT_TRUE(analysis::rules::parts_of("if-chain/").empty());
  EXPECT_TRUE(analysis::rules::parts_of("if-chain/compare-equal").empty());
  EXPECT_TRUE(analysis::rules::parts_of("loop/compare-eq").empty());
  EXPECT_TRUE(analysis::rules::parts_of("if-chain/before:compare-eq").empty());
}

std::string parse_error(const std::string& name, const std::string& text) {
  try {
    parse_annotated_case(name, text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(AnnotatedCaseGrammar, ErrorsNameFileAndLine) {
  using ::testing::HasSubstr;
  const std::string head = "# expect: gender unused\n";
  EXPECT_THAT(parse_error("python/a.py", head + "x = 1\n# bais: gender male=1 rule=if-chain/compare-eq\nx = 2\n"),
              HasSubstr("python/a.py:3: unknown annotation keyword 'bais:'"));
  EXPECT_THAT(parse_error("python/a.py", head + "# bias: gender male=1 rule=if-chain/equal\nx = 2\n"),
              HasSubstr("python/a.py:2: rule 'if-chain/equal' is not built from the rule table"));
  EXPECT_THAT(parse_error("python/a.py", head + "# bias: gender male=1\nx = 2\n"),
              HasSubstr("python/a.py:2: bias: needs rule="));
  EXPECT_THAT(parse_error("python/a.py", head + "# ok: gendre\nx = 2\n"),
              HasSubstr("python/a.py:2: unknown attribute 'gendre'"));
  EXPECT_THAT(parse_error("python/a.py", head + "x = 1\n# ok: gender\n"),
              HasSubstr("python/a.py:3: the annotation concerns no code line"));
  EXPECT_THAT(parse_error("python/a.py", "# expect: gender used\nx = 1\n"),
              HasSubstr("python/a.py:1: expected 'biased' or 'fair'"));
  EXPECT_THAT(parse_error("python/a.py", "# options: scenario=edu\nx = 1\n"),
              HasSubstr("python/a.py: no expect: line"));
  EXPECT_THAT(parse_error("c/a.py", head), HasSubstr("c/a.py: a c case ends in .c"));
  EXPECT_THAT(parse_error("ruby/a.rb", head), HasSubstr("names no language"));
  // Plain comments, even with a colon later on, are code to the grammar.
  EXPECT_EQ(parse_error("python/a.py", head + "# if c.gender == 'male': score += 1\n# TODO: more\nx = 1\n"), "");
}

TEST(AnnotatedCaseGrammar, AnnotationsConcernTheNextCodeLine) {
  AnnotatedCase c = parse_annotated_case("javascript/a.js",
                                         "// options: scenario=edu attributes=race,gender\n"
                                         "// expect: race used biased scores white=2\n"
                                         "function f(a) {\n"
                                         "  // bias: race white=2 rule=if-chain/compare-eq\n"
                                         "  // ok: gender\n"
                                         "  return a.race === 'white' ? 2 : 0;\n"
                                         "}\n");
  EXPECT_EQ(c.options.scenario, "edu");
  EXPECT_EQ(c.options.attributes, (std::vector<std::string>{"race", "gender"}));
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(c.lines[0].line, 6);
  EXPECT_EQ(c.lines[0].annotation_line, 4);
  EXPECT_EQ(c.lines[1].line, 6);
  EXPECT_FALSE(c.lines[1].bias);
  ASSERT_EQ(c.attributes.size(), 1u);
  EXPECT_EQ(c.attributes[0].scores, (std::map<std::string, double>{{"white", 2}}));
}

TEST(AnnotatedCaseCheck, NamesFileLineExpectedAndGot) {
  AnnotatedCase c = parse_annotated_case("python/a.py",
                                         "# expect: gender used biased scores male=3\n"
                                         "def f(c):\n"
                                         "    s = 0\n"
                                         "    if c.gender == 'male':\n"
                                         "        # bias: gender male=3 rule=if-chain/compare-eq\n"
                                         "        s += 2\n"
                                         "    if c.gender == 'female':\n"
                                         "        s += 1\n"
                                         "    return s\n");
  CaseOutcome outcome = check_annotated_case(c);
  EXPECT_THAT(
      outcome.failures,
      ::testing::UnorderedElementsAre(
          "python/a.py:1: expected gender used biased scores male=3; got gender used biased scores male=2 female=1",
          "python/a.py:6: expected bias: gender male=3 rule=if-chain/compare-eq; got bias: gender male=2 "
          "rule=if-chain/compare-eq",
          "python/a.py:8: evidence no annotation expects: bias: gender female=1 rule=if-chain/compare-eq"));
}

TEST(AnnotatedCaseCheck, TodoAnnotationsAreGapsNotFailures) {
  AnnotatedCase c = parse_annotated_case("python/a.py",
                                         "# expect: gender unused\n"
                                         "# todo-expect: gender used biased scores female=1\n"
                                         "def f(c):\n"
                                         "    # todo-bias: gender female=1 rule=if-chain/contains\n"
                                         "    # todo-ok: gender\n"
                                         "    return c.skill\n");
  CaseOutcome outcome = check_annotated_case(c);
  EXPECT_TRUE(outcome.failures.empty());
  EXPECT_THAT(
      outcome.gaps,
      ::testing::ElementsAre(
          "python/a.py:2: expected gender used biased scores female=1; got gender unused (known gap)",
          "python/a.py:6: expected bias: gender female=1 rule=if-chain/contains; got no evidence of gender (known gap)",
          "python/a.py:5: todo now holds, make it ok:"));
}

}  // namespace
}  // namespace codebias::test_support
