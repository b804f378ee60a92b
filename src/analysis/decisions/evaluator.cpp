// The persona's attribute value, and the evidence of the path that led to a value.
#include "analysis/decisions/evaluator.h"

#include <algorithm>

#include "analysis/ir/rules.h"
#include "analysis/parsing/prefilter.h"

namespace codebias::analysis::decisions {

Value Evaluator::run(Flow& flow) {
  Env globals;
  globals_ = &globals;
  // Module-level tables and constants; example usage after the definition is never run
  // because only assignments of literals are kept.
  for (const ir::StmtPtr& s : ctx_.program->globals)
    if (s->kind == StmtKind::assign && s->op.empty() && s->target && s->target->kind == ExprKind::name)
      globals[s->target->text] = eval(*s->value, globals, 0);
  if (!ctx_.entry) {
    Env env;
    Value ret;
    flow = exec_body(ctx_.program->globals, env, ret, 0);
    if (flow == Flow::skipped) flow = Flow::normal;  // a stray `continue` outside a loop
    return flow == Flow::returned ? ret : accumulated(env);
  }
  Env env;
  const ir::Function& fn = *ctx_.entry;
  for (const std::string& p : fn.params) env[p] = resolve_name(p);
  Value ret;
  flow = exec_body(fn.body, env, ret, 0);
  if (flow == Flow::skipped) flow = Flow::normal;
  if (flow == Flow::normal) return accumulated(env);
  return scalar(ret);
}

Value Evaluator::scalar(const Value& v) {
  if (v.kind != Value::Kind::list && v.kind != Value::Kind::dict) return v;
  Value best = v;
  best.tainted = false;
  for (const auto& kv : *v.items)
    if (kv.second.tainted && (!best.tainted || kv.second.events.size() > best.events.size())) best = kv.second;
  return best.tainted ? best : v;
}

Value Evaluator::accumulated(const Env& env) {
  Value best;
  for (const auto& [name, v] : env)
    if (v.tainted && v.kind == Value::Kind::number && (!best.tainted || v.events.size() > best.events.size())) best = v;
  if (best.tainted) return best;
  // No score: the list a selection filled (a function cut off before returning it).
  for (const auto& [name, v] : env) {
    if (v.kind != Value::Kind::list) continue;
    Value kept = scalar(v);
    if (kept.tainted && (!best.tainted || kept.events.size() > best.events.size())) best = kept;
  }
  return best;
}

Value Evaluator::attribute_value() const {
  Value v;
  v.kind = Value::Kind::attribute;
  v.tainted = true;
  return v;
}

bool Evaluator::matches_literal(std::string_view literal) {
  int g = attr_.group_of(literal);
  if (g < 0) {
    std::string norm = normalize_literal(literal);
    if (!norm.empty() && others_.size() < kMaxOtherValues && !others_.count(norm))
      others_[norm] = std::string(literal);
    return persona_.group < 0 && norm == persona_.literal;
  }
  return g == persona_.group;
}

bool Evaluator::matches(const Value& v) {
  if (v.kind == Value::Kind::string) return matches_literal(v.text);
  if (v.kind == Value::Kind::attribute) return true;
  return false;
}

Value Evaluator::resolve_name(std::string_view name) const {
  auto m = match_name_cached(name, *ctx_.table, ctx_.scenario);
  if (!m || m->attribute->key != attr_.key) return Value::unknown();
  if (m->flag) {
    bool truth = persona_.group >= 0 && std::find(m->flag->true_groups.begin(), m->flag->true_groups.end(),
                                                  persona_.group) != m->flag->true_groups.end();
    Value v = Value::boolean(truth);
    v.tainted = true;
    v.origin = rules::kFlag;
    return v;
  }
  return attribute_value();
}

int Evaluator::add_event(int line, std::string rule, std::optional<double> amount) {
  events_.push_back(Event{line, std::move(rule), amount});
  return static_cast<int>(events_.size()) - 1;
}

bool Evaluator::path_dependent() const {
  return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.dependent; });
}

bool Evaluator::path_uncertain() const {
  return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.uncertain; });
}

bool Evaluator::path_threshold() const {
  return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.threshold; });
}

void Evaluator::mark_threshold_label(Value& v, int line, std::string_view construct) {
  if (v.kind != Value::Kind::string && v.kind != Value::Kind::boolean) return;
  v.tainted = true;
  v.effects |= kThreshold;
  for (const Frame& f : frames_) v.events.insert(v.events.end(), f.threshold_events.begin(), f.threshold_events.end());
  v.events.push_back(add_event(line, std::string(construct) + "/" + rules::kThreshold, std::nullopt));
}

std::string Evaluator::path_rule() const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
    if (it->dependent) return it->rule();
  return "";
}

unsigned Evaluator::path_effects() const {
  unsigned effects = 0;
  for (const Frame& f : frames_) effects |= f.effects;
  return effects;
}

void Evaluator::carry_path_effects(Value& v) const {
  if (unsigned effects = path_effects()) {
    v.effects |= effects;
    v.tainted = true;
  }
}

Value Evaluator::promote(const Value& v, int line) {
  if (v.kind == Value::Kind::string || v.kind == Value::Kind::dict || v.kind == Value::Kind::list) {
    // A label chosen by the attribute (`return "young"`): what it does depends on its use.
    Value out = v;
    out.tainted = true;
    return out;
  }
  Value out = v;
  out.kind = Value::Kind::number;
  if (!v.numeric()) {
    out.effects |= kNumericUse;
  } else if (!v.base_known) {
    out.effects |= kNonConstant;
  }
  out.dep = v.base_known ? v.total() : v.dep;
  out.base = 0;
  out.base_known = true;
  out.tainted = true;
  std::string rule = path_rule();
  if (out.dep != 0 || out.effects) out.events.push_back(add_event(line, rule, out.dep));
  return out;
}

Value Evaluator::kept_item(const Value& item, int line) {
  const bool record = item.kind == Value::Kind::unknown || item.kind == Value::Kind::dict ||
                      item.kind == Value::Kind::list || item.kind == Value::Kind::attribute;
  if (!record) return promote(item, line);
  Value kept = promote(Value::number(1), line);
  kept.kept_person = true;
  return kept;
}

}  // namespace codebias::analysis::decisions
