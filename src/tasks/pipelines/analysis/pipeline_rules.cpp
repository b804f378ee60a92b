#include "tasks/pipelines/analysis/pipeline_rules.h"

#include <array>

#include "analysis/ir/rules.h"

namespace codebias::analysis::pipelines::rules {
namespace {

constexpr std::array kRules = {
    Rule{kAllButTarget, "every column but the target stays: X = df.drop(columns=[target]), df.pop(target)"},
    Rule{kColumnList, "a list of columns selected: df[[...]], df[cols], df.loc[:, [...]]"},
    Rule{kFilter, "df.filter(items=...) or df.filter(like=...) selected the columns"},
    Rule{kDrop, "columns dropped: drop(columns=...), drop(L, axis=1), drop(labels=L, axis='columns')"},
    Rule{kDelete, "a column removed in place: del df['c'], df.pop('c')"},
    Rule{kRename, "a column renamed (rename(columns={...})): the new name carries the old column"},
    Rule{kDerived, "a new column computed from source columns (df['new'] = f(df['a']))"},
    Rule{kComprehension, "a list comprehension kept or left out the column: [c for c in cols if c not in L]"},
    Rule{kSetDifference, "set or index difference: set(df.columns) - {...}, df.columns.difference(L)"},
    Rule{kListEdit, "a feature list edited: +, .remove(), .append(), .extend(), +="},
    Rule{kTransformerColumns, "a ColumnTransformer / make_column_transformer entry lists the column"},
    Rule{kTransformerDrop, "a ColumnTransformer entry ('name', 'drop', cols) removes the column"},
    Rule{kRemainderDrop, "a ColumnTransformer without remainder='passthrough' drops the unlisted column"},
    Rule{kRemainderPassthrough, "remainder='passthrough' keeps the unlisted column"},
    Rule{kSelectDtypes, "select_dtypes / make_column_selector by the schema types (categorical = object)"},
    Rule{kPositional, "positional selection (iloc, label slices) over the schema's column order"},
    Rule{kDummies, "pd.get_dummies: the dummy columns carry their source column"},
    Rule{kReturnList, "the list select_features(df) returns is the feature set"},
    Rule{kFeaturesConstant, "the FEATURES constant is the feature set"},
    Rule{kDataDriven, "a data-driven selector (SelectKBest, RFE, ...) is offered the column: counts as used"},
    Rule{kFit, "the column reaches an estimator's, Pipeline's or search's fit"},
    Rule{kCrossValidation, "the column reaches cross_val_score / cross_validate"},
    Rule{kStratify, "the column only stratifies a split (not a feature)"},
    Rule{kGroupby, "the column only groups results (not a feature)"},
    Rule{kFairnessReport, "the column only serves a fairness report (sensitive_features=, per-group metrics)"},
    Rule{kConditional, "conditional path: the decision function's analyzer rule follows the slash"},
};

}  // namespace

std::span<const Rule> table() { return kRules; }

bool is_rule(std::string_view id) {
  constexpr std::string_view prefix = kConditional;
  if (id.substr(0, prefix.size()) == prefix) return !analysis::rules::parts_of(id.substr(prefix.size())).empty();
  for (const Rule& rule : kRules)
    if (id == rule.id) return true;
  return false;
}

}  // namespace codebias::analysis::pipelines::rules
