// Conditions: their truth, and whether the attribute decided it.
#include "analysis/decisions/evaluator.h"

#include <algorithm>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

Condition Evaluator::truth_of(const Value& v) {
  Condition c;
  c.effects = v.effects;
  c.events = v.events;
  if (v.kind == Value::Kind::boolean && !v.base_known) {  // a threshold's truth (condition_value)
    c.threshold = (v.effects & kThreshold) != 0;
    c.threshold_dep = v.dep;
    return c;
  }
  if (v.kind == Value::Kind::boolean || (v.kind == Value::Kind::number && v.base_known)) {
    c.truth = v.total() != 0 ? Truth::yes : Truth::no;
    c.involved = v.tainted;
    c.rule = *v.origin ? v.origin : rules::kFlag;
    return c;
  }
  if (v.kind == Value::Kind::none) {
    c.truth = Truth::no;
    return c;
  }
  return c;  // unknown
}

Condition Evaluator::eval_condition(const ir::Expr& e, Env& env, int depth) {
  if (e.kind == ExprKind::logical) {
    Condition a = eval_condition(*e.children[0], env, depth);
    Condition b = eval_condition(*e.children[1], env, depth);
    return combine(a, b, e.text == "and");
  }
  if (e.kind == ExprKind::unary && e.text == "not") {
    Condition c = eval_condition(*e.children[0], env, depth);
    c.truth = negated(c.truth);
    return c;
  }
  if (is_quantifier(e)) return quantify(e, env, depth);
  if (e.kind == ExprKind::compare) {
    Value a = eval(*e.children[0], env, depth);
    Value b = eval(*e.children[1], env, depth);
    return compare(a, e.text, b);
  }
  if (e.kind == ExprKind::membership) {
    Value item = eval(*e.children[0], env, depth);
    Value container = eval(*e.children[1], env, depth);
    return truth_of(membership(item, container, e.text == "not in"));
  }
  // A test's call as a condition is its truth, without the event its use as a value records.
  Value v = e.kind == ExprKind::call ? eval_call(e, env, depth) : eval(e, env, depth);
  if (v.kind == Value::Kind::attribute) return Condition{};  // presence check
  return truth_of(v);
}

Condition Evaluator::combine(const Condition& a, const Condition& b, bool is_and) {
  if (a.truth == Truth::unknown) return merge_effects(b, a);
  if (b.truth == Truth::unknown) return merge_effects(a, b);
  Condition c;
  bool ta = a.truth == Truth::yes, tb = b.truth == Truth::yes;
  c.truth = (is_and ? (ta && tb) : (ta || tb)) ? Truth::yes : Truth::no;
  c.involved = a.involved || b.involved;
  c.rule = a.involved ? a.rule : b.rule;
  c.effects = a.effects | b.effects;
  return c;
}

Condition Evaluator::merge_effects(Condition c, const Condition& other) {
  c.effects |= other.effects;
  if (c.truth == Truth::unknown && other.threshold) {
    c.threshold = true;
    c.threshold_dep += other.threshold_dep;
    c.events.insert(c.events.end(), other.events.begin(), other.events.end());
  }
  return c;
}

Condition Evaluator::compare(const Value& a, const std::string& op, const Value& b) {
  bool eq = op == "==";
  bool ne = op == "!=";
  const Value* attr = a.kind == Value::Kind::attribute ? &a : b.kind == Value::Kind::attribute ? &b : nullptr;
  const Value* other = attr == &a ? &b : &a;
  Condition c;
  if (attr) {
    if (other->kind == Value::Kind::string && (eq || ne)) {
      bool m = matches_literal(other->text);
      c.truth = (m != ne) ? Truth::yes : Truth::no;
      c.involved = true;
      c.rule = eq ? rules::kCompareEq : rules::kCompareNe;
      return c;
    }
    if (other->kind == Value::Kind::number && other->base_known && !other->tainted) {
      if (!persona_.age) {
        if (persona_.group < 0) return c;  // a non-canonical literal has no number
        c.effects |= kNumericUse;
        c.involved = true;
        c.rule = rules::kNumericUse;
        return c;
      }
      double x = *persona_.age, y = other->base;
      if (attr == &b) std::swap(x, y);
      c.truth = numeric_compare(x, op, y) ? Truth::yes : Truth::no;
      c.involved = true;
      c.rule = rules::kAgeThreshold;
      return c;
    }
    if (other->kind == Value::Kind::attribute) return c;
    return c;
  }
  // Both sides plain values: compare when known; involved when either came from the attribute.
  bool a_num = (a.kind == Value::Kind::number || a.kind == Value::Kind::boolean) && a.base_known;
  bool b_num = (b.kind == Value::Kind::number || b.kind == Value::Kind::boolean) && b.base_known;
  if (a_num && b_num && (a.tainted || b.tainted)) {
    c.truth = numeric_compare(a.total(), op, b.total()) ? Truth::yes : Truth::no;
    c.involved = true;
    const char* origin = a.tainted ? a.origin : b.origin;
    c.rule = std::string_view(origin) == rules::kLookup ? rules::kRankCompare
             : std::string_view(origin) == rules::kAgeValue ? rules::kAgeThreshold
             : *origin ? origin : rules::kCompareDerived;
    c.effects = a.effects | b.effects;
    return c;
  }
  if (a_num && b_num) {
    c.truth = numeric_compare(a.total(), op, b.total()) ? Truth::yes : Truth::no;
    return c;
  }
  if ((a.tainted && a.kind == Value::Kind::number && !a.base_known) || (b.tainted && b.kind == Value::Kind::number && !b.base_known)) {
    c.effects = (a.effects | b.effects) & kNumericUse;
    if (c.effects) {
      c.involved = true;
      c.rule = rules::kNumericUse;
    } else {
      c.threshold = true;
      c.threshold_dep = a.tainted ? a.dep : b.dep;
      c.events = a.tainted ? a.events : b.events;
    }
    return c;
  }
  if (a.kind == Value::Kind::string && b.kind == Value::Kind::string && (eq || ne)) {
    c.truth = ((normalize_literal(a.text) == normalize_literal(b.text)) != ne) ? Truth::yes : Truth::no;
    c.involved = a.tainted || b.tainted;
    c.rule = c.involved ? rules::kCompareDerived : "";
    return c;
  }
  return c;
}

bool Evaluator::numeric_compare(double x, const std::string& op, double y) {
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  return false;
}

}  // namespace codebias::analysis::decisions
