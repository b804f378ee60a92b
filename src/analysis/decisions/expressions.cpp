// Expressions, arithmetic on split numbers, and table lookups.
#include "analysis/decisions/evaluator.h"

#include <algorithm>
#include <cmath>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

void Evaluator::negate(Value& v) {
  v.base = -v.base;
  v.dep = -v.dep;
}

Value Evaluator::as_number(const Value& v) {
  Value out = v;
  if (v.kind == Value::Kind::attribute) {
    out.kind = Value::Kind::number;
    if (persona_.age) {
      out.base = 0;
      out.dep = *persona_.age;
      out.origin = rules::kAgeValue;
    } else {
      out.base_known = false;
      out.effects |= kNumericUse;
    }
    return out;
  }
  if (v.kind == Value::Kind::number || v.kind == Value::Kind::boolean) {
    out.kind = Value::Kind::number;
    return out;
  }
  out.kind = Value::Kind::number;
  out.base = 0;
  out.dep = 0;
  out.base_known = false;
  return out;
}

Value Evaluator::add(const Value& a0, const Value& b0) {
  Value a = as_number(a0), b = as_number(b0);
  Value out = a;
  out.base = a.base + b.base;
  out.base_known = a.base_known && b.base_known;
  out.dep = a.dep + b.dep;
  merge_trace(out, b);
  return out;
}

Value Evaluator::arithmetic(const Value& a0, const std::string& op, const Value& b0, int line) {
  if (op == "+") return add(a0, b0);
  if (op == "-") {
    Value b = as_number(b0);
    negate(b);
    return add(a0, b);
  }
  Value a = as_number(a0), b = as_number(b0);
  Value out = a;
  merge_trace(out, b);
  bool a_const = !a.tainted && a.base_known;
  bool b_const = !b.tainted && b.base_known;
  if (op == "*" || op == "/") {
    if (!a.tainted && !b.tainted) {
      out.base_known = a.base_known && b.base_known;
      out.base = op == "*" ? a.base * b.base : (b.base != 0 ? a.base / b.base : 0);
      out.dep = 0;
      return out;
    }
    // Scaling the attribute's points by a constant weight keeps them additive.
    if (a.tainted && b_const && (op == "*" || b.base != 0)) {
      double k = op == "*" ? b.base : 1.0 / b.base;
      out.base = a.base * k;
      out.dep = a.dep * k;
      out.base_known = a.base_known;
      return out;
    }
    if (b.tainted && a_const && op == "*") {
      out.base = b.base * a.base;
      out.dep = b.dep * a.base;
      out.base_known = b.base_known;
      return out;
    }
    // attribute-dependent factor times another input
    out.effects |= ((a.effects | b.effects) & kNumericUse) ? unsigned{kNumericUse} : unsigned{kMultiplicative};
    out.events.push_back(add_event(line, out.origin, std::nullopt));
    out.base_known = false;
    return out;
  }
  if (!a.tainted && !b.tainted) {
    out.base_known = a.base_known && b.base_known;
    if (op == "%" && b.base != 0) out.base = std::fmod(a.base, b.base);
    else if (op == "**") out.base = std::pow(a.base, b.base);
    else if (op == "//" && b.base != 0) out.base = std::floor(a.base / b.base);
    else out.base_known = false;
    return out;
  }
  out.effects |= kMultiplicative;
  out.base_known = false;
  return out;
}

Value Evaluator::eval(const ir::Expr& e, Env& env, int depth) {
  switch (e.kind) {
    case ExprKind::number: return Value::number(e.value);
    case ExprKind::string: return Value::string(e.text);
    case ExprKind::boolean: return Value::boolean(e.value != 0);
    case ExprKind::null: {
      Value v;
      v.kind = Value::Kind::none;
      return v;
    }
    case ExprKind::name: {
      auto it = env.find(e.text);
      if (it != env.end()) return it->second;
      auto g = globals_->find(e.text);
      if (g != globals_->end()) return g->second;
      if (functions_.count(e.text)) {
        Value f;
        f.kind = Value::Kind::function;
        f.text = e.text;
        return f;
      }
      return resolve_name(e.text);
    }
    case ExprKind::member: return eval_member(e, env, depth);
    case ExprKind::index: return eval_index(e, env, depth);
    case ExprKind::call: {
      if (is_quantifier(e)) {
        const char* construct = e.library & ir::kAny   ? rules::kAny
                                : e.library & ir::kAll ? rules::kAll
                                                       : rules::kNone;
        return decided_value(quantify(e, env, depth), e.line, construct);
      }
      Value v = eval_call(e, env, depth);
      // A test the attribute decided (x.equals(y), v.includes(x)), used as a value, counts like
      // a comparison: `return groups.includes(c.race)`.
      if ((e.library & kTests) && v.kind == Value::Kind::boolean && v.tainted)
        return decided_value(truth_of(v), e.line, rules::kBoolean);
      return v;
    }
    case ExprKind::unary: {
      if (e.text == "not") {
        Condition c = eval_condition(*e.children[0], env, depth);
        return condition_value(c.truth == Truth::yes ? Truth::no : c.truth == Truth::no ? Truth::yes : Truth::unknown, c);
      }
      Value v = as_number(eval(*e.children[0], env, depth));
      if (e.text == "-") negate(v);
      return v;
    }
    case ExprKind::binary: {
      Value a = eval(*e.children[0], env, depth);
      Value b = eval(*e.children[1], env, depth);
      if (a.kind == Value::Kind::string || b.kind == Value::Kind::string || a.kind == Value::Kind::list) {
        Value out = Value::unknown();
        merge_trace(out, a);
        merge_trace(out, b);
        return out;
      }
      return arithmetic(a, e.text, b, e.line);
    }
    case ExprKind::compare:
    case ExprKind::membership:
    case ExprKind::logical: {
      // `gender or 'unknown'` as a value keeps the attribute
      if (e.kind == ExprKind::logical && e.text == "or") {
        Value a = eval(*e.children[0], env, depth);
        if (a.kind == Value::Kind::attribute || a.kind == Value::Kind::dict || a.kind == Value::Kind::list) return a;
      }
      return decided_value(eval_condition(e, env, depth), e.line, rules::kBoolean);
    }
    case ExprKind::conditional: {
      Condition c = eval_condition(*e.children[0], env, depth);
      if (c.truth == Truth::unknown) {
        Value a = eval(*e.children[1], env, depth);
        Value b = eval(*e.children[2], env, depth);
        if (c.threshold && (a.kind == Value::Kind::string || a.kind == Value::Kind::boolean) &&
            (b.kind == Value::Kind::string || b.kind == Value::Kind::boolean)) {
          a.events.insert(a.events.end(), c.events.begin(), c.events.end());
          mark_threshold_label(a, e.line, rules::kConditional);
          return a;
        }
        Value out = a.tainted ? a : b;
        merge_trace(out, a.tainted ? b : a);
        out.base_known = out.base_known && a.base_known && b.base_known && a.base == b.base;
        return out;
      }
      Value chosen = eval(*e.children[c.truth == Truth::yes ? 1 : 2], env, depth);
      if (!c.involved) return chosen;
      frames_.push_back(Frame{true, false, rules::kConditional, "", c.rule});
      Value out = promote(chosen, e.line);
      frames_.pop_back();
      out.effects |= c.effects;
      return out;
    }
    case ExprKind::list: {
      Value v;
      v.kind = Value::Kind::list;
      v.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
      for (const ir::ExprPtr& c : e.children) v.items->emplace_back(Value{}, eval(*c, env, depth));
      return v;
    }
    case ExprKind::dict: {
      Value v;
      v.kind = Value::Kind::dict;
      v.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
      for (size_t i = 0; i + 1 < e.children.size(); i += 2)
        v.items->emplace_back(eval(*e.children[i], env, depth), eval(*e.children[i + 1], env, depth));
      return v;
    }
    case ExprKind::comprehension: return comprehension(e, env, depth);
    case ExprKind::lambda:  // only a quantifier's test is followed
    case ExprKind::unknown: return Value::unknown();
  }
  return Value::unknown();
}

Value Evaluator::eval_member(const ir::Expr& e, Env& env, int depth) {
  std::string key = target_key(e);
  if (!key.empty()) {
    auto it = env.find(key);
    if (it != env.end()) return it->second;
  }
  // Enum members: Gender.MALE / Race::BLACK read as the literal "MALE" when compared. The
  // capitalised type name must not be taken for the attribute itself.
  const ir::Expr& owner = *e.children[0];
  if (owner.kind == ExprKind::name && !owner.text.empty() && owner.text[0] >= 'A' && owner.text[0] <= 'Z' &&
      !env.count(owner.text) && e.text.size() > 1 &&
      std::all_of(e.text.begin(), e.text.end(), [](char c) { return (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'); }))
    return Value::string(e.text);
  Value object = eval(owner, env, depth);
  if (object.kind == Value::Kind::attribute && (e.library & ir::kSameValue)) return object;
  if (object.kind == Value::Kind::dict) return lookup(object, Value::string(e.text), nullptr, e.line, false);
  if (object.kind == Value::Kind::attribute) return Value::unknown();
  Value named = resolve_name(e.text);
  if (named.tainted) return named;
  return Value::unknown();
}

Value Evaluator::eval_index(const ir::Expr& e, Env& env, int depth) {
  std::string key = target_key(e);
  if (!key.empty()) {
    auto it = env.find(key);
    if (it != env.end()) return it->second;
  }
  Value container = eval(*e.children[0], env, depth);
  Value index = eval(*e.children[1], env, depth);
  if (container.kind == Value::Kind::dict) return lookup(container, index, nullptr, e.line, false);
  if (container.kind == Value::Kind::list && index.kind == Value::Kind::number && !index.tainted &&
      index.base >= 0 && static_cast<size_t>(index.base) < container.items->size())
    return (*container.items)[static_cast<size_t>(index.base)].second;
  if (container.kind == Value::Kind::attribute && index.kind == Value::Kind::string) return Value::unknown();
  // person[ethnicity], where a parameter names the attribute: the attribute's key, so a read of it.
  if (container.kind == Value::Kind::unknown && index.kind == Value::Kind::attribute &&
      e.children[1]->kind == ExprKind::name)
    return index;
  if (index.kind == Value::Kind::string && !index.tainted) return resolve_name(index.text);
  return Value::unknown();
}

Value Evaluator::decided_value(const Condition& c, int line, const char* construct) {
  Value v = condition_value(c.truth, c);
  if (c.involved && c.truth == Truth::yes)
    v.events.push_back(add_event(line, std::string(construct) + "/" + c.rule, v.dep));
  if (c.truth == Truth::unknown && c.threshold)
    v.events.push_back(add_event(line, std::string(construct) + "/" + rules::kThreshold, std::nullopt));
  return v;
}

Value Evaluator::condition_value(Truth truth, const Condition& c) {
  if (truth == Truth::unknown) {
    if (c.effects & kNumericUse) {  // `return c.race >= 80`
      Value v = Value::unknown();
      v.tainted = true;
      v.effects = c.effects;
      return v;
    }
    if (!c.threshold) return Value::unknown();
    // `return score >= 5` where the attribute changed the score and other inputs are unknown:
    // True or False as the attribute tips it, like a label an if-chain chose on that threshold.
    Value v = Value::boolean(false);
    v.base_known = false;
    v.dep = c.threshold_dep;
    v.tainted = true;
    v.effects = c.effects | kThreshold;
    v.events = c.events;
    return v;
  }
  Value v = Value::boolean(truth == Truth::yes);
  if (c.involved) {
    // A truth the attribute decided is the attribute's part: True counts 1 for this group, so a
    // returned `gender == 'male' and ...` gives per-group outcomes that differ.
    v.dep = v.base;
    v.base = 0;
  }
  v.tainted = c.involved;
  v.origin = c.rule;
  v.effects = c.effects;
  v.events = c.events;
  return v;
}

Value Evaluator::lookup(const Value& dict, const Value& key, const Value* fallback, int line, bool has_default) {
  if (key.kind == Value::Kind::attribute) {
    for (const auto& [k, v] : *dict.items) {
      if (k.kind != Value::Kind::string) continue;
      if (matches_literal(k.text)) {
        Value out = v;
        frames_.push_back(Frame{true, false, rules::kLookup, "", rules::kTable});
        out = promote(out, line);
        frames_.pop_back();
        out.origin = rules::kLookup;
        return out;
      }
    }
    if (has_default && fallback) {
      frames_.push_back(Frame{true, false, rules::kLookup, "", rules::kDefault});
      Value out = promote(*fallback, line);
      frames_.pop_back();
      out.origin = rules::kLookup;
      return out;
    }
    Value out = Value::number(0);
    out.tainted = true;
    out.origin = rules::kLookup;
    return out;
  }
  if (key.kind == Value::Kind::string) {
    for (const auto& [k, v] : *dict.items) {
      if (k.kind != Value::Kind::string || k.text != key.text) continue;
      if (!key.tainted) return v;
      // The key itself was chosen by the attribute: the entry is that group's value.
      frames_.push_back(Frame{true, false, rules::kLookup, "", rules::kTable});
      Value out = promote(v, line);
      frames_.pop_back();
      merge_trace(out, key);
      out.origin = rules::kLookup;
      return out;
    }
  }
  if (key.kind == Value::Kind::number && !key.tainted) {
    for (const auto& [k, v] : *dict.items)
      if (k.kind == Value::Kind::number && k.base == key.base) return v;
  }
  if (key.tainted && (key.kind == Value::Kind::number || key.kind == Value::Kind::boolean)) {
    for (const auto& [k, v] : *dict.items)
      if ((k.kind == Value::Kind::number || k.kind == Value::Kind::boolean) && k.base == key.total()) {
        Value out = v;
        merge_trace(out, key);
        return out;
      }
  }
  if (has_default && fallback) return *fallback;
  Value out = Value::unknown();
  merge_trace(out, key);
  return out;
}

}  // namespace codebias::analysis::decisions
