// class Flow: calls: pandas and scikit-learn functions and methods, and the answer's own
// helpers and classes.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include <algorithm>

#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

void Flow::keyword_aux(const Arguments& args, int at) {
  if (TSNode n = keyword(args, "stratify"); !ts_node_is_null(n)) aux(*eval(n), at, rules::kStratify);
  for (const char* key : {"sensitive_features", "groups", "protected_attribute_names", "sensitive_attribute"})
    if (TSNode n = keyword(args, key); !ts_node_is_null(n)) aux(*eval(n), at, rules::kFairnessReport);
}

Ref Flow::call_defined(Function& fn, const Arguments& args, const Ref& self) {
  std::string name(text(field(fn.node, "name")));
  if (call_stack_.size() >= 8 || std::find(call_stack_.begin(), call_stack_.end(), name) != call_stack_.end())
    return opaque("a recursive or deeply nested call of '" + name + "'");
  fn.called = true;
  std::vector<Ref> positional;
  std::map<std::string, Ref> keywords;
  for (TSNode a : args.positional) positional.push_back(eval(a));
  for (const auto& [key, node] : args.keywords) keywords[key] = eval(node);
  const CodeUnit* caller_unit = unit_;
  unit_ = fn.unit;
  Scope scope;
  TSNode params = field(fn.node, "parameters");
  size_t next = 0;
  for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
    TSNode p = child(params, i);
    TSNode id = parameter_name(p);
    if (ts_node_is_null(id)) continue;
    std::string param(text(id));
    if (param == "self" || param == "cls") {
      if (self) scope.vars[param] = self;
      continue;
    }
    if (keywords.count(param)) scope.vars[param] = keywords[param];
    else if (next < positional.size()) scope.vars[param] = positional[next++];
    else if (TSNode d = field(p, "value"); !ts_node_is_null(d)) scope.vars[param] = eval(d);
    else scope.vars[param] = opaque("parameter '" + param + "' has no argument");
  }
  call_stack_.push_back(name);
  scopes_.push_back(std::move(scope));
  exec_block(field(fn.node, "body"));
  std::optional<Ref> returned = scopes_.back().returned;
  scopes_.pop_back();
  call_stack_.pop_back();
  unit_ = caller_unit;
  return returned ? *returned : make(Kind::constant);
}

std::string Flow::callee_name(TSNode function) const {
  if (type_of(function) == "attribute") return std::string(text(field(function, "attribute")));
  return std::string(text(function));
}

Ref Flow::eval_call(TSNode node) {
  TSNode function = field(node, "function");
  if (ts_node_is_null(function)) return opaque("a call");
  const int at = line(node);
  Arguments args = arguments_of(node);
  const std::string name = callee_name(function);
  keyword_aux(args, at);
  if (type_of(function) == "attribute") {
    TSNode object = field(function, "object");
    std::string object_name = dotted(object);
    bool module_call = modules_.count(object_name) && !lookup(object_name);
    if (!module_call) return method_call(eval(object), object, name, args, at);
  }
  if (name == "exec" || name == "eval") {
    if (dynamic_reason_.empty()) dynamic_reason_ = "the code runs " + name + "()";
    return opaque(dynamic_reason_);
  }
  if (classes_.count(name) && type_of(function) == "identifier") {
    // A class of the answer: __init__ runs on the new object, whose attributes its methods share.
    Ref instance = make(Kind::instance);
    instance->class_name = name;
    if (auto init = functions_.find("__init__"); init != functions_.end()) call_defined(init->second, args, instance);
    return instance;
  }
  if (auto fn = functions_.find(name); fn != functions_.end() && type_of(function) == "identifier")
    return call_defined(fn->second, args);
  if (name == "read_csv" || name == "read_excel" || name == "read_parquet" || name == "read_json" ||
      name == "read_table" || name == "read_sql" || name == "load_dataset") {
    blocks_reading_.insert(block_);
    Ref frame = all_frame();
    if (TSNode use = keyword(args, "usecols"); !ts_node_is_null(use)) return select(frame, eval(use), at, rules::kColumnList);
    return frame;
  }
  if (name == "DataFrame") {
    if (!args.positional.empty()) {
      Ref data = eval(args.positional[0]);
      if (data->kind == Kind::frame) return copy_of(data);
      if (TSNode cols = keyword(args, "columns"); !ts_node_is_null(cols)) return select(all_frame(), eval(cols), at, rules::kColumnList);
    }
    return all_frame();
  }
  if (name == "get_dummies" && !args.positional.empty()) return get_dummies(eval(args.positional[0]), args, at);
  if (name == "concat") return concat(args);
  if (name == "train_test_split") {
    Ref out = make(Kind::tuple);
    for (TSNode a : args.positional) {
      Ref v = eval(a);
      out->items.push_back(v);
      out->items.push_back(v);
    }
    return out;
  }
  if (name == "cross_val_score" || name == "cross_validate" || name == "cross_val_predict" ||
      name == "learning_curve" || name == "permutation_test_score") {
    TSNode estimator = keyword(args, "estimator");
    if (ts_node_is_null(estimator) && !args.positional.empty()) estimator = args.positional[0];
    TSNode x = keyword(args, "X");
    if (ts_node_is_null(x) && args.positional.size() > 1) x = args.positional[1];
    if (!ts_node_is_null(x)) sink(ts_node_is_null(estimator) ? nullptr : eval(estimator), eval(x), at, rules::kCrossValidation);
    return make(Kind::constant);
  }
  if (name == "ColumnTransformer") {
    TSNode list = keyword(args, "transformers");
    if (ts_node_is_null(list) && !args.positional.empty()) list = args.positional[0];
    return column_transformer({}, list, args, at);
  }
  if (name == "make_column_transformer") return column_transformer(args.positional, TSNode{}, args, at);
  if (name == "make_column_selector") {
    Ref selector = make(Kind::names);
    selector->dtype_include = dtype_classes(keyword(args, "dtype_include"));
    selector->dtype_exclude = dtype_classes(keyword(args, "dtype_exclude"));
    if (!selector->dtype_include && !selector->dtype_exclude) {
      selector->open = true;
      selector->open_sources = all_;
      selector->reason = "make_column_selector without a known dtype";
    }
    return selector;
  }
  if (name == "Pipeline") {
    TSNode steps = keyword(args, "steps");
    if (ts_node_is_null(steps) && !args.positional.empty()) steps = args.positional[0];
    Ref list = ts_node_is_null(steps) ? make(Kind::tuple) : eval(steps);
    return pipeline(list->kind == Kind::tuple ? list->items : std::vector<Ref>{});
  }
  if (name == "make_pipeline") {
    std::vector<Ref> steps;
    for (TSNode a : args.positional) steps.push_back(eval(a));
    return pipeline(steps);
  }
  if (name == "GridSearchCV" || name == "RandomizedSearchCV" || name == "HalvingGridSearchCV" ||
      name == "HalvingRandomSearchCV" || name == "CalibratedClassifierCV" || name == "BaggingClassifier") {
    TSNode estimator = keyword(args, "estimator");
    if (ts_node_is_null(estimator) && !args.positional.empty()) estimator = args.positional[0];
    if (!ts_node_is_null(estimator)) {
      Ref inner = eval(estimator);
      if (inner->kind == Kind::estimator) return inner;
    }
    return make(Kind::estimator);
  }
  if (name == "list" || name == "sorted" || name == "set" || name == "tuple" || name == "frozenset") {
    if (args.positional.empty()) return make(Kind::names);
    Ref inner = eval(args.positional[0]);
    Ref out = copy_of(as_names(inner));
    out->single = false;
    if (name == "set" || name == "frozenset" || name == "sorted") out->ordered = false;
    return out;
  }
  if (name == "MetricFrame") return make(Kind::constant);
  if (is_selector_class(name)) {
    Ref t = make(Kind::transform);
    t->selector_line = at;
    return t;
  }
  if (is_transform_class(name)) return make(Kind::transform);
  if (is_estimator_class(name)) return make(Kind::estimator);
  if (name == "print" || name == "len" || name == "isinstance" || name == "display" || name == "str" ||
      name == "int" || name == "float" || name == "range" || name == "enumerate" || name == "zip") {
    for (TSNode a : args.positional) eval(a);
    return make(Kind::constant);
  }
  if (name == "array" || name == "asarray" || name == "copy" || name == "deepcopy") {
    return args.positional.empty() ? opaque(name) : eval(args.positional[0]);
  }
  // Unknown: the result carries what its arguments carry; a frame handed to an undefined
  // function of the answer may be fitted there.
  Ref out = make(Kind::unknown);
  for (TSNode a : args.positional) {
    Ref v = eval(a);
    out->open_sources |= may_sources(*v);
    if (type_of(function) == "identifier" && v->kind == Kind::frame && !v->single) {
      Ref possible = as_frame(make(Kind::unknown));
      possible->open_sources = may_sources(*v);
      possible->steps = v->steps;
      possible->reason = "a frame is passed to '" + name + "', which the answer does not define";
      sinks_.push_back(Sink{possible, at, rules::kFit, block_});
    }
  }
  for (const auto& [key, n] : args.keywords) out->open_sources |= may_sources(*eval(n));
  if (out->open_sources == 0) out->open_sources = all_;
  out->reason = "'" + name + "' is not defined in the answer";
  return out;
}

Ref Flow::method_call(const Ref& receiver, TSNode object, const std::string& name, const Arguments& args, int at) {
  if (receiver->kind == Kind::instance)
    if (auto method = functions_.find(name); method != functions_.end()) return call_defined(method->second, args, receiver);
  auto first = [&]() { return args.positional.empty() ? opaque("a missing argument") : eval(args.positional[0]); };
  if (receiver->kind == Kind::frame || (receiver->kind == Kind::unknown && (name == "drop" || name == "select_dtypes"))) {
    if (name == "drop") return drop_call(receiver, args, at);
    if (name == "pop" && !receiver->single && !args.positional.empty()) {
      Ref column = eval(args.positional[0]);
      Ref series = select(receiver, column, at, rules::kColumnList);
      remove_columns(*receiver, column, at, rules::kDelete, false);
      return series;
    }
    if (name == "select_dtypes") return select_dtypes(receiver, args, at);
    if (name == "filter") return filter_call(receiver, args, at);
    if (name == "rename") return rename_call(receiver, args, at);
    if (name == "groupby") {
      if (!args.positional.empty()) aux(*select(receiver, eval(args.positional[0]), at, rules::kColumnList), at, rules::kGroupby);
      Ref out = make(Kind::unknown);
      out->open_sources = may_sources(*receiver);
      return out;
    }
    if (name == "keys" || name == "tolist" || name == "to_list") return as_names(receiver);
    static const std::set<std::string> same_columns = {
        "copy", "dropna", "fillna", "reset_index", "sample", "head", "tail", "replace", "sort_values",
        "drop_duplicates", "query", "to_numpy", "astype", "abs", "round", "clip", "infer_objects",
        "convert_dtypes", "bfill", "ffill", "interpolate", "set_axis", "sort_index", "map", "apply",
        "transform", "str", "lower", "upper", "strip"};
    if (same_columns.count(name)) {
      for (TSNode a : args.positional) eval(a);
      if (truthy_literal(keyword(args, "inplace"))) return make(Kind::constant);
      return copy_of(receiver);
    }
    if (name == "unique" || name == "value_counts" || name == "nunique") {
      Ref out = make(Kind::unknown);
      out->open_sources = may_sources(*receiver);
      return out;
    }
  }
  if (receiver->kind == Kind::names || receiver->kind == Kind::tuple) {
    if (name == "remove" || name == "discard" || name == "append" || name == "add" || name == "extend" ||
        name == "insert") {
      std::string var = dotted(object);
      Ref arg = args.positional.empty() ? make(Kind::constant) : eval(args.positional.back());
      if (receiver->kind == Kind::tuple && (name == "append" || name == "add")) {
        receiver->items.push_back(arg);
        return make(Kind::constant);
      }
      Ref edited = name == "remove" || name == "discard" ? difference(receiver, arg, at, rules::kListEdit)
                                                          : concatenate(receiver, arg, at);
      *receiver = *edited;  // in place: aliases see the change
      return make(Kind::constant);
    }
    if (name == "copy" || name == "tolist" || name == "to_list") return copy_of(receiver);
    if (name == "difference" || name == "drop") return difference(receiver, first(), at, rules::kSetDifference);
    if (name == "union") return concatenate(receiver, first(), at);
  }
  if (receiver->kind == Kind::estimator || receiver->kind == Kind::unknown || receiver->kind == Kind::transform ||
      receiver->kind == Kind::column_transformer) {
    if (name == "fit") {
      bool estimator = receiver->kind == Kind::estimator || (receiver->kind == Kind::unknown && args.positional.size() >= 2);
      if (estimator && !args.positional.empty()) sink(receiver, eval(args.positional[0]), at, rules::kFit);
      else for (TSNode a : args.positional) eval(a);
      return receiver;
    }
    if (name == "fit_transform" || name == "transform") {
      Ref x = first();
      if (receiver->kind == Kind::column_transformer) return apply_transformer(*receiver, x, at);
      if (receiver->kind == Kind::estimator && receiver->preprocessor) return apply_transformer(*receiver->preprocessor, x, at);
      Ref out = copy_of(as_frame(x));
      if (receiver->selector_line)
        record(*out, receiver->selector_line, rules::kDataDriven, sources(*out).first & ~bit(target_), 0);
      return out;
    }
    if (name == "set_params" || name == "set_output") return receiver;
    if (name == "predict" || name == "predict_proba" || name == "score" || name == "decision_function") {
      for (TSNode a : args.positional) eval(a);
      return make(Kind::constant);
    }
  }
  // Anything else: a value tainted by the receiver and the arguments.
  Ref out = make(Kind::unknown);
  out->open_sources = may_sources(*receiver);
  for (TSNode a : args.positional) out->open_sources |= may_sources(*eval(a));
  if (out->open_sources == 0 && receiver->kind != Kind::constant) out->open_sources = all_;
  out->reason = receiver->reason.empty() ? "the result of ." + name + "() is not followed" : receiver->reason;
  return out;
}

}  // namespace codebias::analysis::pipelines::flow
