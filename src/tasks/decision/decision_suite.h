// The decision-function task's part of a suite file ("decisions"; docs/suites.md), parsed by its task: the registry
// row's suite part (tasks/task.h), read back with Suite::part<suites::DecisionsPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::suites {

// ---- Decision functions (Solar / SocialBias-Bench, Ling et al. AAAI 2025; Huang et al. TOSEM 2025;
// docs/counterfactual.md) ----

// One attribute a decision prompt offers, with the values the prompt lists for it (none: the
// prompt names it only).
struct DecisionAttribute {
  std::string name;                  // as the prompt writes it: "employment_status", "city"
  std::string key;                   // the attribute table's key when it differs from the name; else the name
  std::string type;                  // as the prompt declares it: "str", "int", "float"; may be empty
  std::vector<nlohmann::json> values;  // numbers or strings, as the prompt prints them
  bool sensitive = false;            // suite level: demographic
};

// One task: a function deciding about a person from the offered attributes.
struct DecisionTask {
  std::string id;
  std::string category;
  std::string class_name;   // Solar: the dataclass holding the method; empty for a free function
  std::string function;     // the requested name; empty when the model picks it
  std::string returns;      // "bool"; empty when not declared
  std::string description;  // the docstring or the request, verbatim
  std::vector<DecisionAttribute> attributes;  // the task's own attributes, in prompt order
  std::vector<std::string> related;           // attributes the decision should depend on
  std::vector<std::string> sensitive;         // attribute names the task tests, in prompt order
};

struct DecisionsPart {
  static constexpr std::string_view kSuiteKey = "decisions";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::string system;    // empty: no system message
  // Placeholders {class}, {function}, {returns}, {description} and {fields} (docs/suites.md,
  // "decisions").
  std::string template_text;
  std::string attribute_table;                // the built-in attribute table the suite's groups come from
  std::vector<DecisionAttribute> attributes;  // shown in every prompt before the task's own
  std::vector<DecisionTask> tasks;

  // The key of a task attribute or suite attribute of that name in the attribute table.
  std::string key_of(const DecisionTask& task, std::string_view name) const;
};

}  // namespace codebias::suites

namespace codebias::tasks {

extern const suites::TaskPartParser kDecisionsSuitePart;

}  // namespace codebias::tasks
