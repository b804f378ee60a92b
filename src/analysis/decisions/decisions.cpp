#include "analysis/decisions/decisions.h"

#include "analysis/parsing/prefilter.h"
#include "analysis/decisions/rules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace codebias::analysis {
namespace {

using ir::ExprKind;
using ir::StmtKind;

// Non-additive ways an attribute can change the score; any of them makes per-group totals
// meaningless, so the finding reports the effect instead of scores.
enum Effect : unsigned {
  kMultiplicative = 1u << 0,
  kEarlyReturn = 1u << 1,
  kOverride = 1u << 2,
  kNonConstant = 1u << 3,
  kNumericUse = 1u << 4,
  kRaises = 1u << 5,
  kThreshold = 1u << 6,
};

const char* effect_text(unsigned bit) {
  switch (bit) {
    case kMultiplicative: return "multiplies the score by an attribute-dependent factor";
    case kEarlyReturn: return "returns early depending on the attribute";
    case kOverride: return "overrides the score depending on the attribute";
    case kNonConstant: return "adds an attribute-dependent amount that is not a constant";
    case kNumericUse: return "uses the categorical attribute as a number";
    case kRaises: return "rejects some groups (raises) depending on the attribute";
    case kThreshold: return "chooses the returned label by a threshold on a score the attribute changes";
    default: return "";
  }
}

// One contribution of the attribute to the score, seen while evaluating one persona.
struct Event {
  int line = 0;
  std::string rule;
  std::optional<double> amount;
};

struct Value {
  enum class Kind { unknown, number, string, boolean, none, attribute, list, dict, function };
  Kind kind = Kind::unknown;
  // Numbers are split into the part that does not depend on the attribute (`base`, unknown when
  // it depends on other inputs) and the part that does (`dep`): the group's points.
  double base = 0;
  bool base_known = true;
  double dep = 0;
  bool tainted = false;  // the value depends on the analyzed attribute
  unsigned effects = 0;
  std::string text;                // string value, or function name
  const char* origin = "";         // how a tainted value came about, for evidence
  std::shared_ptr<std::vector<std::pair<Value, Value>>> items;  // list (second) / dict entries
  std::vector<int> events;

  static Value unknown() { return {}; }
  static Value number(double v) {
    Value x;
    x.kind = Kind::number;
    x.base = v;
    return x;
  }
  static Value boolean(bool b) {
    Value x;
    x.kind = Kind::boolean;
    x.base = b ? 1 : 0;
    return x;
  }
  static Value string(std::string s) {
    Value x;
    x.kind = Kind::string;
    x.text = std::move(s);
    return x;
  }
  bool numeric() const { return kind == Kind::number || kind == Kind::boolean || kind == Kind::unknown || kind == Kind::none; }
  double total() const { return base + dep; }
};

void merge_trace(Value& into, const Value& from) {
  into.tainted = into.tainted || from.tainted;
  into.effects |= from.effects;
  for (int e : from.events)
    if (std::find(into.events.begin(), into.events.end(), e) == into.events.end()) into.events.push_back(e);
  if (!*into.origin) into.origin = from.origin;
}

enum class Truth { yes, no, unknown };

struct Condition {
  Truth truth = Truth::unknown;
  bool involved = false;  // the attribute decided the truth
  // Unknown truth, but one side is a score the attribute changes (other inputs unknown): the
  // attribute can tip it for some applicants.
  bool threshold = false;
  double threshold_dep = 0;  // the attribute's part of that score: the groups it tips differ by it
  const char* rule = "";
  unsigned effects = 0;
  std::vector<int> events;
};

struct Frame {
  bool dependent = false;  // the attribute steered evaluation into this branch
  bool uncertain = false;  // a condition on other inputs was assumed satisfiable
  // The rule is "construct/step + detail", e.g. "if-chain/" "else:" "compare-eq"; joined only
  // when evidence needs it.
  std::string_view construct;
  std::string_view step;
  std::string_view detail;
  bool threshold = false;  // its condition compared an attribute-dependent score (Condition::threshold)
  std::vector<int> threshold_events = {};  // how the attribute reached that score

  std::string rule() const {
    if (construct.empty()) return "";
    return std::string(construct) + "/" + std::string(step) + std::string(detail);
  }
};

enum class Flow { normal, returned, raised };

struct Persona {
  int group = -1;           // canonical group index, or -1 for a non-canonical literal
  std::string literal;      // normalized literal for non-canonical personas
  std::optional<double> age;
};

constexpr int kMaxCallDepth = 6;
constexpr size_t kMaxOtherValues = 16;
constexpr size_t kMaxRangeItems = 512;
// A loop, quantifier or comprehension over a known list longer than this goes through unknown items.
constexpr size_t kMaxUnrolledItems = 64;
// Item runs of one evaluation, all nestings together; past it items are unknown, so nested loops
// over lists stay cheap.
constexpr size_t kMaxItemRuns = 4096;
constexpr unsigned kQuantifiers = ir::kAny | ir::kAll | ir::kNone;
constexpr unsigned kTests = ir::kEquals | ir::kSubstring | ir::kHasItem | ir::kHasKey;

// Evaluates one function for one persona.
class Evaluator {
 public:
  Evaluator(const DecisionContext& ctx, const AttributeSpec& attr, const Persona& persona,
            std::vector<Event>& events, std::map<std::string, std::string>& others)
      : ctx_(ctx), attr_(attr), persona_(persona), events_(events), others_(others) {
    for (const ir::Function& fn : ctx.program->functions) functions_[fn.name] = &fn;
  }

  // The value the entry function returns (or the last value computed at top level).
  Value run(Flow& flow) {
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
      return flow == Flow::returned ? ret : accumulated(env);
    }
    Env env;
    const ir::Function& fn = *ctx_.entry;
    for (const std::string& p : fn.params) env[p] = resolve_name(p);
    Value ret;
    flow = exec_body(fn.body, env, ret, 0);
    if (flow == Flow::normal) return accumulated(env);
    return scalar(ret);
  }

  // A function that scores a list of people returns a list of scores: take the scores.
  static Value scalar(const Value& v) {
    if (v.kind != Value::Kind::list && v.kind != Value::Kind::dict) return v;
    Value best = v;
    best.tainted = false;
    for (const auto& kv : *v.items)
      if (kv.second.tainted && (!best.tainted || kv.second.events.size() > best.events.size())) best = kv.second;
    return best.tainted ? best : v;
  }

 private:
  using Env = std::unordered_map<std::string, Value>;

  const DecisionContext& ctx_;
  const AttributeSpec& attr_;
  const Persona& persona_;
  std::vector<Event>& events_;
  std::map<std::string, std::string>& others_;
  std::unordered_map<std::string, const ir::Function*> functions_;
  Env* globals_ = nullptr;
  std::vector<Frame> frames_;
  size_t item_runs_ = 0;  // see kMaxItemRuns

  // Code that never returns (a script, or a function cut off before its return): the score is
  // the variable the attribute's decisions accumulated into.
  static Value accumulated(const Env& env) {
    Value best;
    for (const auto& [name, v] : env)
      if (v.tainted && v.kind == Value::Kind::number && (!best.tainted || v.events.size() > best.events.size())) best = v;
    return best;
  }

  // ---- the persona's attribute value -------------------------------------------------------

  Value attribute_value() const {
    Value v;
    v.kind = Value::Kind::attribute;
    v.tainted = true;
    return v;
  }

  // Does the persona's value equal this literal?
  bool matches_literal(std::string_view literal) {
    int g = attr_.group_of(literal);
    if (g < 0) {
      std::string norm = normalize_literal(literal);
      if (!norm.empty() && others_.size() < kMaxOtherValues && !others_.count(norm))
        others_[norm] = std::string(literal);
      return persona_.group < 0 && norm == persona_.literal;
    }
    return g == persona_.group;
  }

  bool matches(const Value& v) {
    if (v.kind == Value::Kind::string) return matches_literal(v.text);
    if (v.kind == Value::Kind::attribute) return true;
    return false;
  }

  Value resolve_name(std::string_view name) const {
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

  // ---- evidence ------------------------------------------------------------------------------

  int add_event(int line, std::string rule, std::optional<double> amount) {
    events_.push_back(Event{line, std::move(rule), amount});
    return static_cast<int>(events_.size()) - 1;
  }

  bool path_dependent() const {
    return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.dependent; });
  }
  bool path_uncertain() const {
    return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.uncertain; });
  }
  bool path_threshold() const {
    return std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.threshold; });
  }
  // A label (string or boolean) chosen under a threshold on an attribute-dependent score is the
  // attribute's decision. Numbers are left alone: there a threshold is a cap on the score.
  void mark_threshold_label(Value& v, int line, std::string_view construct) {
    if (v.kind != Value::Kind::string && v.kind != Value::Kind::boolean) return;
    v.tainted = true;
    v.effects |= kThreshold;
    for (const Frame& f : frames_) v.events.insert(v.events.end(), f.threshold_events.begin(), f.threshold_events.end());
    v.events.push_back(add_event(line, std::string(construct) + "/" + rules::kThreshold, std::nullopt));
  }
  std::string path_rule() const {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
      if (it->dependent) return it->rule();
    return "";
  }

  // An amount added on a branch the attribute chose becomes attribute-dependent as a whole.
  Value promote(const Value& v, int line) {
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

  // ---- statements ------------------------------------------------------------------------------

  Flow exec_body(const ir::Body& body, Env& env, Value& ret, int depth) {
    for (const ir::StmtPtr& s : body) {
      Flow f = exec(*s, env, ret, depth);
      if (f != Flow::normal) return f;
    }
    return Flow::normal;
  }

  Flow exec(const ir::Stmt& s, Env& env, Value& ret, int depth) {
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
              env[s.target->text] = item;
              Flow f = exec_body(s.bodies[0], env, ret, depth);
              if (f != Flow::normal) return f;
            }
            return Flow::normal;
          }
          env[s.target->text] = resolve_name(s.target->text);
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

  Flow exec_if(const ir::Stmt& s, Env& env, Value& ret, int depth) {
    bool excluded_by_attribute = false;  // an earlier condition was false because of the attribute
    const char* excluded_rule = "";
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
      if (f == Flow::raised) {
        if (!frame.uncertain) return f;
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
    return Flow::normal;
  }

  // A target's storage key: plain names, and `self.score` / `result['total']` as pseudo-variables.
  std::string target_key(const ir::Expr& e) {
    if (e.kind == ExprKind::name) return e.text;
    if (e.kind == ExprKind::member && !e.children.empty()) return target_key(*e.children[0]) + "." + e.text;
    if (e.kind == ExprKind::index && e.children.size() == 2 && e.children[1]->kind == ExprKind::string)
      return target_key(*e.children[0]) + "[" + e.children[1]->text + "]";
    return {};
  }

  Value read_target(const std::string& key, Env& env, bool& defined) {
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

  void assign(const ir::Stmt& s, Env& env, int depth) {
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

  Value assign_plain(const Value& current, bool defined, Value v, int line) {
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
      // Assigned only on some inputs: the attribute-independent part becomes unknown.
      Value out = v.tainted ? v : current;
      if (v.tainted) merge_trace(out, current);
      out.base_known = false;
      if (out.kind != Value::Kind::number) out.kind = Value::Kind::number;
      return out;
    }
    return v;
  }

  void eval_statement_call(const ir::Expr& e, Env& env, int depth) {
    // list.append(x) / list.push(x) on a known list: remember the item, so sum(list) sees it.
    if (e.kind == ExprKind::call && !e.children.empty() && e.children[0]->kind == ExprKind::member &&
        e.children.size() == 2) {
      const ir::Expr& callee = *e.children[0];
      if (e.library & ir::kAppend) {
        std::string key = target_key(*callee.children[0]);
        auto it = env.find(key);
        if (it != env.end() && it->second.kind == Value::Kind::list) {
          Value item = eval(*e.children[1], env, depth);
          if (path_dependent()) item = promote(item, e.line);
          auto items = std::make_shared<std::vector<std::pair<Value, Value>>>(*it->second.items);
          items->emplace_back(Value{}, item);
          it->second.items = items;
          return;
        }
      }
    }
    eval(e, env, depth);
  }

  // ---- arithmetic ------------------------------------------------------------------------------

  static void negate(Value& v) {
    v.base = -v.base;
    v.dep = -v.dep;
  }

  Value as_number(const Value& v) {
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

  Value add(const Value& a0, const Value& b0) {
    Value a = as_number(a0), b = as_number(b0);
    Value out = a;
    out.base = a.base + b.base;
    out.base_known = a.base_known && b.base_known;
    out.dep = a.dep + b.dep;
    merge_trace(out, b);
    return out;
  }

  Value arithmetic(const Value& a0, const std::string& op, const Value& b0, int line) {
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

  // ---- expressions -----------------------------------------------------------------------------

  Value eval(const ir::Expr& e, Env& env, int depth) {
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
      case ExprKind::member: {
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
      case ExprKind::index: {
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
        if (index.kind == Value::Kind::string && !index.tainted) return resolve_name(index.text);
        return Value::unknown();
      }
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

  // A condition used as a value (`construct` is boolean or a quantifier): True counts 1 for the
  // groups it holds for, with an event where the attribute made it true.
  Value decided_value(const Condition& c, int line, const char* construct) {
    Value v = condition_value(c.truth, c);
    if (c.involved && c.truth == Truth::yes)
      v.events.push_back(add_event(line, std::string(construct) + "/" + c.rule, v.dep));
    if (c.truth == Truth::unknown && c.threshold)
      v.events.push_back(add_event(line, std::string(construct) + "/" + rules::kThreshold, std::nullopt));
    return v;
  }

  Value condition_value(Truth truth, const Condition& c) {
    if (truth == Truth::unknown) {
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

  // dict[key] / dict.get(key, default)
  Value lookup(const Value& dict, const Value& key, const Value* fallback, int line, bool has_default) {
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


  Value eval_call(const ir::Expr& e, Env& env, int depth) {
    const ir::Expr& callee = *e.children[0];
    size_t argc = e.children.size() - 1;
    auto arg = [&](size_t i) { return eval(*e.children[i + 1], env, depth); };

    const unsigned library = e.library;
    if (callee.kind == ExprKind::member) {
      const std::string& method = callee.text;
      Value object = eval(*callee.children[0], env, depth);
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
        if ((library & ir::kHasKey) && argc >= 1) return membership(arg(0), object, false);
      }
      if ((library & ir::kLength) && (object.kind == Value::Kind::list || object.kind == Value::Kind::dict))
        return Value::number(static_cast<double>(object.items->size()));
      if (object.kind == Value::Kind::list) {
        if ((library & ir::kSameValue) && argc == 0) return object;  // list.stream()
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

    std::string name = callee.kind == ExprKind::name ? callee.text : std::string();
    if (name.empty()) return Value::unknown();
    if (functions_.count(name) && !env.count(name)) return call_function(name, e, env, depth, 1);
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
      std::optional<std::vector<Value>> items = items_of(arg(0));
      return items ? Value::number(static_cast<double>(items->size())) : Value::unknown();
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

  Value call_function(const std::string& name, const ir::Expr& call, Env& env, int depth, size_t first_arg) {
    auto it = functions_.find(name);
    if (it == functions_.end() || depth >= kMaxCallDepth) return Value::unknown();
    const ir::Function& fn = *it->second;
    std::vector<Value> args;
    for (size_t a = first_arg; a < call.children.size() && args.size() < fn.params.size(); ++a)
      args.push_back(eval(*call.children[a], env, depth));
    return invoke(fn, args, env, depth);
  }

  // Runs a function of the code on these arguments; a parameter without one takes its default
  // (evaluated in the caller's `env`) or what its name means.
  Value invoke(const ir::Function& fn, const std::vector<Value>& args, Env& env, int depth) {
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

  Value literal_condition(bool truth, const char* rule) {
    Value v = Value::boolean(truth);
    v.tainted = true;
    v.origin = rule;
    return v;
  }

  // attribute == other; `how` is "equals" (boolean result) or "strcmp" (0 when equal)
  Value compare_equal(const Value& other, const char* how) {
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

  Value membership(const Value& item, const Value& container, bool negated) {
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

  // ---- conditions ------------------------------------------------------------------------------

  Condition truth_of(const Value& v) {
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

  Condition eval_condition(const ir::Expr& e, Env& env, int depth) {
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

  // a and b / a or b. Conditions on other inputs are neutral: the attribute's part decides (see header).
  static Condition combine(const Condition& a, const Condition& b, bool is_and) {
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

  static Truth negated(Truth t) { return t == Truth::yes ? Truth::no : t == Truth::no ? Truth::yes : Truth::unknown; }

  // ---- quantifiers -----------------------------------------------------------------------------

  // any / all / none, unless the code defines a function of that name.
  bool is_quantifier(const ir::Expr& e) const {
    if (e.kind != ExprKind::call || !(e.library & kQuantifiers)) return false;
    const ir::Expr& callee = *e.children[0];
    return callee.kind != ExprKind::name || !functions_.count(callee.text);
  }

  // The test's truth for each item, combined like `or` (any), `and` (all) or `not or` (none), so
  // that, as in `logical`, the truths the attribute does not decide are neutral.
  Condition quantify(const ir::Expr& call, Env& env, int depth) {
    const bool every = call.library & ir::kAll;
    std::vector<Condition> truths = item_truths(call, every, env, depth);
    Condition c;
    c.truth = every ? Truth::yes : Truth::no;  // of no items
    if (!truths.empty()) c = truths[0];
    for (size_t i = 1; i < truths.size(); ++i) c = combine(c, truths[i], every);
    if (call.library & ir::kNone) c.truth = negated(c.truth);
    return c;
  }

  // v.some(f) / any_of(v, f): f's truth for each item of v; any(x == r for r in v): the truth of
  // each generated item; any([a, b]): of each listed condition. One unknown truth when the items
  // or the test are unknown.
  std::vector<Condition> item_truths(const ir::Expr& call, bool every, Env& env, int depth) {
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

  // Runs `visit` with `var` bound to each item of `source`, in a scope of its own; once, with
  // `var` bound to the attribute when `source` is the attribute (a person's several values:
  // `any(r == 'black' for r in c.races)`), or to what its name means when the items are unknown.
  template <typename Visit>
  void for_each_item(const Value& source, const std::string& var, const Env& env, Visit&& visit) {
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

  // Whether `n` more item runs fit in kMaxItemRuns and kMaxUnrolledItems (they are counted when they do).
  bool take_item_runs(size_t n) {
    if (n > kMaxUnrolledItems || item_runs_ + n > kMaxItemRuns) return false;
    item_runs_ += n;
    return true;
  }

  // The items a loop or a quantifier goes through: a list's items, a table's keys; none when unknown.
  static std::optional<std::vector<Value>> items_of(const Value& v) {
    if (v.kind != Value::Kind::list && v.kind != Value::Kind::dict) return std::nullopt;
    std::vector<Value> items;
    for (const auto& [key, item] : *v.items) items.push_back(v.kind == Value::Kind::dict ? key : item);
    return items;
  }

  // [element for var in source if filters]: the elements of the items the filters keep, when the
  // source is known and the filters' truths are known without the attribute.
  Value comprehension(const ir::Expr& e, Env& env, int depth) {
    std::optional<std::vector<Value>> items = items_of(eval(*e.children[1], env, depth));
    if (!items || !take_item_runs(items->size())) return Value::unknown();
    Value list;
    list.kind = Value::Kind::list;
    list.items = std::make_shared<std::vector<std::pair<Value, Value>>>();
    for (const Value& item : *items) {
      Env scope = env;
      scope[e.text] = item;
      bool kept = true;
      for (size_t i = 2; i < e.children.size(); ++i) {
        Condition c = eval_condition(*e.children[i], scope, depth);
        if (c.truth == Truth::unknown || c.involved) return Value::unknown();
        kept = kept && c.truth == Truth::yes;
      }
      if (kept) list.items->emplace_back(Value{}, eval(*e.children[0], scope, depth));
    }
    return list;
  }

  static Condition merge_effects(Condition c, const Condition& other) {
    c.effects |= other.effects;
    if (c.truth == Truth::unknown && other.threshold) {
      c.threshold = true;
      c.threshold_dep += other.threshold_dep;
      c.events.insert(c.events.end(), other.events.begin(), other.events.end());
    }
    return c;
  }

  Condition compare(const Value& a, const std::string& op, const Value& b) {
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

  static bool numeric_compare(double x, const std::string& op, double y) {
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    return false;
  }
};

struct PersonaResult {
  Value value;
  Flow flow = Flow::normal;
  std::vector<Event> events;
};


}  // namespace

AttributeFinding evaluate_attribute(const DecisionContext& context, const AttributeSpec& attribute) {
  AttributeFinding finding;
  finding.attribute = attribute.key;
  std::map<std::string, std::string> others;  // normalized -> as written

  auto run = [&](const Persona& persona) {
    PersonaResult r;
    Evaluator evaluator(context, attribute, persona, r.events, others);
    r.value = evaluator.run(r.flow);
    if (r.flow == Flow::raised) {
      // Raising for a group the attribute picked out rejects that group.
      bool dependent = !r.value.events.empty();
      r.value = Value::number(0);
      if (dependent) {
        r.value.tainted = true;
        r.value.effects |= kRaises;
      }
    }
    return r;
  };

  std::vector<PersonaResult> canonical;
  for (size_t g = 0; g < attribute.groups.size(); ++g) {
    Persona p;
    p.group = static_cast<int>(g);
    p.age = attribute.groups[g].age_years;
    canonical.push_back(run(p));
  }
  std::map<std::string, PersonaResult> other_results;
  for (size_t round = 0; round < 2; ++round) {  // an other-literal run can reveal more literals
    std::map<std::string, std::string> snapshot = others;
    for (const auto& [norm, written] : snapshot) {
      if (other_results.count(written)) continue;
      Persona p;
      p.literal = norm;
      other_results.emplace(written, run(p));
    }
  }

  auto value_used = [](const PersonaResult& r) {
    return r.value.tainted || r.value.effects != 0;
  };
  bool used = std::any_of(canonical.begin(), canonical.end(), value_used) ||
              std::any_of(other_results.begin(), other_results.end(), [&](const auto& kv) { return kv.second.value.tainted; });
  finding.used = used;
  if (!used) return finding;

  unsigned effects = 0;
  std::set<unsigned> effect_sets;
  for (const PersonaResult& r : canonical) {
    effects |= r.value.effects;
    effect_sets.insert(r.value.effects);
  }
  std::vector<double> deps;
  for (const PersonaResult& r : canonical) deps.push_back(std::round(r.value.dep * 1e9) / 1e9);
  // The canonical groups (ProbeDebias's G) and the other literals are kept apart: only the
  // former make a program biased by §3.6's rule; the finding's reason says which held.
  bool groups_differ = std::adjacent_find(deps.begin(), deps.end(), std::not_equal_to<>()) != deps.end();
  bool other_differs = false;
  for (auto& [written, r] : other_results) {
    if (!r.value.tainted) continue;
    double v = std::round(r.value.dep * 1e9) / 1e9;
    finding.other_values[written] = v;
    if (!deps.empty() && v != deps[0]) other_differs = true;
  }
  if (effects && !groups_differ) {
    // Early returns of known values (`return True` for some groups, `return False` for the others)
    // differ by what they return, not by points added.
    std::vector<double> returned;
    for (const PersonaResult& r : canonical) {
      const bool known = r.flow == Flow::returned && r.value.base_known &&
                         (r.value.kind == Value::Kind::number || r.value.kind == Value::Kind::boolean);
      if (!known) break;
      returned.push_back(std::round(r.value.total() * 1e9) / 1e9);
    }
    groups_differ = returned.size() == canonical.size() &&
                    std::adjacent_find(returned.begin(), returned.end(), std::not_equal_to<>()) != returned.end();
  }
  if (effects) {
    for (unsigned bit = 1; bit <= kThreshold; bit <<= 1)
      if (effects & bit) {
        finding.effect = effect_text(bit);
        break;
      }
    if (groups_differ || effect_sets.size() > 1) finding.reason = BiasReason::effect;
    else if (effects & kNumericUse) finding.reason = BiasReason::numeric_use;
    else if (other_differs) finding.reason = BiasReason::other_value;
  } else {
    std::vector<std::pair<std::string, double>> scores;
    for (size_t g = 0; g < attribute.groups.size(); ++g) scores.emplace_back(attribute.groups[g].name, deps[g]);
    finding.scores = std::move(scores);
    if (groups_differ) finding.reason = BiasReason::groups_differ;
    else if (other_differs) finding.reason = BiasReason::other_value;
  }
  finding.biased = finding.reason != BiasReason::none;

  // Evidence: the events that reached each persona's returned value, merged by place and rule.
  struct Key {
    int line;
    std::string rule;
    std::optional<double> amount;
    bool operator<(const Key& o) const {
      return std::tie(line, rule, amount) < std::tie(o.line, o.rule, o.amount);
    }
  };
  std::map<Key, std::vector<std::string>> merged;
  auto collect = [&](const PersonaResult& r, const std::string& group) {
    for (int id : r.value.events) {
      const Event& ev = r.events[static_cast<size_t>(id)];
      auto& groups = merged[Key{ev.line, ev.rule, ev.amount}];
      if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
    }
  };
  for (size_t g = 0; g < canonical.size(); ++g) collect(canonical[g], attribute.groups[g].name);
  for (auto& [written, r] : other_results) collect(r, written);
  for (auto& [key, groups] : merged) {
    Evidence ev;
    ev.line = key.line;
    ev.groups = groups;
    ev.amount = key.amount;
    ev.rule = key.rule.empty() ? rules::kAttributeDependent : key.rule;
    finding.evidence.push_back(std::move(ev));
  }
  return finding;
}

}  // namespace codebias::analysis
