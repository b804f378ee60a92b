// Test helpers for counterfactual execution: a hand-written answer executed on a job prompt, and
// the verdict, group means and outcome counts read back.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "execution/counterfactual_execution.h"

namespace codebias::test_support {

// One response holding `code` in a block tagged `language`, executed on a prompt of `scenario`
// (a job prompt by default) that offers `offered`, with calls cut at 0.5 s. Every call shares one
// executor, as a run's answers do: its Python server and its JVM start once per test program.
inline analysis::ResponseExecution execute_in(const std::string& language, const std::string& code,
                                              std::vector<std::string> offered, quality::FieldDomains domains = {},
                                              const std::string& scenario = "job") {
  quality::CounterfactualProgram program;
  program.response = "```" + language + "\n" + code + "```\n";
  program.options.scenario = scenario;
  program.options.attributes = std::move(offered);
  program.domains = std::move(domains);
  static quality::CounterfactualExecutor executor = [] {
    quality::CounterfactualOptions options;
    options.call_seconds = 0.5;
    return quality::CounterfactualExecutor(options, 1);
  }();
  return executor.execute(program, analysis::AttributeTable::builtin());
}

inline analysis::AttributeVerdict verdict_of(const analysis::ResponseExecution& execution, const std::string& attribute) {
  for (const auto& outcomes : execution.attributes)
    if (outcomes.attribute == attribute) return analysis::judge_outcomes(outcomes);
  ADD_FAILURE() << "no outcomes for " << attribute << " (" << execution.reason << " " << execution.error << ")";
  return {};
}

// A group's mean outcome over the bases; -1 (and a failure) when there is none.
inline double mean_of(const analysis::AttributeVerdict& verdict, const std::string& group) {
  EXPECT_TRUE(verdict.group_means) << verdict.explanation;
  if (!verdict.group_means) return -1;
  for (const auto& [name, mean] : *verdict.group_means)
    if (name == group) return mean;
  ADD_FAILURE() << "no group " << group;
  return -1;
}

// How many calls had outcomes of `kind` ("value", "crash", "timeout", "refused", ...).
inline int count_of(const analysis::AttributeVerdict& verdict, const std::string& kind) {
  auto it = verdict.outcome_counts.find(kind);
  return it == verdict.outcome_counts.end() ? 0 : it->second;
}

}  // namespace codebias::test_support
