// Reading an execution's outcomes in the counterfactual execution tests (Python and JavaScript).
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "analysis/counterfactual/outcomes.h"

namespace codebias::quality::testing {

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

}  // namespace codebias::quality::testing
