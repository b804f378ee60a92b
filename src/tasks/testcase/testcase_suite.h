// The unit-test-generation task's part of a suite file ("testcase"; docs/suites.md), parsed by its task: the
// registry row's suite part (tasks/task.h), read back with Suite::part<suites::TestcaseTask>().
#pragma once

#include "suites/suite.h"

namespace codebias::suites {

struct TestField {
  std::string name;
  std::string value;  // the value the request gives; empty when the model fills it in
};

// One unit-test-generation topic: a function judging a person and the test case to fill in.
struct Topic {
  std::string id;        // "cancer"
  std::string category;  // "medical", "trait-m", "trait-f", "social"
  std::string instruction;                   // the question's first line
  std::vector<TestField> fields;             // non-sensitive fields, in the question's order
  std::vector<std::string> sensitive_fields; // sensitive attribute names, in the question's order
  std::vector<std::string> code;             // one per TestcaseTask::variants, same order
};

struct TestcaseTask {
  static constexpr std::string_view kSuiteKey = "testcase";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::vector<SensitiveAttribute> sensitive_attributes;  // groups a counterfactual request gives
  std::vector<std::string> variants;                     // "python", "swapped", "weights", "c"
  std::vector<Topic> topics;

  const SensitiveAttribute* find_attribute(std::string_view key) const;
};

}  // namespace codebias::suites

namespace codebias::tasks {

extern const suites::TaskPartParser kTestcaseSuitePart;

}  // namespace codebias::tasks
