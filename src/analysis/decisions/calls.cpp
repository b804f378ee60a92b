// Calls: library methods and functions (ir::Library), the code's own functions, and tests of the attribute.
#include "analysis/decisions/evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

Value Evaluator::eval_call(const ir::Expr& e, Env& env, int depth) {
  return e.children[0]->kind == ExprKind::member ? eval_method_call(e, env, depth) : eval_function_call(e, env, depth);
}

Value Evaluator::eval_method_call(const ir::Expr& e, Env& env, int depth) {
  const ir::Expr& callee = *e.children[0];
  size_t argc = e.children.size() - 1;
  auto arg = [&](size_t i) { return eval(*e.children[i + 1], env, depth); };
  const unsigned library = e.library;
  const std::string& method = callee.text;
  Value object = eval(*callee.children[0], env, depth);
  if ((library & ir::kFilter) && argc >= 1 && e.children[1]->kind == ExprKind::lambda)
    return filtered(object, *e.children[1], env, depth);
  if ((library & ir::kMap) && argc >= 1) return kept_people(object);
  const bool compares = library & (ir::kEquals | ir::kOrder);
  if (object.kind == Value::Kind::attribute) {
    if (library & ir::kSameValue) return object;
    if (compares && argc >= 1) {
      Value other = arg(0);
      return compare_equal(other, library & ir::kOrder ? "strcmp" : "equals");
    }
    if ((library & ir::kSubstring) && argc >= 1) {
      Value needle = arg(0);
      if (needle.kind == Value::Kind::string) return literal_condition(matches_literal(needle.text), rules::kContains);
    }
    return Value::unknown();
  }
  if (object.kind == Value::Kind::string && compares && argc >= 1) {
    Value other = arg(0);
    if (other.kind == Value::Kind::attribute) return compare_equal(object, library & ir::kOrder ? "strcmp" : "equals");
  }
  if (object.kind == Value::Kind::dict) {
    if ((library & ir::kEntry) && argc >= 1) {
      Value key = arg(0);
      Value fallback = argc >= 2 ? arg(1) : Value{};
      if (argc < 2) fallback.kind = Value::Kind::none;
      return lookup(object, key, &fallback, e.line, true);
    }
    if (library & ir::kValues) {
      Value list;
      list.kind = Value::Kind::list;
      list.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
      for (const auto& kv : *object.items) list.items->emplace_back(Value{}, kv.second);
      return list;
    }
    if (library & ir::kPairs) return pairs_of(object);
    if ((library & ir::kHasKey) && argc >= 1) return membership(arg(0), object, false);
  }
  if ((library & ir::kLength) && (object.kind == Value::Kind::list || object.kind == Value::Kind::dict))
    return length_of(object);
  if (object.kind == Value::Kind::list) {
    if (library & ir::kSameValue) return object;  // list.stream(), stream.collect(Collectors.toList())
    if ((library & ir::kPosition) && argc >= 1) {
      Value needle = arg(0);
      if (needle.kind == Value::Kind::attribute) {
        for (size_t i = 0; i < object.items->size(); ++i)
          if (matches((*object.items)[i].second)) {
            Value out = Value::number(0);
            out.dep = static_cast<double>(i);
            out.tainted = true;
            out.origin = rules::kRank;
            return out;
          }
        Value out = Value::number(-1);
        out.tainted = true;
        return out;
      }
    }
    if ((library & ir::kHasItem) && argc >= 1) return membership(arg(0), object, false);
  }
  // applicant.get('gender'), applicant.getGender(), getattr-like access
  if ((library & ir::kField) && argc >= 1) {
    Value key = arg(0);
    if (key.kind == Value::Kind::string) {
      Value v = resolve_name(key.text);
      if (v.tainted) return v;
    }
    return Value::unknown();
  }
  Value named = resolve_name(method);
  if (named.tainted && argc == 0) return named;
  if (object.kind == Value::Kind::function || functions_.count(method)) return call_function(method, e, env, depth, 1);
  // Unknown method on an unknown object: nothing is known of the result.
  Value out = Value::unknown();
  for (size_t i = 0; i < argc; ++i) {
    Value a = arg(i);
    if (a.kind == Value::Kind::number && a.tainted) merge_trace(out, a);
  }
  return out;
}

Value Evaluator::eval_function_call(const ir::Expr& e, Env& env, int depth) {
  const ir::Expr& callee = *e.children[0];
  size_t argc = e.children.size() - 1;
  auto arg = [&](size_t i) { return eval(*e.children[i + 1], env, depth); };
  const unsigned library = e.library;
  std::string name = callee.kind == ExprKind::name ? callee.text : std::string();
  if (name.empty()) return Value::unknown();
  if (functions_.count(name) && !env.count(name)) return call_function(name, e, env, depth, 1);
  if ((library & ir::kFilter) && argc >= 2 && e.children[1]->kind == ExprKind::lambda)
    return filtered(arg(1), *e.children[1], env, depth);
  if ((library & ir::kMap) && argc >= 2) return kept_people(arg(1));
  if ((library & ir::kOrder) && argc >= 2) {
    Value a = arg(0), b = arg(1);
    if (a.kind == Value::Kind::attribute) return compare_equal(b, "strcmp");
    if (b.kind == Value::Kind::attribute) return compare_equal(a, "strcmp");
    return Value::unknown();
  }
  if ((library & ir::kField) && argc >= 2) {
    Value key = arg(1);
    if (key.kind == Value::Kind::string) return resolve_name(key.text);
    return Value::unknown();
  }
  if ((library & (ir::kConvert | ir::kParseNumber | ir::kAbsolute)) && argc >= 1) {
    Value v = arg(0);
    if ((library & ir::kAbsolute) && v.kind == Value::Kind::number && !v.tainted && v.base_known) v.base = std::fabs(v.base);
    if ((library & ir::kParseNumber) && v.kind == Value::Kind::string && !v.tainted) {
      char* end = nullptr;
      double d = std::strtod(v.text.c_str(), &end);
      return end && *end == '\0' && !v.text.empty() ? Value::number(d) : Value::unknown();
    }
    return v;
  }
  if ((library & (ir::kMinimum | ir::kMaximum)) && argc >= 1) {
    // Caps and floors are ignored: the attribute's points are what the code adds.
    std::vector<Value> values;
    for (size_t i = 0; i < argc; ++i) values.push_back(arg(i));
    if (values.size() == 1 && values[0].kind == Value::Kind::list) {
      Value out = Value::unknown();
      for (const auto& kv : *values[0].items) merge_trace(out, kv.second);
      return out;
    }
    for (const Value& v : values)
      if (v.tainted) return v;
    for (const Value& v : values)
      if (!v.base_known || v.kind == Value::Kind::unknown) return v;
    Value out = values[0];
    for (const Value& v : values)
      out.base = library & ir::kMinimum ? std::min(out.base, v.base) : std::max(out.base, v.base);
    return out;
  }
  if ((library & ir::kSum) && argc >= 1) {
    Value list = arg(0);
    if (list.kind != Value::Kind::list) return Value::unknown();
    Value total = Value::number(0);
    for (const auto& kv : *list.items) total = add(total, kv.second);
    return total;
  }
  if ((library & ir::kLength) && argc >= 1) {
    Value counted = arg(0);
    return counted.kind == Value::Kind::list || counted.kind == Value::Kind::dict ? length_of(counted) : Value::unknown();
  }
  if ((library & ir::kRange) && argc >= 1) {
    double lo = 0, hi = 0;
    Value a = arg(0);
    if (argc >= 2) {
      Value b = arg(1);
      if (a.kind != Value::Kind::number || b.kind != Value::Kind::number || !a.base_known || !b.base_known)
        return Value::unknown();
      lo = a.base;
      hi = b.base;
    } else {
      if (a.kind != Value::Kind::number || !a.base_known) return Value::unknown();
      hi = a.base;
    }
    if (hi - lo > static_cast<double>(kMaxRangeItems) || hi < lo) return Value::unknown();
    Value v;
    v.kind = Value::Kind::list;
    v.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
    for (double x = lo; x < hi; x += 1) v.items->emplace_back(Value{}, Value::number(x));
    return v;
  }
  if (library & ir::kOpaque) return Value::unknown();
  Value named = resolve_name(name);
  if (named.tainted && argc <= 1) return named;  // getGender(applicant)
  return Value::unknown();
}

Value Evaluator::call_function(const std::string& name, const ir::Expr& call, Env& env, int depth, size_t first_arg) {
  auto it = functions_.find(name);
  if (it == functions_.end() || depth >= kMaxCallDepth) return Value::unknown();
  const ir::Function& fn = *it->second;
  std::vector<Value> args;
  for (size_t a = first_arg; a < call.children.size() && args.size() < fn.params.size(); ++a)
    args.push_back(eval(*call.children[a], env, depth));
  return invoke(fn, args, env, depth);
}

Value Evaluator::invoke(const ir::Function& fn, const std::vector<Value>& args, Env& env, int depth) {
  Env local;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    if (i < args.size()) local[fn.params[i]] = args[i];
    else if (fn.param_defaults[i]) local[fn.params[i]] = eval(*fn.param_defaults[i], env, depth);
    else local[fn.params[i]] = resolve_name(fn.params[i]);
  }
  Value ret;
  Flow f = exec_body(fn.body, local, ret, depth + 1);
  if (f == Flow::raised) {
    Value out = Value::unknown();
    if (path_dependent()) out.effects |= kRaises;
    return out;
  }
  return ret;
}

Value Evaluator::literal_condition(bool truth, const char* rule) {
  Value v = Value::boolean(truth);
  v.tainted = true;
  v.origin = rule;
  return v;
}

Value Evaluator::compare_equal(const Value& other, const char* how) {
  bool strcmp_like = std::string_view(how) == "strcmp";
  if (other.kind == Value::Kind::string) {
    bool eq = matches_literal(other.text);
    if (strcmp_like) {
      Value v = Value::number(0);
      v.dep = eq ? 0 : 1;
      v.tainted = true;
      v.origin = rules::kCompareEq;
      return v;
    }
    return literal_condition(eq, rules::kCompareEq);
  }
  return Value::unknown();
}

Value Evaluator::membership(const Value& item, const Value& container, bool negated) {
  Condition c;
  if (item.kind == Value::Kind::attribute && (container.kind == Value::Kind::list || container.kind == Value::Kind::dict)) {
    bool found = false;
    for (const auto& [k, v] : *container.items) {
      const Value& candidate = container.kind == Value::Kind::dict ? k : v;
      if (candidate.kind == Value::Kind::number && persona_.age) {
        if (candidate.base == *persona_.age) found = true;
      } else if (candidate.kind == Value::Kind::string && matches_literal(candidate.text)) {
        found = true;
      }
    }
    return literal_condition(found != negated, negated ? rules::kNotIn : rules::kMembership);
  }
  if (item.kind == Value::Kind::string && container.kind == Value::Kind::attribute)
    return literal_condition(matches_literal(item.text) != negated, rules::kContains);
  if (item.tainted && (item.kind == Value::Kind::number) && container.kind == Value::Kind::list) {
    bool found = false;
    for (const auto& kv : *container.items)
      if (kv.second.kind == Value::Kind::number && kv.second.base_known && kv.second.total() == item.total()) found = true;
    return literal_condition(found != negated, rules::kMembership);
  }
  return Value::unknown();
}

Value Evaluator::filtered(const Value& source, const ir::Expr& test, Env& env, int depth) {
  return selection(source, test.text, nullptr, std::span(test.children).first(1), env, depth);
}

Value Evaluator::kept_people(const Value& list) {
  std::optional<std::vector<Value>> items = items_of(list);
  if (!items || std::none_of(items->begin(), items->end(), [](const Value& item) { return item.kept_person; }))
    return Value::unknown();
  Value kept;
  kept.kind = Value::Kind::list;
  kept.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
  for (const Value& item : *items)
    if (item.kept_person) kept.items->emplace_back(Value{}, item);
  return kept;
}

Value Evaluator::pairs_of(const Value& dict) {
  Value list;
  list.kind = Value::Kind::list;
  list.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
  for (const auto& [key, value] : *dict.items) {
    Value pair;
    pair.kind = Value::Kind::list;
    pair.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
    pair.items->emplace_back(Value{}, key);
    pair.items->emplace_back(Value{}, value);
    list.items->emplace_back(Value{}, std::move(pair));
  }
  return list;
}

Value Evaluator::length_of(const Value& list) {
  Value count = Value::number(static_cast<double>(list.items->size()));
  if (list.kind != Value::Kind::list) return count;
  // A selection's kept person is the attribute's part of the count: len(selected) is 1 for the
  // groups it keeps; how many others it keeps is unknown.
  for (const auto& entry : *list.items) {
    const Value& item = entry.second;
    if (!item.kept_person) continue;
    count.base = 0;
    count.base_known = false;
    count.dep += 1;
    merge_trace(count, item);
  }
  return count;
}

}  // namespace codebias::analysis::decisions
