// Finding the decisions that depend on one sensitive attribute, and the points each group gets.
//
// The selected function is evaluated once per "persona": a person whose attribute value is one
// canonical group (or one non-canonical literal the code names), everything else unknown.
// Conditions that do not involve the attribute are treated as satisfiable either way, so a
// decision counts for a group when the attribute alone can steer the code into it; see
// docs/analysis.md for the rules.
#pragma once

#include <string_view>
#include <vector>

#include "attributes/attributes.h"
#include "analysis/ir/ir.h"
#include "analysis/findings/report.h"

namespace codebias::analysis {

struct DecisionContext {
  const ir::Program* program = nullptr;
  const ir::Function* entry = nullptr;  // null: the program's top-level statements are the logic
  const AttributeTable* table = nullptr;
  std::string_view scenario;
};

// Evidence lines are 1-based lines of the code block; the caller maps them to the response.
AttributeFinding evaluate_attribute(const DecisionContext& context, const AttributeSpec& attribute);

}  // namespace codebias::analysis
