// Helpers shared by the brace-language front ends (C/C++, JavaScript/TypeScript, Java): copying
// ir, lowering switch statements to if-chains, and folding table entries into module-level
// tables. Internal to src/analysis/front_ends/.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/front_end.h"

namespace codebias::analysis::front_ends::brace {

// Deeper nesting of expressions or statements is lowered as unknown / dropped, so that hostile
// input cannot exhaust the stack here or in the evaluation.
inline constexpr int kMaxNesting = 512;

class NestingGuard {
 public:
  explicit NestingGuard(int& depth) : depth_(depth) { ++depth_; }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return depth_ > kMaxNesting; }

 private:
  int& depth_;
};

// Visits every named node below `root` (and root), without recursion.
template <typename F>
void for_each_node(TSNode root, F&& visit) {
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    visit(n);
    for (uint32_t i = ts_node_named_child_count(n); i > 0; --i) stack.push_back(ts_node_named_child(n, i - 1));
  }
}

inline ir::StmtPtr make_stmt(ir::StmtKind kind, int line) {
  auto s = std::make_unique<ir::Stmt>();
  s->kind = kind;
  s->line = line;
  return s;
}

inline ir::ExprPtr clone(const ir::Expr& e) {
  auto c = std::make_unique<ir::Expr>();
  c->kind = e.kind;
  c->text = e.text;
  c->value = e.value;
  c->line = e.line;
  c->children.reserve(e.children.size());
  for (const ir::ExprPtr& child : e.children) c->children.push_back(child ? clone(*child) : nullptr);
  return c;
}

inline ir::ExprPtr clone_or_null(const ir::ExprPtr& e) { return e ? clone(*e) : nullptr; }

inline ir::Body clone(const ir::Body& body);

inline ir::StmtPtr clone(const ir::Stmt& s) {
  auto c = make_stmt(s.kind, s.line);
  c->op = s.op;
  c->rule = s.rule;
  c->names = s.names;
  c->target = clone_or_null(s.target);
  c->value = clone_or_null(s.value);
  for (const ir::ExprPtr& cond : s.conditions) c->conditions.push_back(clone_or_null(cond));
  for (const ir::Body& b : s.bodies) c->bodies.push_back(clone(b));
  return c;
}

inline ir::Body clone(const ir::Body& body) {
  ir::Body out;
  out.reserve(body.size());
  for (const ir::StmtPtr& s : body) out.push_back(clone(*s));
  return out;
}

inline ir::StmtPtr make_assign(ir::ExprPtr target, ir::ExprPtr value, std::string op, int line) {
  auto s = make_stmt(ir::StmtKind::assign, line);
  s->target = std::move(target);
  s->value = value ? std::move(value) : lowering::make_unknown(line);
  s->op = std::move(op);
  return s;
}

// `table.put(key, value)` / `map.set(key, value)` / `m.emplace(key, value)`: an assignment to
// table[key], which the evaluator applies to a known table.
inline ir::StmtPtr make_table_store(ir::ExprPtr table, ir::ExprPtr key, ir::ExprPtr value, int line) {
  return make_assign(lowering::make_binary(ir::ExprKind::index, "", std::move(table), std::move(key), line),
                     std::move(value), "", line);
}

inline ir::ExprPtr make_not(ir::ExprPtr inner, int line) {
  auto e = lowering::make(ir::ExprKind::unary, line, "not");
  e->children.push_back(inner ? std::move(inner) : lowering::make_unknown(line));
  return e;
}

inline bool all_caps(std::string_view s) {
  if (s.empty()) return false;
  bool letter = false;
  for (char c : s) {
    if (c >= 'A' && c <= 'Z')
      letter = true;
    else if (c != '_' && !(c >= '0' && c <= '9'))
      return false;
  }
  return letter;
}

// One `case` (or `default`) of a switch, lowered by the language's front end.
struct SwitchArm {
  int line = 0;
  std::vector<ir::ExprPtr> labels;
  bool is_default = false;
  bool empty = true;   // no statements at all: the labels share the next arm's body
  bool exits = false;  // ends in break / return / throw / continue: no fallthrough
  ir::Body body;
};

// switch (subject) { arms } -> if subject in [labels] ... else <default>. Arms without statements
// merge their labels into the next arm; an arm that does not end in break also runs the bodies of
// the arms after it (fallthrough). `switch (true) { case cond: ... }` tests the conditions.
inline ir::StmtPtr build_switch(ir::ExprPtr subject, std::vector<SwitchArm>& arms, int line) {
  using ir::ExprKind;
  auto s = make_stmt(ir::StmtKind::if_chain, line);
  s->rule = "switch-case";
  if (!subject) subject = lowering::make_unknown(line);
  bool test_conditions = subject->kind == ExprKind::boolean && subject->value != 0;
  std::vector<ir::ExprPtr> pending;
  bool pending_default = false;
  int pending_line = 0;
  bool have_else = false;
  ir::Body else_body;
  size_t budget = 20000;  // statements copied for fallthrough: bounded on hostile input
  for (size_t i = 0; i < arms.size(); ++i) {
    SwitchArm& arm = arms[i];
    if (!pending_line) pending_line = arm.line;
    for (ir::ExprPtr& label : arm.labels) pending.push_back(std::move(label));
    pending_default = pending_default || arm.is_default;
    if (arm.empty && !arm.exits && i + 1 < arms.size()) continue;
    ir::Body body = clone(arm.body);
    if (!arm.exits) {
      for (size_t j = i + 1; j < arms.size() && budget > 0; ++j) {
        for (const ir::StmtPtr& st : arms[j].body) {
          if (budget == 0) break;
          --budget;
          body.push_back(clone(*st));
        }
        if (arms[j].exits) break;
      }
    }
    if (pending_default) {
      if (!have_else) {
        have_else = true;
        else_body = std::move(body);
      }
    } else if (!pending.empty()) {
      ir::ExprPtr cond;
      if (test_conditions) {
        for (ir::ExprPtr& label : pending)
          cond = cond ? lowering::make_binary(ExprKind::logical, "or", std::move(cond), std::move(label), pending_line)
                      : std::move(label);
      } else {
        auto list = lowering::make(ExprKind::list, pending_line);
        for (ir::ExprPtr& label : pending) list->children.push_back(std::move(label));
        cond = lowering::make_binary(ExprKind::membership, "in", clone(*subject), std::move(list), pending_line);
      }
      s->conditions.push_back(std::move(cond));
      s->bodies.push_back(std::move(body));
    }
    pending.clear();
    pending_default = false;
    pending_line = 0;
  }
  if (have_else) s->bodies.push_back(std::move(else_body));
  return s;
}

// switch used as a value (Java `switch` expressions): nested conditionals, default last.
struct SwitchValueArm {
  int line = 0;
  std::vector<ir::ExprPtr> labels;
  bool is_default = false;
  ir::ExprPtr value;
};

inline ir::ExprPtr build_switch_value(ir::ExprPtr subject, std::vector<SwitchValueArm>& arms, int line) {
  using ir::ExprKind;
  if (!subject) subject = lowering::make_unknown(line);
  ir::ExprPtr result;
  for (SwitchValueArm& arm : arms)
    if (arm.is_default && !result) result = arm.value ? std::move(arm.value) : lowering::make_unknown(arm.line);
  if (!result) result = lowering::make_unknown(line);
  for (auto it = arms.rbegin(); it != arms.rend(); ++it) {
    if (it->is_default || it->labels.empty()) continue;
    auto list = lowering::make(ExprKind::list, it->line);
    for (ir::ExprPtr& label : it->labels) list->children.push_back(std::move(label));
    auto cond = lowering::make(ExprKind::conditional, it->line);
    cond->children.push_back(
        lowering::make_binary(ExprKind::membership, "in", clone(*subject), std::move(list), it->line));
    cond->children.push_back(it->value ? std::move(it->value) : lowering::make_unknown(it->line));
    cond->children.push_back(std::move(result));
    result = std::move(cond);
  }
  return result;
}

// The dict literal last assigned to the module-level name, or null.
inline ir::Expr* global_table(ir::Body& globals, const std::string& name) {
  for (auto it = globals.rbegin(); it != globals.rend(); ++it) {
    const ir::Stmt& s = **it;
    if (s.kind == ir::StmtKind::assign && s.op.empty() && s.target && s.target->kind == ir::ExprKind::name &&
        s.target->text == name)
      return s.value && s.value->kind == ir::ExprKind::dict ? s.value.get() : nullptr;
  }
  return nullptr;
}

// `T["male"] = 1` / `T.male = 1` / `T.put("male", 1)` after `T = {}` at module level (or in a
// constructor / static initializer): the evaluator only reads module-level tables from plain
// assignments, so the entry is written into the table's literal. True when folded.
inline bool fold_table_entry(ir::Body& globals, const ir::Stmt& s) {
  using ir::ExprKind;
  if (s.kind != ir::StmtKind::assign || !s.op.empty() || !s.target || !s.value) return false;
  const ir::Expr& t = *s.target;
  const ir::Expr* object = nullptr;
  ir::ExprPtr key;
  if (t.kind == ExprKind::index && t.children.size() == 2 &&
      (t.children[1]->kind == ExprKind::string || t.children[1]->kind == ExprKind::number)) {
    object = t.children[0].get();
    key = clone(*t.children[1]);
  } else if (t.kind == ExprKind::member && t.children.size() == 1) {
    object = t.children[0].get();
    key = lowering::make(ExprKind::string, t.line, t.text);
  } else {
    return false;
  }
  if (!object || object->kind != ExprKind::name) return false;
  ir::Expr* table = global_table(globals, object->text);
  if (!table) return false;
  for (size_t i = 0; i + 1 < table->children.size(); i += 2) {
    const ir::Expr& k = *table->children[i];
    if (k.kind == key->kind && k.text == key->text && k.value == key->value) {
      table->children[i + 1] = clone(*s.value);
      return true;
    }
  }
  table->children.push_back(std::move(key));
  table->children.push_back(clone(*s.value));
  return true;
}

// A top-level statement: kept, and folded into a module-level table when it stores into one.
inline void add_global(ir::Body& globals, ir::StmtPtr s) {
  if (!s) return;
  fold_table_entry(globals, *s);
  globals.push_back(std::move(s));
}

inline bool mentions(const ir::Expr& e, const std::vector<std::string>& names) {
  if (e.kind == ir::ExprKind::name)
    for (const std::string& n : names)
      if (n == e.text) return true;
  for (const ir::ExprPtr& c : e.children)
    if (c && mentions(*c, names)) return true;
  return false;
}

// A statement of a constructor or initializer block: plain assignments (`this.w = {...}` is
// lowered as `w = {...}`) become module-level definitions, table stores are folded; the rest
// is dropped, and so is whatever copies the constructor's parameters (`this.gender = gender`).
inline void add_initializer(ir::Body& globals, ir::StmtPtr s, std::vector<const ir::Stmt*>* members = nullptr,
                            const std::vector<std::string>* params = nullptr) {
  if (!s) return;
  if (params && s->value && mentions(*s->value, *params)) return;
  if (fold_table_entry(globals, *s)) return;
  if (s->kind == ir::StmtKind::assign && s->op.empty() && s->target && s->target->kind == ir::ExprKind::name) {
    if (members) members->push_back(s.get());
    globals.push_back(std::move(s));
  } else if (s->kind == ir::StmtKind::block && !s->bodies.empty()) {
    for (ir::StmtPtr& inner : s->bodies[0]) add_initializer(globals, std::move(inner), members, params);
  }
}

// A class member's table that nothing filled (`Map<String, String> data = new HashMap<>();`)
// holds no values, and as a module-level table it would hide the attribute when the class is a
// data holder read as `data.get("gender")`: such members are dropped once the program is lowered.
inline void drop_unfilled_members(ir::Body& globals, const std::vector<const ir::Stmt*>& members) {
  ir::Body kept;
  kept.reserve(globals.size());
  for (ir::StmtPtr& s : globals) {
    bool member = false;
    for (const ir::Stmt* m : members)
      if (m == s.get()) member = true;
    bool empty_table = s->value && (s->value->kind == ir::ExprKind::dict || s->value->kind == ir::ExprKind::list) &&
                       s->value->children.empty();
    if (!(member && empty_table)) kept.push_back(std::move(s));
  }
  globals = std::move(kept);
}

}  // namespace codebias::analysis::front_ends::brace
