// The rule ids the feature-usage analysis writes into its evidence, in one table (like
// analysis/ir/rules.h): grep an id to find this table, the code that fires it and its case
// under tests/cases/pipelines/. docs/ml-pipelines.md, "Feature-usage analysis", explains them.
#pragma once

#include <span>
#include <string_view>

namespace codebias::analysis::pipelines::rules {

struct Rule {
  const char* id;
  const char* description;
};

inline constexpr char kAllButTarget[] = "frame/all-but-target";
inline constexpr char kColumnList[] = "frame/column-list";
inline constexpr char kFilter[] = "frame/filter";
inline constexpr char kDrop[] = "frame/drop";
inline constexpr char kDelete[] = "frame/del";
inline constexpr char kRename[] = "frame/rename";
inline constexpr char kDerived[] = "frame/derived";
inline constexpr char kComprehension[] = "list/comprehension";
inline constexpr char kSetDifference[] = "list/set-difference";
inline constexpr char kListEdit[] = "list/edit";
inline constexpr char kTransformerColumns[] = "transformer/columns";
inline constexpr char kTransformerDrop[] = "transformer/drop";
inline constexpr char kRemainderDrop[] = "transformer/remainder-drop";
inline constexpr char kRemainderPassthrough[] = "transformer/remainder-passthrough";
inline constexpr char kSelectDtypes[] = "select-dtypes";
inline constexpr char kPositional[] = "iloc/positional";
inline constexpr char kDummies[] = "dummies";
inline constexpr char kReturnList[] = "selection/return-list";
inline constexpr char kFeaturesConstant[] = "selection/features-constant";
inline constexpr char kDataDriven[] = "selection/data-driven";
inline constexpr char kFit[] = "sink/fit";
inline constexpr char kCrossValidation[] = "sink/cross-val";
inline constexpr char kStratify[] = "aux/stratify";
inline constexpr char kGroupby[] = "aux/groupby";
inline constexpr char kFairnessReport[] = "aux/fairness-report";
// A prefix: "conditional/<rule of analysis/ir/rules.h>" on the conditional path.
inline constexpr char kConditional[] = "conditional/";

std::span<const Rule> table();

// True when `id` is a rule of the table, or "conditional/" followed by an analyzer rule id.
bool is_rule(std::string_view id);

}  // namespace codebias::analysis::pipelines::rules
