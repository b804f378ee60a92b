// class Flow: running statements: assignments, control flow, deletions, imports, functions.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

void Flow::collect_functions(TSNode node, const CodeUnit& unit) {
  for (uint32_t i = 0; i < count(node); ++i) {
    TSNode c = child(node, i);
    std::string_view type = type_of(c);
    if (type == "decorated_definition") c = field(c, "definition");
    if (ts_node_is_null(c)) continue;
    type = type_of(c);
    if (type == "function_definition") {
      TSNode name = field(c, "name");
      if (!ts_node_is_null(name)) functions_[std::string(unit.tree->text(name))] = Function{c, &unit};
    } else if (type == "class_definition") {
      TSNode body = field(c, "body");
      TSNode name = field(c, "name");
      if (!ts_node_is_null(name)) classes_.insert(std::string(unit.tree->text(name)));
      if (!ts_node_is_null(body)) collect_functions(body, unit);
    } else if (type == "ERROR") {
      collect_functions(c, unit);
    }
  }
}

void Flow::assign(TSNode target, const Ref& value) {
  std::string_view type = type_of(target);
  if (type == "attribute") {
    Ref object = eval(field(target, "object"));
    if (object->kind == Kind::instance) {
      object->attributes[std::string(text(field(target, "attribute")))] = value;
      return;
    }
  }
  if (type == "identifier" || type == "attribute") {
    std::string name = dotted(target);
    if (!name.empty()) bind(name, value);
    return;
  }
  if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" || type == "tuple" ||
      type == "expression_list" || type == "list") {
    uint32_t n = count(target);
    for (uint32_t i = 0; i < n; ++i) {
      Ref item;
      if (value->kind == Kind::tuple && value->items.size() == n) item = value->items[i];
      else {
        item = make(Kind::unknown);
        item->open_sources = may_sources(*value) ? may_sources(*value) : all_;
        item->reason = "an element of a value the analysis cannot split";
      }
      assign(child(target, i), item);
    }
    return;
  }
  if (type == "subscript") {
    // df['new'] = f(df['a']): a derived column carrying what its value carries.
    TSNode frame_node = field(target, "value");
    Ref frame = eval(frame_node);
    TSNode key_node = field(target, "subscript");
    if (frame->kind != Kind::frame || ts_node_is_null(key_node)) return;
    Ref key = eval(key_node);
    if (key->kind != Kind::names) return;
    Mask carried = may_sources(*value);
    for (const Label& k : key->labels) {
      if (has_label(*frame, k.name)) continue;
      Label derived{k.name, true, k.sources ? k.sources : carried, false};
      frame->labels.push_back(derived);
      record(*frame, line(target), rules::kDerived, derived.sources & ~bit(target_), 0);
    }
  }
}

void Flow::exec_block(TSNode node) {
  if (ts_node_is_null(node)) return;
  for (uint32_t i = 0; i < count(node); ++i) {
    if (scopes_.back().returned && scopes_.size() > 1) return;
    exec(child(node, i));
  }
}

void Flow::exec(TSNode node) {
  spend();
  std::string_view type = type_of(node);
  if (type == "expression_statement") {
    for (uint32_t i = 0; i < count(node); ++i) exec_expression(child(node, i));
  } else if (type == "return_statement") {
    Ref value = count(node) ? eval(child(node, 0)) : make(Kind::constant);
    if (scopes_.size() > 1) scopes_.back().returned = value;
  } else if (type == "if_statement") {
    eval(field(node, "condition"));
    exec_block(field(node, "consequence"));
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(c) == "elif_clause") exec_block(field(c, "consequence"));
      else if (type_of(c) == "else_clause") exec_block(field(c, "body"));
    }
  } else if (type == "for_statement") {
    TSNode right = field(node, "right");
    Ref iterable = eval(right);
    // for g in df['race'].unique(): per-group reports.
    if (type_of(right) == "call" && callee_name(field(right, "function")) == "unique") aux(*iterable, line(node), rules::kFairnessReport);
    Ref element = iterable->kind == Kind::names || iterable->kind == Kind::frame ? as_names(iterable) : make(Kind::unknown);
    if (element->kind == Kind::unknown) element->open_sources = may_sources(*iterable);
    assign(field(node, "left"), element);
    exec_block(field(node, "body"));
  } else if (type == "while_statement") {
    eval(field(node, "condition"));
    exec_block(field(node, "body"));
  } else if (type == "with_statement") {
    exec_block(field(node, "body"));
  } else if (type == "try_statement") {
    exec_block(field(node, "body"));
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(c) == "else_clause") exec_block(field(c, "body"));
      else if (type_of(c) == "finally_clause") exec_block(c);
    }
  } else if (type == "import_statement" || type == "import_from_statement") {
    note_imports(node);
  } else if (type == "delete_statement") {
    for (uint32_t i = 0; i < count(node); ++i) delete_target(child(node, i));
  } else if (type == "block" || type == "ERROR" || type == "module") {
    exec_block(node);
  }
}

void Flow::note_imports(TSNode node) {
  TSNode from = field(node, "module_name");
  for (uint32_t i = 0; i < count(node); ++i) {
    TSNode c = child(node, i);
    if (type_of(node) == "import_from_statement" && ts_node_eq(c, from)) continue;
    if (type_of(c) == "aliased_import") c = field(c, "alias");
    if (ts_node_is_null(c)) continue;
    std::string name(text(c));
    modules_.insert(name.substr(0, name.find('.')));
  }
}

void Flow::delete_target(TSNode target) {
  if (type_of(target) == "expression_list") {
    for (uint32_t i = 0; i < count(target); ++i) delete_target(child(target, i));
    return;
  }
  if (type_of(target) != "subscript") return;
  Ref frame = eval(field(target, "value"));
  TSNode key = field(target, "subscript");
  if (frame->kind == Kind::frame && !ts_node_is_null(key)) remove_columns(*frame, eval(key), line(target), rules::kDelete, false);
}

void Flow::exec_expression(TSNode node) {
  std::string_view type = type_of(node);
  if (type == "assignment") {
    TSNode right = field(node, "right");
    if (ts_node_is_null(right)) return;
    Ref value = eval(right);
    assign_line_ = line(node);
    assign(field(node, "left"), value);
  } else if (type == "augmented_assignment") {
    TSNode left = field(node, "left");
    Ref current = eval(left);
    Ref right = eval(field(node, "right"));
    std::string_view op = text(field(node, "operator"));
    if ((current->kind == Kind::names || current->kind == Kind::tuple) && (op == "+=" || op == "|=")) {
      if (current->kind == Kind::tuple && right->kind == Kind::tuple) current->items.insert(current->items.end(), right->items.begin(), right->items.end());
      else *current = *concatenate(current, right, line(node));
    } else if (current->kind == Kind::names && op == "-=") {
      *current = *difference(current, right, line(node), rules::kSetDifference);
    }
  } else {
    eval(node);
  }
}

void Flow::analyse_uncalled_functions() {
  for (auto& [name, fn] : functions_) {
    if (fn.called) continue;
    unit_ = fn.unit;
    block_ = static_cast<size_t>(fn.unit - units_.data());
    Scope scope;
    TSNode params = field(fn.node, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
      TSNode id = parameter_name(child(params, i));
      if (ts_node_is_null(id)) continue;
      std::string param(text(id));
      if (has_token(param, {"df", "data", "dataset", "frame", "dataframe"})) scope.vars[param] = all_frame();
    }
    fn.called = true;
    call_stack_.push_back(name);
    scopes_.push_back(std::move(scope));
    exec_block(field(fn.node, "body"));
    scopes_.back().returned.reset();
    scopes_.pop_back();
    call_stack_.pop_back();
  }
}

}  // namespace codebias::analysis::pipelines::flow
