// class Flow: evaluating expressions: literals, names, attributes, subscripts and operators.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

Ref Flow::eval(TSNode node) {
  if (ts_node_is_null(node)) return make(Kind::constant);
  spend();
  if (++depth_ > 200) {
    --depth_;
    return opaque("an expression nested too deeply");
  }
  Ref out = eval_inner(node);
  --depth_;
  return out;
}

Ref Flow::eval_inner(TSNode node) {
  std::string_view type = type_of(node);
  const int at = line(node);
  if (type == "identifier" || type == "attribute") {
    std::string name = dotted(node);
    if (!name.empty())
      if (Ref v = lookup(name)) return v;
  }
  if (type == "identifier") {
    std::string_view name = text(node);
    if (name == "True" || name == "False" || name == "None") return make(Kind::constant);
    return opaque("'" + std::string(name) + "' is not defined in the answer");
  }
  if (auto literal = string_literal(node)) {
    Ref v = make(Kind::names);
    v->labels.push_back(label_of(*literal));
    v->single = true;
    v->ordered = true;
    return v;
  }
  if (type == "string") return make(Kind::constant);  // an f-string
  if (type == "integer" || type == "float" || type == "true" || type == "false" || type == "none" ||
      type == "unary_operator" || type == "dictionary" || type == "lambda")
    return make(Kind::constant);
  if (type == "parenthesized_expression") return count(node) == 1 ? eval(child(node, 0)) : make(Kind::constant);
  if (type == "list" || type == "set" || type == "tuple" || type == "expression_list") {
    bool all_names = true;
    std::vector<Ref> items;
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(c) == "comment") continue;
      bool splat = type_of(c) == "list_splat";
      Ref v = eval(splat && count(c) == 1 ? child(c, 0) : c);
      if (v->kind != Kind::names || (!v->single && !splat)) all_names = false;
      items.push_back(v);
    }
    if (all_names && !items.empty() && type != "expression_list") {
      Ref out = make(Kind::names);
      out->ordered = type != "set";
      for (const Ref& v : items) {
        out->labels.insert(out->labels.end(), v->labels.begin(), v->labels.end());
        out->open |= v->open;
        out->open_sources |= v->open_sources;
        out->steps = join_steps(out->steps, v->steps);
        if (out->reason.empty()) out->reason = v->reason;
      }
      return out;
    }
    if (items.empty()) {
      Ref empty = make(type == "tuple" ? Kind::tuple : Kind::names);
      empty->ordered = true;
      return empty;
    }
    Ref out = make(Kind::tuple);
    out->items = std::move(items);
    return out;
  }
  if (type == "list_comprehension" || type == "set_comprehension" || type == "generator_expression")
    return comprehension(node, at);
  if (type == "call") return eval_call(node);
  if (type == "attribute") {
    Ref object = eval(field(node, "object"));
    std::string attribute(text(field(node, "attribute")));
    if (object->kind == Kind::frame && !object->single) {
      if (attribute == "columns") return as_names(object);
      if (attribute == "values" || attribute == "T") return copy_of(object);
      std::string label = normalize_label(attribute);
      if (has_label(*object, label) || schema_mask(label)) return select(object, eval_string(attribute), at, rules::kColumnList);
    }
    if (object->kind == Kind::frame && (attribute == "values" || attribute == "str" || attribute == "dt" || attribute == "cat"))
      return copy_of(object);
    if (object->kind == Kind::names && (attribute == "values" || attribute == "columns")) return object;
    if (object->kind == Kind::estimator || object->kind == Kind::transform) return object;
    if (object->kind == Kind::instance)
      if (auto found = object->attributes.find(attribute); found != object->attributes.end()) return found->second;
    Ref out = make(Kind::unknown);
    out->open_sources = may_sources(*object);
    if (out->open_sources == 0 && object->kind != Kind::constant) out->open_sources = all_;
    out->reason = object->reason;
    return out;
  }
  if (type == "subscript") return eval_subscript(node, at);
  if (type == "binary_operator") {
    Ref a = eval(field(node, "left")), b = eval(field(node, "right"));
    std::string_view op = text(field(node, "operator"));
    bool lists = (a->kind == Kind::names || a->kind == Kind::tuple) && (b->kind == Kind::names || b->kind == Kind::tuple);
    if (lists && op == "+") return concatenate(a, b, at);
    if (lists && op == "|") return concatenate(a, b, at);
    if ((a->kind == Kind::names || a->kind == Kind::frame) && b->kind == Kind::names && op == "-")
      return difference(a, b, at, rules::kSetDifference);
    Ref out = make(Kind::unknown);
    out->open_sources = may_sources(*a) | may_sources(*b);
    return out;
  }
  if (type == "comparison_operator" || type == "boolean_operator" || type == "not_operator" ||
      type == "conditional_expression") {
    Ref out = make(Kind::unknown);
    for (uint32_t i = 0; i < count(node); ++i) out->open_sources |= may_sources(*eval(child(node, i)));
    if (out->open_sources == 0) return make(Kind::constant);
    return out;
  }
  if (type == "await") return count(node) ? eval(child(node, 0)) : make(Kind::constant);
  return opaque("a " + std::string(type) + " the analysis does not follow");
}

Ref Flow::eval_string(const std::string& literal) const {
  Ref v = make(Kind::names);
  v->labels.push_back(label_of(literal));
  v->single = true;
  return v;
}

bool Flow::row_mask_syntax(TSNode key) const {
  std::string_view type = type_of(key);
  if (type == "parenthesized_expression" && count(key) == 1) return row_mask_syntax(child(key, 0));
  if (type == "comparison_operator" || type == "boolean_operator" || type == "not_operator" || type == "unary_operator")
    return true;
  if (type == "binary_operator") {
    std::string_view op = text(field(key, "operator"));
    return op == "&" || op == "|" || op == "^";
  }
  if (type == "call") {
    std::string name = callee_name(field(key, "function"));
    return name == "isin" || name == "notna" || name == "notnull" || name == "isna" || name == "isnull" ||
           name == "between" || name == "duplicated" || name == "contains" || name == "startswith";
  }
  return false;
}

Ref Flow::eval_subscript(TSNode node, int at) {
  TSNode value = field(node, "value");
  std::vector<TSNode> keys;
  for (uint32_t i = 0; i < count(node); ++i) {
    TSNode c = child(node, i);
    if (!ts_node_eq(c, value) && type_of(c) != "comment") keys.push_back(c);
  }
  if (keys.empty()) return opaque("an empty subscript");
  // df.loc[rows, cols] / df.iloc[rows, cols]
  if (type_of(value) == "attribute") {
    std::string_view accessor = text(field(value, "attribute"));
    if (accessor == "loc" || accessor == "iloc") {
      Ref frame = eval(field(value, "object"));
      if (keys.size() < 2) return copy_of(as_frame(frame));  // rows only
      TSNode columns = keys[1];
      if (accessor == "iloc") return positional(frame, columns, at, false);
      if (type_of(columns) == "slice") {
        if (count(columns) == 0) return copy_of(as_frame(frame));
        return label_slice(frame, columns, at);
      }
      if (column_mask_syntax(columns)) return select_by_mask(frame, columns, at);
      return select(frame, eval(columns), at, rules::kColumnList);
    }
  }
  Ref base = eval(value);
  if (base->kind == Kind::frame && keys.size() == 2) return positional(base, keys[1], at, false);  // numpy X[:, a:b]
  if (base->kind == Kind::names && column_mask_syntax(keys[0])) return masked_names(base, keys[0]);
  if (base->kind == Kind::names && (type_of(keys[0]) == "slice" || integer_literal(keys[0])))
    return positional(base, keys[0], at, true);
  if (base->kind == Kind::tuple) {
    if (auto index = integer_literal(keys[0])) {
      long long i = *index < 0 ? *index + static_cast<long long>(base->items.size()) : *index;
      if (i >= 0 && i < static_cast<long long>(base->items.size())) return base->items[static_cast<size_t>(i)];
    }
    return opaque("an element of a tuple");
  }
  if (base->kind != Kind::frame && base->kind != Kind::unknown) return opaque("a subscript the analysis does not follow");
  if (type_of(keys[0]) == "slice") return copy_of(as_frame(base));  // rows
  Ref key = eval(keys[0]);
  if (key->kind == Kind::names) return select(base, key, at, rules::kColumnList);
  // A key that carries no known column (an undefined name, self.cols of an unfollowed object)
  // may be a list of columns; a mask is built from the frame's own columns.
  if (key->kind == Kind::unknown && key->open_sources == all_ && !row_mask_syntax(keys[0]))
    return select(base, key, at, rules::kColumnList);
  return copy_of(as_frame(base));  // a boolean mask: rows
}

}  // namespace codebias::analysis::pipelines::flow
