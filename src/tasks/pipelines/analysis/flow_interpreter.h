// An abstract interpreter over the Python tree: every variable holds an abstract value (a frame
// with the labels of its columns, a list of column names, an estimator, a ColumnTransformer, a
// tuple, or unknown), each label carrying the schema columns it came from. Values are shared
// objects, so `X = df` aliases and `df.drop(..., inplace=True)` changes both. Column sets are
// kept as "surely" / "maybe" so that an undecidable step (an unknown helper, a data-dependent
// filter) still leaves proven uses and proven drops.
//
// The member functions live in one file per concept: flow_interpreter.cpp (the driver, helpers
// and the verdict), flow_frame_ops.cpp (frames, name lists, column masks), flow_estimator_ops.cpp
// (scikit-learn), flow_calls.cpp, flow_expressions.cpp and flow_statements.cpp.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/parsing/syntax.h"
#include "tasks/pipelines/analysis/flow_values.h"
#include "tasks/pipelines/analysis/pipeline_flow.h"
#include "tasks/pipelines/analysis/pipeline_request.h"

namespace codebias::analysis::pipelines::flow {

class Flow {
 public:
  Flow(const PipelineRequest& request) : request_(request) {
    const int n = static_cast<int>(request.columns.size());
    target_ = n;
    all_ = (Mask{1} << (n + 1)) - 1;
    for (int i = 0; i < n; ++i) index_[normalize_label(request.columns[static_cast<size_t>(i)].name)] = i;
    index_[normalize_label(request.target)] = n;
    scopes_.emplace_back();
  }

  FlowResult run(std::span<const CodeUnit> units);

 private:
  struct Function {
    TSNode node;
    const CodeUnit* unit;
    bool called = false;
  };

  const PipelineRequest& request_;
  int target_ = 0;
  Mask all_ = 0;
  std::map<std::string, int> index_;
  std::vector<Scope> scopes_;
  std::map<std::string, Function> functions_;  // functions and methods (by their bare names)
  std::set<std::string> classes_;
  std::vector<std::string> call_stack_;
  const CodeUnit* unit_ = nullptr;
  std::span<const CodeUnit> units_;
  size_t block_ = 0;                   // the code block being run (a called helper runs in its caller's)
  std::set<size_t> blocks_reading_;    // blocks that load the data themselves
  std::vector<Sink> sinks_;
  std::map<int, std::vector<FlowEvidence>> aux_;  // column -> auxiliary uses
  std::string dynamic_reason_;
  std::set<std::string> modules_ = {"pd", "np", "pandas", "numpy", "sklearn"};  // and the imported names
  std::map<std::string, int> global_lines_;  // where each module-level name was last assigned
  int assign_line_ = 0;
  long budget_ = 2'000'000;
  int depth_ = 0;

  // --- helpers -------------------------------------------------------------------------------

  void spend();
  std::string_view text(TSNode n) const { return unit_->tree->text(n); }
  int line(TSNode n) const { return unit_->first_line + line_of(n) - 1; }
  static uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
  static TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }

  Mask schema_mask(const std::string& label) const;
  Label label_of(std::string_view literal) const;
  Ref all_frame() const;
  Ref opaque(std::string reason) const;

  // Surely / maybe carried schema columns.
  std::pair<Mask, Mask> sources(const Value& v) const;
  Mask may_sources(const Value& v) const { return sources(v).second; }

  Ref copy_of(const Ref& v) const { return std::make_shared<Value>(*v); }

  // A frame view of any value (an unknown value is a frame with unknown columns).
  Ref as_frame(const Ref& v) const;

  // A list-of-names view: names, a frame's columns (iterating a DataFrame gives its labels), a
  // tuple of strings; otherwise an open list.
  Ref as_names(const Ref& v) const;

  // Python's scoping: the function's locals, then the module's globals.
  Ref lookup(const std::string& name) const;
  void bind(const std::string& name, Ref value);

  // The dotted name of an identifier or attribute chain (self.model), or "".
  std::string dotted(TSNode n) const;

  // A string literal's value; empty when the node is not one (or an f-string).
  std::optional<std::string> string_literal(TSNode n) const;
  std::optional<long long> integer_literal(TSNode n) const;

  // A parameter's identifier (plain, typed, with a default); null for *args and **kwargs.
  static TSNode parameter_name(TSNode p);

  struct Arguments {
    std::vector<TSNode> positional;
    std::map<std::string, TSNode> keywords;
  };

  Arguments arguments_of(TSNode call) const;
  static TSNode keyword(const Arguments& args, const char* name);
  bool truthy_literal(TSNode n) const { return !ts_node_is_null(n) && type_of(n) == "true"; }

  // --- evidence ------------------------------------------------------------------------------

  void record(Value& v, int at, const char* rule, Mask kept, Mask dropped);
  void aux(const Value& v, int at, const char* rule);

  // --- frame operations ----------------------------------------------------------------------

  static bool same(const Label& a, const std::string& name) { return a.name == name; }

  // The label `name` of a frame that has get_dummies columns: "race_black" is part of race.
  const Label* dummy_source(const Value& frame, const std::string& name) const;
  Ref select(const Ref& frame_in, const Ref& names_in, int at, const char* rule);

  // Removes `names` from `frame` in place; the rule is all-but-target when only the target goes.
  void remove_columns(Value& frame, const Ref& names_in, int at, const char* rule, bool errors_ignore);
  Ref drop_call(const Ref& receiver, const Arguments& args, int at);

  // Positions [start, stop) with Python's negative indices over `size`.
  static std::vector<size_t> slice_positions(std::optional<long long> start, std::optional<long long> stop, size_t size);

  // A slice node's start and stop (only integer bounds or none); false for other slices.
  bool slice_bounds(TSNode slice, std::optional<long long>& start, std::optional<long long>& stop) const;

  // Positional column selection (iloc, numpy [:, a:b], df.columns[a:b]) over a known order.
  Ref positional(const Ref& in, TSNode selector, int at, bool as_list);

  // loc[:, 'a':'f']: labels from a to f inclusive, in the frame's order.
  Ref label_slice(const Ref& in, TSNode slice, int at);

  // Does a label pass a dtype filter (include / exclude type classes)? Empty: not known.
  std::optional<bool> dtype_passes(const Label& l, std::optional<unsigned> include, std::optional<unsigned> exclude) const;

  // The type classes a select_dtypes / make_column_selector argument names; empty when unknown.
  std::optional<unsigned> dtype_classes(TSNode n) const;
  Ref select_dtypes(const Ref& in, const Arguments& args, int at);
  Ref get_dummies(const Ref& in, const Arguments& args, int at);
  Ref filter_call(const Ref& in, const Arguments& args, int at);
  Ref rename_call(const Ref& in, const Arguments& args, int at);
  Ref concat(const Arguments& args);

  // --- names operations ----------------------------------------------------------------------

  static bool has_label(const Value& names, const std::string& name);
  Ref concatenate(const Ref& a_in, const Ref& b_in, int at);
  Ref difference(const Ref& a_in, const Ref& b_in, int at, const char* rule);

  enum class Truth { no, yes, unknown };
  static Truth negate(Truth t) { return t == Truth::yes ? Truth::no : t == Truth::no ? Truth::yes : Truth::unknown; }

  // `label in names`
  static Truth member(const Label& label, const Value& names);
  static Truth both(Truth a, Truth b);
  static Truth either(Truth a, Truth b);

  // The operator of a comparison, its words joined by one space ("not in", "!=").
  std::string comparison_operator(TSNode comparison) const;

  // `label == other` / `label != other` / `label in other` / `label not in other`.
  Truth compare_label(const Label& label, const std::string& op, TSNode other);

  // A comprehension's condition for one label bound to `var`.
  Truth truth(TSNode cond, const std::string& var, const Label& label);

  // The labels of `names` that `keep` does not rule out; an undecided one stays as "maybe".
  Ref filtered_names(const Value& names, const std::function<Truth(const Label&)>& keep, const char* undecided);
  Ref comprehension(TSNode node, int at);

  // --- column masks: df.loc[:, df.columns != t], df.columns[df.columns.isin(L)] -------------------

  bool is_column_index(TSNode n) const { return type_of(n) == "attribute" && text(field(n, "attribute")) == "columns"; }

  // `.columns == x`, `.columns != x`, `.columns.isin(L)`, and ~, &, | and parentheses of those.
  bool column_mask_syntax(TSNode node) const;

  // A column mask's value at one label (column_mask_syntax holds).
  Truth mask_truth(TSNode node, const Label& label);
  Ref masked_names(const Ref& names, TSNode mask);

  // df.loc[:, mask]: the columns the mask keeps; all-but-target when only the target goes.
  Ref select_by_mask(const Ref& frame_in, TSNode mask, int at);

  // --- sklearn -------------------------------------------------------------------------------

  static bool is_selector_class(std::string_view name);
  static bool is_transform_class(std::string_view name);
  static bool is_estimator_class(std::string_view name);
  Ref column_transformer(const std::vector<TSNode>& entry_nodes, TSNode list_node, const Arguments& args, int at);

  // The frame a ColumnTransformer makes of `x`.
  Ref apply_transformer(const Value& ct, const Ref& x_in, int at);
  Ref pipeline(const std::vector<Ref>& steps);

  // X reaches an estimator's fit.
  void sink(const Ref& model, const Ref& x, int at, const char* rule);

  // --- calls ---------------------------------------------------------------------------------

  void keyword_aux(const Arguments& args, int at);
  Ref call_defined(Function& fn, const Arguments& args, const Ref& self = nullptr);

  // The last component of a callee: pd.read_csv -> read_csv.
  std::string callee_name(TSNode function) const;
  Ref eval_call(TSNode node);
  Ref method_call(const Ref& receiver, TSNode object, const std::string& name, const Arguments& args, int at);

  // --- expressions ---------------------------------------------------------------------------

  Ref eval(TSNode node);
  Ref eval_inner(TSNode node);
  Ref eval_string(const std::string& literal) const;

  // df[a > b], df[~m], df[m1 & m2], df[x.isin(...)]: the syntax of a row filter.
  bool row_mask_syntax(TSNode key) const;
  Ref eval_subscript(TSNode node, int at);

  // --- statements ----------------------------------------------------------------------------

  void collect_functions(TSNode node, const CodeUnit& unit);
  void assign(TSNode target, const Ref& value);
  void exec_block(TSNode node);
  void exec(TSNode node);

  // import pandas as pd / from sklearn import svm: names that are modules, not values.
  void note_imports(TSNode node);
  void delete_target(TSNode target);
  void exec_expression(TSNode node);

  // A function nobody calls (the answer's train(df) left for the user to call) runs with a
  // frame-named parameter bound to the whole CSV.
  void analyse_uncalled_functions();

  // --- the verdict ---------------------------------------------------------------------------

  // No fit: an L1 answer's select_features(df) or FEATURES list is the feature set.
  std::optional<Sink> feature_list();
  void decide(FlowResult& result);
  void attach_aux(FlowResult& result);
};

}  // namespace codebias::analysis::pipelines::flow
