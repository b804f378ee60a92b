// class Flow: pandas frame operations (selection, drops, positions, dtypes, dummies), name-list
// operations (concatenation, differences, comprehensions) and column masks.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include <algorithm>

#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

const Label* Flow::dummy_source(const Value& frame, const std::string& name) const {
  for (const Label& l : frame.labels)
    if (l.dummies && name.size() > l.name.size() + 1 && name.compare(0, l.name.size() + 1, l.name + "_") == 0) return &l;
  return nullptr;
}

Ref Flow::select(const Ref& frame_in, const Ref& names_in, int at, const char* rule) {
  Ref frame = as_frame(frame_in);
  Ref names = as_names(names_in);
  Ref out = make(Kind::frame);
  out->steps = join_steps(frame->steps, names->steps);
  out->reason = names->open ? names->reason : frame->reason;
  out->ordered = frame->ordered && !names->open;
  out->single = names->single;
  for (const Label& wanted : names->labels) {
    auto it = std::find_if(frame->labels.begin(), frame->labels.end(), [&](const Label& l) { return same(l, wanted.name); });
    if (it != frame->labels.end()) {
      Label l = *it;
      l.sure = l.sure && wanted.sure;
      out->labels.push_back(l);
    } else if (const Label* source = dummy_source(*frame, wanted.name)) {
      out->labels.push_back(Label{wanted.name, wanted.sure && source->sure, source->sources, false});
    } else if (frame->open) {
      Label l = wanted;
      l.sources = wanted.sources ? wanted.sources : frame->open_sources;
      l.sure = false;
      out->labels.push_back(l);
      out->reason = frame->reason;
    } else {
      // Selecting a label the frame lacks raises; the column it names is what was meant.
      out->labels.push_back(wanted);
    }
  }
  if (names->open) {
    out->open = true;
    out->open_sources = may_sources(*frame);
    if (out->reason.empty()) out->reason = "the selected columns are not known";
  }
  auto [kept_must, kept_may] = sources(*out);
  record(*out, at, rule, kept_must, sources(*frame).first & ~kept_may);
  return out;
}

void Flow::remove_columns(Value& frame, const Ref& names_in, int at, const char* rule, bool errors_ignore) {
  Ref names = as_names(names_in);
  const Mask before_may = may_sources(frame);
  std::vector<Label> kept;
  for (const Label& l : frame.labels) {
    bool sure_match = false, maybe_match = false;
    for (const Label& n : names->labels)
      if (n.name == l.name) (n.sure ? sure_match : maybe_match) = true;
    if (sure_match && l.dummies && !errors_ignore) {
      // After get_dummies the original label is gone: this drop raises KeyError.
      Label copy = l;
      copy.sure = false;
      kept.push_back(copy);
      frame.reason = "drops '" + l.name + "' after get_dummies encoded it (the drop raises KeyError)";
      continue;
    }
    if (sure_match && l.dummies) {
      kept.push_back(l);  // errors='ignore': the dummy columns stay
      continue;
    }
    if (sure_match) continue;
    Label copy = l;
    if (maybe_match || names->open) {
      copy.sure = false;
      if (frame.reason.empty()) frame.reason = names->open ? names->reason : "a column may or may not be dropped";
    }
    kept.push_back(copy);
  }
  frame.labels = std::move(kept);
  frame.steps = join_steps(frame.steps, names->steps);
  auto [after_must, after_may] = sources(frame);
  Mask dropped = before_may & ~after_may;
  if (dropped == bit(target_)) record(frame, at, rules::kAllButTarget, after_must & ~bit(target_), 0);
  else record(frame, at, rule, 0, dropped & ~bit(target_));
}

Ref Flow::drop_call(const Ref& receiver, const Arguments& args, int at) {
  TSNode columns = keyword(args, "columns");
  TSNode labels = keyword(args, "labels");
  TSNode axis = keyword(args, "axis");
  if (ts_node_is_null(labels) && !args.positional.empty()) labels = args.positional[0];
  if (ts_node_is_null(axis) && args.positional.size() > 1) axis = args.positional[1];
  bool column_axis = false;
  if (!ts_node_is_null(axis)) {
    auto axis_text = string_literal(axis);
    auto axis_number = integer_literal(axis);
    column_axis = (axis_text && *axis_text == "columns") || (axis_number && *axis_number == 1);
  }
  TSNode which = !ts_node_is_null(columns) ? columns : column_axis ? labels : TSNode{};
  bool inplace = truthy_literal(keyword(args, "inplace"));
  TSNode errors = keyword(args, "errors");
  bool errors_ignore = !ts_node_is_null(errors) && string_literal(errors) == std::optional<std::string>("ignore");
  Ref frame = receiver->kind == Kind::frame ? receiver : as_frame(receiver);
  if (ts_node_is_null(which)) {
    return inplace ? make(Kind::constant) : copy_of(frame);  // rows dropped: the columns stay
  }
  Ref names = eval(which);
  if (inplace) {
    remove_columns(*frame, names, at, rules::kDrop, errors_ignore);
    return make(Kind::constant);
  }
  Ref out = copy_of(frame);
  remove_columns(*out, names, at, rules::kDrop, errors_ignore);
  return out;
}

std::vector<size_t> Flow::slice_positions(std::optional<long long> start, std::optional<long long> stop, size_t size) {
  auto fix = [&](long long i) {
    if (i < 0) i += static_cast<long long>(size);
    return static_cast<size_t>(std::clamp<long long>(i, 0, static_cast<long long>(size)));
  };
  size_t from = start ? fix(*start) : 0, to = stop ? fix(*stop) : size;
  std::vector<size_t> out;
  for (size_t i = from; i < to; ++i) out.push_back(i);
  return out;
}

bool Flow::slice_bounds(TSNode slice, std::optional<long long>& start, std::optional<long long>& stop) const {
  int part = 0;
  for (uint32_t i = 0; i < ts_node_child_count(slice); ++i) {
    TSNode c = ts_node_child(slice, i);
    if (!ts_node_is_named(c)) {
      if (text(c) == ":") ++part;
      continue;
    }
    auto value = integer_literal(c);
    if (!value) return false;
    if (part == 0) start = value;
    else if (part == 1) stop = value;
    else return false;  // a step
  }
  return true;
}

Ref Flow::positional(const Ref& in, TSNode selector, int at, bool as_list) {
  Ref frame = as_list ? as_names(in) : as_frame(in);
  std::vector<size_t> positions;
  bool single = false;
  bool decidable = frame->ordered && !frame->open;
  std::string_view type = type_of(selector);
  if (type == "slice") {
    std::optional<long long> start, stop;
    if (!slice_bounds(selector, start, stop)) decidable = false;
    else positions = slice_positions(start, stop, frame->labels.size());
  } else if (type == "list") {
    for (uint32_t i = 0; i < count(selector); ++i) {
      auto v = integer_literal(child(selector, i));
      if (!v) decidable = false;
      else positions.push_back(static_cast<size_t>(*v < 0 ? *v + static_cast<long long>(frame->labels.size()) : *v));
    }
  } else if (auto v = integer_literal(selector)) {
    single = true;
    positions.push_back(static_cast<size_t>(*v < 0 ? *v + static_cast<long long>(frame->labels.size()) : *v));
  } else {
    decidable = false;
  }
  for (size_t p : positions)
    if (p >= frame->labels.size()) decidable = false;
  Ref out = make(as_list ? Kind::names : Kind::frame);
  out->steps = frame->steps;
  if (!decidable) {
    out->open = true;
    out->open_sources = may_sources(*frame);
    out->reason = "positional selection over columns whose order the code does not fix";
    return out;
  }
  for (size_t p : positions) out->labels.push_back(frame->labels[p]);
  out->single = single;
  out->ordered = true;
  auto [kept_must, kept_may] = sources(*out);
  Mask dropped = may_sources(*frame) & ~kept_may & ~bit(target_);
  record(*out, at, rules::kPositional, kept_must & ~bit(target_), dropped);
  return out;
}

Ref Flow::label_slice(const Ref& in, TSNode slice, int at) {
  Ref frame = as_frame(in);
  std::vector<std::optional<std::string>> bounds;
  for (uint32_t i = 0; i < count(slice); ++i) bounds.push_back(string_literal(child(slice, i)));
  auto position = [&](const std::optional<std::string>& name) -> std::optional<size_t> {
    if (!name) return std::nullopt;
    std::string n = normalize_label(*name);
    for (size_t i = 0; i < frame->labels.size(); ++i)
      if (frame->labels[i].name == n) return i;
    return std::nullopt;
  };
  if (!frame->ordered || frame->open || bounds.size() != 2 || !position(bounds[0]) || !position(bounds[1])) {
    Ref out = make(Kind::frame);
    out->open = true;
    out->open_sources = may_sources(*frame);
    out->reason = "a label slice over columns whose order the code does not fix";
    return out;
  }
  Ref out = make(Kind::frame);
  out->steps = frame->steps;
  out->ordered = true;
  for (size_t i = *position(bounds[0]); i <= *position(bounds[1]); ++i) out->labels.push_back(frame->labels[i]);
  auto [kept_must, kept_may] = sources(*out);
  record(*out, at, rules::kPositional, kept_must, may_sources(*frame) & ~kept_may & ~bit(target_));
  return out;
}

std::optional<bool> Flow::dtype_passes(const Label& l, std::optional<unsigned> include, std::optional<unsigned> exclude) const {
  if (l.dummies) return std::nullopt;  // dummy columns are bool or uint8, by pandas version
  int column = -1;
  for (int c = 0; c <= target_; ++c)
    if (l.sources == bit(c)) column = c;
  if (column < 0 || column == target_) return std::nullopt;
  unsigned cls = request_.columns[static_cast<size_t>(column)].type == ColumnType::categorical ? kCategoricalClass : kNumericClass;
  bool pass = true;
  if (include) pass = (*include & cls) != 0;
  if (exclude && (*exclude & cls)) pass = false;
  return pass;
}

std::optional<unsigned> Flow::dtype_classes(TSNode n) const {
  if (ts_node_is_null(n)) return std::nullopt;
  std::vector<TSNode> parts;
  if (type_of(n) == "list" || type_of(n) == "tuple") {
    for (uint32_t i = 0; i < count(n); ++i) parts.push_back(child(n, i));
  } else {
    parts.push_back(n);
  }
  unsigned out = 0;
  for (TSNode p : parts) {
    auto literal = string_literal(p);
    unsigned cls = dtype_class(literal ? std::string_view(*literal) : text(p));
    if (cls == 0) return std::nullopt;
    out |= cls;
  }
  return out;
}

Ref Flow::select_dtypes(const Ref& in, const Arguments& args, int at) {
  Ref frame = as_frame(in);
  TSNode include = keyword(args, "include");
  if (ts_node_is_null(include) && !args.positional.empty()) include = args.positional[0];
  TSNode exclude = keyword(args, "exclude");
  auto inc = dtype_classes(include), exc = dtype_classes(exclude);
  Ref out = copy_of(frame);
  out->ordered = frame->ordered;
  if ((!ts_node_is_null(include) && !inc) || (!ts_node_is_null(exclude) && !exc)) {
    for (Label& l : out->labels) l.sure = false;
    out->reason = "select_dtypes with a type the analysis does not know";
    return out;
  }
  std::vector<Label> kept;
  for (const Label& l : frame->labels) {
    auto pass = dtype_passes(l, inc, exc);
    if (pass && !*pass) continue;
    Label copy = l;
    if (!pass) {
      copy.sure = false;
      out->reason = "select_dtypes over columns of unknown type";
    }
    kept.push_back(copy);
  }
  out->labels = std::move(kept);
  auto [kept_must, kept_may] = sources(*out);
  record(*out, at, rules::kSelectDtypes, kept_must & ~bit(target_), may_sources(*frame) & ~kept_may & ~bit(target_));
  return out;
}

Ref Flow::get_dummies(const Ref& in, const Arguments& args, int at) {
  Ref frame = copy_of(as_frame(in));
  TSNode columns = keyword(args, "columns");
  Mask encoded = 0;
  if (ts_node_is_null(columns)) {
    for (Label& l : frame->labels) {
      auto categorical = dtype_passes(l, kCategoricalClass, std::nullopt);
      if (categorical.value_or(false) && l.sources != bit(target_)) {
        l.dummies = true;
        encoded |= l.sources;
      }
    }
  } else {
    Ref names = as_names(eval(columns));
    for (Label& l : frame->labels)
      for (const Label& n : names->labels)
        if (n.name == l.name) {
          l.dummies = true;
          encoded |= l.sources;
        }
  }
  frame->ordered = false;  // dummy columns go to the end, as many as the values
  record(*frame, at, rules::kDummies, encoded & ~bit(target_), 0);
  return frame;
}

Ref Flow::filter_call(const Ref& in, const Arguments& args, int at) {
  Ref frame = as_frame(in);
  TSNode items = keyword(args, "items");
  if (ts_node_is_null(items) && !args.positional.empty()) items = args.positional[0];
  if (!ts_node_is_null(items)) return select(frame, eval(items), at, rules::kFilter);
  TSNode like = keyword(args, "like");
  auto needle = ts_node_is_null(like) ? std::nullopt : string_literal(like);
  Ref out = copy_of(frame);
  if (!needle) {
    for (Label& l : out->labels) l.sure = false;
    out->reason = "filter(regex=...) is not evaluated";
    return out;
  }
  std::string n = normalize_label(*needle);
  std::erase_if(out->labels, [&](const Label& l) { return l.name.find(n) == std::string::npos; });
  auto [kept_must, kept_may] = sources(*out);
  record(*out, at, rules::kFilter, kept_must, may_sources(*frame) & ~kept_may & ~bit(target_));
  return out;
}

Ref Flow::rename_call(const Ref& in, const Arguments& args, int at) {
  TSNode mapping = keyword(args, "columns");
  Ref frame = as_frame(in);
  bool inplace = truthy_literal(keyword(args, "inplace"));
  Ref out = inplace ? frame : copy_of(frame);
  if (ts_node_is_null(mapping) || type_of(mapping) != "dictionary") {
    if (!ts_node_is_null(mapping)) {
      for (Label& l : out->labels) l.sure = false;
      out->reason = "rename with a mapping the analysis cannot read";
    }
    return inplace ? make(Kind::constant) : out;
  }
  Mask renamed = 0;
  for (uint32_t i = 0; i < count(mapping); ++i) {
    TSNode pair = child(mapping, i);
    if (type_of(pair) != "pair") continue;
    auto from = string_literal(field(pair, "key"));
    auto to = string_literal(field(pair, "value"));
    if (!from || !to) continue;
    for (Label& l : out->labels)
      if (l.name == normalize_label(*from)) {
        l.name = normalize_label(*to);
        renamed |= l.sources;
      }
  }
  record(*out, at, rules::kRename, renamed & ~bit(target_), 0);
  return inplace ? make(Kind::constant) : out;
}

Ref Flow::concat(const Arguments& args) {
  if (args.positional.empty()) return opaque("pd.concat without arguments");
  Ref parts = eval(args.positional[0]);
  TSNode axis = keyword(args, "axis");
  bool columns = !ts_node_is_null(axis) &&
                 (integer_literal(axis) == std::optional<long long>(1) || string_literal(axis) == std::optional<std::string>("columns"));
  if (parts->kind != Kind::tuple || parts->items.empty()) return as_frame(parts);
  if (!columns) return copy_of(as_frame(parts->items[0]));
  Ref out = make(Kind::frame);
  for (const Ref& item : parts->items) {
    Ref f = as_frame(item);
    out->labels.insert(out->labels.end(), f->labels.begin(), f->labels.end());
    out->open |= f->open;
    out->open_sources |= f->open_sources;
    out->steps = join_steps(out->steps, f->steps);
    if (out->reason.empty()) out->reason = f->reason;
  }
  return out;
}

bool Flow::has_label(const Value& names, const std::string& name) {
  return std::any_of(names.labels.begin(), names.labels.end(), [&](const Label& l) { return l.name == name; });
}

Ref Flow::concatenate(const Ref& a_in, const Ref& b_in, int at) {
  Ref a = as_names(a_in), b = as_names(b_in);
  Ref out = copy_of(a);
  out->single = false;
  for (const Label& l : b->labels) out->labels.push_back(l);
  out->open |= b->open;
  out->open_sources |= b->open_sources;
  out->steps = join_steps(a->steps, b->steps);
  if (out->reason.empty()) out->reason = b->reason;
  record(*out, at, rules::kListEdit, sources(*b).first & ~bit(target_), 0);
  return out;
}

Ref Flow::difference(const Ref& a_in, const Ref& b_in, int at, const char* rule) {
  Ref a = as_names(a_in), b = as_names(b_in);
  Ref out = copy_of(a);
  out->single = false;
  out->steps = join_steps(a->steps, b->steps);
  std::vector<Label> left;
  for (const Label& l : a->labels) {
    bool sure = false, maybe = b->open;
    for (const Label& r : b->labels)
      if (r.name == l.name) (r.sure ? sure : maybe) = true;
    if (sure) continue;
    Label copy = l;
    if (maybe) {
      copy.sure = false;
      if (out->reason.empty()) out->reason = b->open ? b->reason : "a name may or may not be removed";
    }
    left.push_back(copy);
  }
  out->labels = std::move(left);
  Mask dropped = may_sources(*a) & ~may_sources(*out);
  // A set difference builds the list it leaves; a .remove() only takes names out.
  Mask kept = rule == rules::kSetDifference ? sources(*out).first & ~bit(target_) : 0;
  if (dropped == bit(target_)) record(*out, at, rules::kAllButTarget, sources(*out).first, 0);
  else record(*out, at, rule, kept, dropped & ~bit(target_));
  return out;
}

Flow::Truth Flow::member(const Label& label, const Value& names) {
  for (const Label& l : names.labels)
    if (l.name == label.name) return l.sure ? Truth::yes : Truth::unknown;
  return names.open ? Truth::unknown : Truth::no;
}

Flow::Truth Flow::both(Truth a, Truth b) {
  return a == Truth::no || b == Truth::no ? Truth::no : a == Truth::yes && b == Truth::yes ? Truth::yes : Truth::unknown;
}

Flow::Truth Flow::either(Truth a, Truth b) {
  return a == Truth::yes || b == Truth::yes ? Truth::yes : a == Truth::no && b == Truth::no ? Truth::no : Truth::unknown;
}

std::string Flow::comparison_operator(TSNode comparison) const {
  std::string op;
  for (uint32_t i = 0; i < ts_node_child_count(comparison); ++i) {
    TSNode c = ts_node_child(comparison, i);
    if (!ts_node_is_named(c)) op += (op.empty() ? "" : " ") + std::string(text(c));
  }
  return op;
}

Flow::Truth Flow::compare_label(const Label& label, const std::string& op, TSNode other) {
  Truth in = member(label, *as_names(eval(other)));
  if (op == "in" || op == "==") return in;
  if (op == "not in" || op == "!=") return negate(in);
  return Truth::unknown;
}

Flow::Truth Flow::truth(TSNode cond, const std::string& var, const Label& label) {
  spend();
  std::string_view type = type_of(cond);
  if (type == "parenthesized_expression" && count(cond) == 1) return truth(child(cond, 0), var, label);
  if (type == "not_operator") return negate(truth(field(cond, "argument"), var, label));
  if (type == "boolean_operator") {
    Truth a = truth(field(cond, "left"), var, label), b = truth(field(cond, "right"), var, label);
    return text(field(cond, "operator")) == "and" ? both(a, b) : either(a, b);
  }
  if (type != "comparison_operator" || count(cond) != 2) return Truth::unknown;
  TSNode left = child(cond, 0), right = child(cond, 1);
  const std::string op = comparison_operator(cond);
  // df[c].dtype == 'object' / in [...]: decided by the schema type.
  if (type_of(left) == "attribute" && text(field(left, "attribute")) == "dtype") {
    TSNode series = field(left, "object");
    if (type_of(series) != "subscript" || text(field(series, "subscript")) != var) return Truth::unknown;
    auto cls = dtype_classes(right);
    auto pass = cls ? dtype_passes(label, *cls, std::nullopt) : std::nullopt;
    if (!pass) return Truth::unknown;
    Truth t = *pass ? Truth::yes : Truth::no;
    return op == "==" || op == "in" ? t : op == "!=" || op == "not in" ? negate(t) : Truth::unknown;
  }
  if (text(left) != var) return Truth::unknown;
  return compare_label(label, op, right);
}

Ref Flow::filtered_names(const Value& names, const std::function<Truth(const Label&)>& keep, const char* undecided) {
  Ref out = make(Kind::names);
  out->steps = names.steps;
  out->open = names.open;
  out->open_sources = names.open_sources;
  out->ordered = names.ordered;
  out->reason = names.reason;
  for (const Label& l : names.labels) {
    Truth t = keep(l);
    if (t == Truth::no) continue;
    Label copy = l;
    if (t == Truth::unknown) {
      copy.sure = false;
      if (out->reason.empty()) out->reason = undecided;
    }
    out->labels.push_back(copy);
  }
  return out;
}

Ref Flow::comprehension(TSNode node, int at) {
  TSNode body = field(node, "body");
  TSNode clause{};
  std::vector<TSNode> conditions;
  for (uint32_t i = 0; i < count(node); ++i) {
    TSNode c = child(node, i);
    if (type_of(c) == "for_in_clause") {
      if (!ts_node_is_null(clause)) return opaque("a nested comprehension");
      clause = c;
    } else if (type_of(c) == "if_clause" && count(c) == 1) {
      conditions.push_back(child(c, 0));
    }
  }
  if (ts_node_is_null(clause)) return opaque("a comprehension without for");
  std::string var(text(field(clause, "left")));
  Ref iterable = as_names(eval(field(clause, "right")));
  if (ts_node_is_null(body) || text(body) != var) {
    Ref out = make(Kind::unknown);
    out->open_sources = may_sources(*iterable);
    out->reason = "a comprehension that builds new values";
    return out;
  }
  Ref out = filtered_names(*iterable, [&](const Label& l) {
    Truth t = Truth::yes;
    for (TSNode cond : conditions) t = both(t, truth(cond, var, l));
    return t;
  }, "a comprehension condition the analysis cannot decide");
  if (!conditions.empty()) {
    Mask dropped = may_sources(*iterable) & ~may_sources(*out);
    if (dropped == bit(target_)) record(*out, at, rules::kAllButTarget, sources(*out).first, 0);
    else record(*out, at, rules::kComprehension, sources(*out).first & ~bit(target_), dropped & ~bit(target_));
  }
  return out;
}

bool Flow::column_mask_syntax(TSNode node) const {
  std::string_view type = type_of(node);
  if (type == "parenthesized_expression" && count(node) == 1) return column_mask_syntax(child(node, 0));
  if (type == "unary_operator") return text(field(node, "operator")) == "~" && column_mask_syntax(field(node, "argument"));
  if (type == "binary_operator") {
    std::string_view op = text(field(node, "operator"));
    return (op == "&" || op == "|") && column_mask_syntax(field(node, "left")) && column_mask_syntax(field(node, "right"));
  }
  if (type == "comparison_operator" && count(node) == 2) {
    const std::string op = comparison_operator(node);
    return (op == "==" || op == "!=") && is_column_index(child(node, 0));
  }
  if (type == "call") {
    TSNode function = field(node, "function");
    return type_of(function) == "attribute" && text(field(function, "attribute")) == "isin" &&
           is_column_index(field(function, "object"));
  }
  return false;
}

Flow::Truth Flow::mask_truth(TSNode node, const Label& label) {
  spend();
  std::string_view type = type_of(node);
  if (type == "parenthesized_expression") return mask_truth(child(node, 0), label);
  if (type == "unary_operator") return negate(mask_truth(field(node, "argument"), label));
  if (type == "binary_operator") {
    Truth a = mask_truth(field(node, "left"), label), b = mask_truth(field(node, "right"), label);
    return text(field(node, "operator")) == "&" ? both(a, b) : either(a, b);
  }
  if (type == "comparison_operator") return compare_label(label, comparison_operator(node), child(node, 1));
  Arguments args = arguments_of(node);
  if (args.positional.size() != 1) return Truth::unknown;
  return compare_label(label, "in", args.positional[0]);
}

Ref Flow::masked_names(const Ref& names, TSNode mask) {
  return filtered_names(*as_names(names), [&](const Label& l) { return mask_truth(mask, l); },
                        "a column mask the analysis cannot decide");
}

Ref Flow::select_by_mask(const Ref& frame_in, TSNode mask, int at) {
  Ref frame = as_frame(frame_in);
  Ref names = masked_names(frame, mask);
  const Mask dropped = may_sources(*frame) & ~may_sources(*names);
  return select(frame, names, at, dropped == bit(target_) ? rules::kAllButTarget : rules::kColumnList);
}

}  // namespace codebias::analysis::pipelines::flow
