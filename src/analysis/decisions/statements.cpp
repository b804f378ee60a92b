// Statements: blocks, if-chains, loops, returns, assignments.
#include "analysis/decisions/evaluator.h"

#include <algorithm>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

Flow Evaluator::exec_body(const ir::Body& body, Env& env, Value& ret, int depth) {
  // Frames an if-chain leaves for the rest of the body (exec_if) end with it.
  const size_t outer_frames = frames_.size();
  Flow flow = Flow::normal;
  for (const ir::StmtPtr& s : body) {
    flow = exec(*s, env, ret, depth);
    if (flow != Flow::normal) break;
  }
  frames_.resize(outer_frames);
  return flow;
}

Flow Evaluator::exec(const ir::Stmt& s, Env& env, Value& ret, int depth) {
  switch (s.kind) {
    case StmtKind::expression:
      if (s.value) eval_statement_call(*s.value, env, depth);
      return Flow::normal;
    case StmtKind::assign:
      if (s.target && s.value) assign(s, env, depth);
      return Flow::normal;
    case StmtKind::if_chain: return exec_if(s, env, ret, depth);
    case StmtKind::loop: {
      if (s.bodies.empty()) return Flow::normal;
      if (s.target && s.value) {
        std::optional<std::vector<Value>> items = items_of(eval(*s.value, env, depth));
        // Only a list of known items (literals, tables) is run item by item: over a list of
        // people, the attribute read from each item is one person's, counted once.
        bool known = items && std::none_of(items->begin(), items->end(), [](const Value& item) {
          return item.kind == Value::Kind::unknown;
        }) && take_item_runs(items->size());
        if (known) {
          // Each item's run is certain: a return or raise in it is the function's.
          for (const Value& item : *items) {
            bind(*s.target, item, env);
            Flow f = exec_body(s.bodies[0], env, ret, depth);
            if (f != Flow::normal && f != Flow::skipped) return f;
          }
          return Flow::normal;
        }
        bind(*s.target, Value::unknown(), env);
      }
      frames_.push_back(Frame{false, true, {}, {}, {}});
      Value ignored;
      // A return inside a loop depends on data we do not know: ignored.
      exec_body(s.bodies[0], env, ignored, depth);
      frames_.pop_back();
      return Flow::normal;
    }
    case StmtKind::block:
      return s.bodies.empty() ? Flow::normal : exec_body(s.bodies[0], env, ret, depth);
    case StmtKind::ret: {
      // A bare `return` in the scoring function (often what is left of garbled output) returns
      // what was accumulated, like falling off the end.
      Value v = s.value ? eval(*s.value, env, depth) : depth == 0 ? accumulated(env) : Value{};
      if (path_uncertain() && !path_dependent()) {
        if (depth == 0 && path_effects()) {
          carry_path_effects(v);
          ret = std::move(v);
          return Flow::returned;
        }
        if (depth == 0 && path_threshold() && (v.kind == Value::Kind::string || v.kind == Value::Kind::boolean)) {
          mark_threshold_label(v, s.line, rules::kIfChain);
          ret = std::move(v);
          return Flow::returned;
        }
        // Returns on conditions about other inputs are assumed not taken.
        return Flow::normal;
      }
      if (path_dependent()) {
        if (depth > 0) {
          // A helper returning per-group values is a lookup, not an early exit.
          v = promote(v, s.line);
        } else {
          v.effects |= kEarlyReturn;
          v.tainted = true;
          v.events.push_back(add_event(s.line, path_rule(), std::nullopt));
        }
      }
      ret = std::move(v);
      return Flow::returned;
    }
    case StmtKind::skip:
      // A `continue` on conditions about other inputs is assumed not taken, like a return.
      return path_uncertain() && !path_dependent() ? Flow::normal : Flow::skipped;
    case StmtKind::raise:
      if (path_uncertain() && !path_dependent()) return Flow::normal;
      if (path_dependent()) ret.events.push_back(add_event(s.line, path_rule(), std::nullopt));
      return Flow::raised;
    case StmtKind::havoc:
      for (const std::string& name : s.names) {
        bool defined = false;
        Value v = read_target(name, env, defined);
        v.kind = Value::Kind::number;
        v.base_known = false;
        env[name] = v;
      }
      return Flow::normal;
    case StmtKind::other: return Flow::normal;
  }
  return Flow::normal;
}

Flow Evaluator::exec_if(const ir::Stmt& s, Env& env, Value& ret, int depth) {
  bool excluded_by_attribute = false;  // an earlier condition was false because of the attribute
  const char* excluded_rule = "";
  const char* skip_ruled_out = "";  // the attribute ruled out a branch that skips the rest of the loop's run
  bool all_return = true;
  std::optional<Value> joined_return;
  size_t n = s.bodies.size();
  for (size_t i = 0; i < n; ++i) {
    Condition c;
    bool is_else = i >= s.conditions.size();
    if (!is_else) {
      c = eval_condition(*s.conditions[i], env, depth);
      if (c.truth == Truth::no) {
        if (c.involved) {
          excluded_by_attribute = true;
          excluded_rule = c.rule;
          if (skips_run(s.bodies[i])) skip_ruled_out = c.rule;
        }
        all_return = false;
        continue;
      }
    } else {
      c.truth = Truth::yes;
    }
    Frame frame;
    frame.dependent = (c.truth == Truth::yes && c.involved) || excluded_by_attribute;
    frame.uncertain = c.truth == Truth::unknown;
    frame.threshold = c.truth == Truth::unknown && c.threshold;
    if (frame.threshold) frame.threshold_events = c.events;
    if (frame.uncertain) frame.effects = c.effects & kNumericUse;
    frame.construct = s.rule.empty() ? std::string_view(rules::kIfChain) : std::string_view(s.rule);
    if (c.truth == Truth::yes && c.involved) {
      frame.detail = c.rule;
    } else {
      frame.step = is_else ? rules::kElse : rules::kAfter;
      frame.detail = excluded_rule;
    }
    frames_.push_back(frame);
    Value branch_ret;
    Flow f = exec_body(s.bodies[i], env, branch_ret, depth);
    frames_.pop_back();
    if (f == Flow::raised || f == Flow::skipped) {
      if (!frame.uncertain) return f;
      all_return = all_return && f == Flow::raised;
    } else if (f == Flow::returned) {
      // A label the threshold chose is the decision, even though the branch is uncertain.
      if (!frame.uncertain || (branch_ret.effects & kThreshold)) {
        ret = std::move(branch_ret);
        return f;
      }
      if (!joined_return) joined_return = branch_ret;
      else merge_trace(*joined_return, branch_ret);
    } else {
      all_return = false;
    }
    if (c.truth == Truth::yes) break;  // later branches are unreachable
    if (is_else) break;
  }
  // Every branch returned (on conditions about other inputs): the chain returns.
  bool has_else = n > s.conditions.size();
  if (all_return && has_else && joined_return) {
    ret = std::move(*joined_return);
    return Flow::returned;
  }
  // `if p.gender == 'female': continue`: for the others, the rest of the loop's run (the
  // selection that follows) is reached because the attribute ruled that branch out.
  if (*skip_ruled_out) {
    std::string_view construct = s.rule.empty() ? std::string_view(rules::kIfChain) : std::string_view(s.rule);
    frames_.push_back(Frame{true, false, construct, rules::kAfter, skip_ruled_out});
  }
  return Flow::normal;
}

bool Evaluator::skips_run(const ir::Body& branch) {
  return std::any_of(branch.begin(), branch.end(), [](const ir::StmtPtr& s) { return s->kind == StmtKind::skip; });
}

std::string Evaluator::target_key(const ir::Expr& e) {
  if (e.kind == ExprKind::name) return e.text;
  if (e.kind == ExprKind::member && !e.children.empty()) return target_key(*e.children[0]) + "." + e.text;
  if (e.kind == ExprKind::index && e.children.size() == 2 && e.children[1]->kind == ExprKind::string)
    return target_key(*e.children[0]) + "[" + e.children[1]->text + "]";
  return {};
}

Value Evaluator::read_target(const std::string& key, Env& env, bool& defined) {
  auto it = env.find(key);
  defined = it != env.end();
  if (defined) return it->second;
  auto g = globals_->find(key);
  if (g != globals_->end()) {
    defined = true;
    return g->second;
  }
  return Value::number(0);
}

void Evaluator::assign(const ir::Stmt& s, Env& env, int depth) {
  const ir::Expr& target = *s.target;
  // d[key] = v on a known dict/list: update the entry.
  if (target.kind == ExprKind::index && target.children.size() == 2 && s.op.empty()) {
    std::string container = target_key(*target.children[0]);
    auto it = env.find(container);
    if (it != env.end() && it->second.kind == Value::Kind::dict) {
      Value key = eval(*target.children[1], env, depth);
      Value v = eval(*s.value, env, depth);
      if (path_dependent()) v = promote(v, s.line);
      auto items = std::make_shared<std::vector<std::pair<Value, Value>>>(*it->second.items);
      bool replaced = false;
      for (auto& [k, old] : *items)
        if (k.kind == Value::Kind::string && key.kind == Value::Kind::string && k.text == key.text) {
          old = v;
          replaced = true;
        }
      if (!replaced) items->emplace_back(key, v);
      it->second.items = items;
      return;
    }
  }
  std::string key = target_key(target);
  if (key.empty()) return;
  Value amount = eval(*s.value, env, depth);
  bool defined = false;
  Value current = read_target(key, env, defined);
  if (s.op.empty()) {
    if (!path_dependent() && path_threshold()) mark_threshold_label(amount, s.line, rules::kIfChain);
    env[key] = assign_plain(current, defined, std::move(amount), s.line);
    return;
  }
  if (s.op == "+" || s.op == "-") {
    // Negated first, so that the evidence of `s -= 2` records the -2 the group gets.
    if (s.op == "-") negate(amount);
    if (path_dependent()) {
      amount = promote(amount, s.line);
    } else if (path_uncertain()) {
      amount.base_known = false;
      carry_path_effects(amount);
    }
    env[key] = add(current, amount);
    return;
  }
  if (s.op == "*" || s.op == "/" || s.op == "//" || s.op == "**" || s.op == "%") {
    if (path_dependent() || amount.tainted) {
      Value v = current;
      v.effects |= kMultiplicative;
      v.tainted = true;
      merge_trace(v, amount);
      v.events.push_back(add_event(s.line, path_dependent() ? path_rule() : std::string(amount.origin), std::nullopt));
      env[key] = v;
      return;
    }
    if (path_uncertain()) {
      current.base_known = false;
      env[key] = current;
      return;
    }
    env[key] = arithmetic(current, s.op, amount, s.line);
    return;
  }
  // |=, &=, <<= ...: not a score computation we model
  current.base_known = false;
  env[key] = current;
}

Value Evaluator::assign_plain(const Value& current, bool defined, Value v, int line) {
  if (path_dependent()) {
    bool fresh = !defined || (current.kind == Value::Kind::number && current.base_known && current.dep == 0 &&
                              !current.tainted && current.effects == 0);
    if (!v.numeric() || v.kind == Value::Kind::none) {
      v.tainted = true;
      return v;
    }
    if (fresh) {
      // Setting a still-initial variable on a branch is the same as adding the difference.
      double initial = defined ? current.base : 0;
      Value delta = v;
      if (delta.base_known) delta.base -= initial;
      Value out = promote(delta, line);
      out.base = initial;
      return out;
    }
    Value out = v;
    out.effects |= kOverride;
    out.tainted = true;
    merge_trace(out, current);
    out.events.push_back(add_event(line, path_rule(), std::nullopt));
    return out;
  }
  if (path_uncertain()) {
    // An alias of the attribute (`if hasattr(t, 'gender'): g = t.gender`) stays the attribute.
    if (v.kind == Value::Kind::attribute) return v;
    // Assigned only on some inputs: the attribute-independent part becomes unknown.
    Value out = v.tainted ? v : current;
    carry_path_effects(out);
    if (v.tainted) merge_trace(out, current);
    out.base_known = false;
    if (out.kind != Value::Kind::number) out.kind = Value::Kind::number;
    return out;
  }
  return v;
}

void Evaluator::eval_statement_call(const ir::Expr& e, Env& env, int depth) {
  // list.append(x) / list.push(x) on a known list: remember the item, so sum(list) sees it.
  if (e.kind == ExprKind::call && !e.children.empty() && e.children[0]->kind == ExprKind::member &&
      e.children.size() == 2) {
    const ir::Expr& callee = *e.children[0];
    if (e.library & ir::kAppend) {
      std::string key = target_key(*callee.children[0]);
      auto it = env.find(key);
      if (it != env.end() && it->second.kind == Value::Kind::list) {
        Value item = eval(*e.children[1], env, depth);
        if (path_dependent()) item = kept_item(item, e.line);
        auto items = std::make_shared<std::vector<std::pair<Value, Value>>>(*it->second.items);
        items->emplace_back(Value{}, item);
        it->second.items = items;
        return;
      }
    }
  }
  eval(e, env, depth);
}

void Evaluator::bind(const ir::Expr& target, const Value& item, Env& env) {
  if (target.kind == ExprKind::name) {
    env[target.text] = item.kind == Value::Kind::unknown ? resolve_name(target.text) : item;
    return;
  }
  const bool unpacks = item.kind == Value::Kind::list && item.items->size() == target.children.size();
  for (size_t i = 0; i < target.children.size(); ++i)
    bind(*target.children[i], unpacks ? (*item.items)[i].second : Value::unknown(), env);
}

}  // namespace codebias::analysis::decisions
