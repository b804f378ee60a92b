// The items of lists and tables: quantifiers (any, all, none) and comprehensions.
#include "analysis/decisions/evaluator.h"

#include <algorithm>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

bool Evaluator::is_quantifier(const ir::Expr& e) const {
  if (e.kind != ExprKind::call || !(e.library & kQuantifiers)) return false;
  const ir::Expr& callee = *e.children[0];
  return callee.kind != ExprKind::name || !functions_.count(callee.text);
}

Condition Evaluator::quantify(const ir::Expr& call, Env& env, int depth) {
  const bool every = call.library & ir::kAll;
  std::vector<Condition> truths = item_truths(call, every, env, depth);
  Condition c;
  c.truth = every ? Truth::yes : Truth::no;  // of no items
  if (!truths.empty()) c = truths[0];
  for (size_t i = 1; i < truths.size(); ++i) c = combine(c, truths[i], every);
  if (call.library & ir::kNone) c.truth = negated(c.truth);
  return c;
}

std::vector<Condition> Evaluator::item_truths(const ir::Expr& call, bool every, Env& env, int depth) {
  const ir::Expr& callee = *call.children[0];
  const bool method = callee.kind == ExprKind::member;
  const size_t argc = call.children.size() - 1;
  const ir::Expr* source = method ? callee.children[0].get() : argc >= 1 ? call.children[1].get() : nullptr;
  const size_t test_at = method ? 1 : 2;
  const ir::Expr* test = call.children.size() > test_at ? call.children[test_at].get() : nullptr;
  const std::vector<Condition> unknown(1);
  if (!source) return unknown;
  std::vector<Condition> truths;
  if (test && test->kind == ExprKind::lambda) {
    for_each_item(eval(*source, env, depth), test->text, env,
                  [&](Env& scope) { truths.push_back(eval_condition(*test->children[0], scope, depth)); });
    return truths;
  }
  if (test) {
    // a function of the code named as the test: any_of(v.begin(), v.end(), is_favoured)
    Value f = eval(*test, env, depth);
    auto fn = functions_.find(f.text);
    if (f.kind != Value::Kind::function || fn == functions_.end() || depth >= kMaxCallDepth) return unknown;
    std::optional<std::vector<Value>> items = items_of(eval(*source, env, depth));
    if (!items || !take_item_runs(items->size())) items = std::vector<Value>{Value::unknown()};
    for (const Value& item : *items) truths.push_back(truth_of(invoke(*fn->second, {item}, env, depth)));
    return truths;
  }
  if (source->kind == ExprKind::comprehension) {
    for_each_item(eval(*source->children[1], env, depth), source->text, env, [&](Env& scope) {
      // An item a filter leaves out counts for nothing: any(t if f) tests `f and t`, all(t if f)
      // `not f or t`.
      Condition c = eval_condition(*source->children[0], scope, depth);
      for (size_t i = 2; i < source->children.size(); ++i) {
        Condition kept = eval_condition(*source->children[i], scope, depth);
        if (every) kept.truth = negated(kept.truth);
        c = combine(kept, c, !every);
      }
      truths.push_back(c);
    });
    return truths;
  }
  if (source->kind == ExprKind::list) {
    for (const ir::ExprPtr& item : source->children) truths.push_back(eval_condition(*item, env, depth));
    return truths;
  }
  std::optional<std::vector<Value>> items = items_of(eval(*source, env, depth));
  if (!items) return unknown;
  for (const Value& item : *items) truths.push_back(truth_of(item));
  return truths;
}

template <typename Visit>
void Evaluator::for_each_item(const Value& source, const std::string& var, const Env& env, Visit&& visit) {
  std::optional<std::vector<Value>> items = items_of(source);
  if (source.kind == Value::Kind::attribute)
    items = std::vector<Value>{source};
  else if (!items || !take_item_runs(items->size()))
    items = std::vector<Value>{resolve_name(var)};
  for (const Value& item : *items) {
    Env scope = env;
    scope[var] = item;
    visit(scope);
  }
}

bool Evaluator::take_item_runs(size_t n) {
  if (n > kMaxUnrolledItems || item_runs_ + n > kMaxItemRuns) return false;
  item_runs_ += n;
  return true;
}

std::optional<std::vector<Value>> Evaluator::items_of(const Value& v) {
  if (v.kind != Value::Kind::list && v.kind != Value::Kind::dict) return std::nullopt;
  std::vector<Value> items;
  for (const auto& [key, item] : *v.items) items.push_back(v.kind == Value::Kind::dict ? key : item);
  return items;
}

Value Evaluator::comprehension(const ir::Expr& e, Env& env, int depth) {
  return selection(eval(*e.children[1], env, depth), e.text, e.children[0].get(), std::span(e.children).subspan(2),
                   env, depth);
}

Value Evaluator::selection(const Value& source, const std::string& var, const ir::Expr* element,
                           std::span<const ir::ExprPtr> filters, Env& env, int depth) {
  auto element_of = [&](Env& scope) { return element ? eval(*element, scope, depth) : scope[var]; };
  Value list;
  list.kind = Value::Kind::list;
  list.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
  std::optional<std::vector<Value>> items = items_of(source);
  if (!items) {
    Env scope = env;
    scope[var] = resolve_name(var);
    Condition kept;
    kept.truth = Truth::yes;
    int line = 0;  // the evidence stands on the first filter the attribute decided
    for (const ir::ExprPtr& filter : filters) {
      Condition c = eval_condition(*filter, scope, depth);
      if (c.involved && line == 0) line = filter->line;
      kept = combine(kept, c, true);
    }
    if (!kept.involved) {
      Value out = Value::unknown();
      if (kept.effects & kNumericUse) {  // a categorical attribute compared as a number
        out.tainted = true;
        out.effects = kept.effects;
      }
      return out;
    }
    list.tainted = true;
    if (kept.truth == Truth::yes) {
      frames_.push_back(Frame{true, false, rules::kSelection, "", kept.rule});
      list.items->emplace_back(Value{}, kept_item(element_of(scope), line));
      frames_.pop_back();
    }
    return list;
  }
  if (!take_item_runs(items->size())) return Value::unknown();
  list.tainted = source.tainted;  // an earlier selection's list, empty for this persona
  for (const Value& item : *items) {
    // A person an earlier selection kept is tested like an unknown person, and stays kept
    // (whatever the element makes of them) unless a test is false for them.
    Env scope = env;
    scope[var] = item.kept_person ? resolve_name(var) : item;
    bool kept = true;
    for (const ir::ExprPtr& filter : filters) {
      Condition c = eval_condition(*filter, scope, depth);
      if (!item.kept_person && (c.truth == Truth::unknown || c.involved)) return Value::unknown();
      kept = kept && c.truth != Truth::no;
    }
    if (kept) list.items->emplace_back(Value{}, item.kept_person ? item : element_of(scope));
  }
  return list;
}

}  // namespace codebias::analysis::decisions
