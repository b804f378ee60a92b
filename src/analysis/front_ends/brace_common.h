// What the brace-language front ends (C/C++, JavaScript/TypeScript, Java) share: copying ir,
// lowering switch statements to if-chains, folding table entries into module-level tables, and
// the Lowering base class with the walk and the constructs the three languages write alike.
// Internal to src/analysis/front_ends/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/front_ends/front_end.h"
#include "analysis/ir/rules.h"

namespace codebias::analysis::front_ends::brace {

// The front ends `using namespace brace;`, which brings these along.
using namespace lowering;
using ir::ExprKind;
using ir::StmtKind;

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
  c->library = e.library;
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

// name = value
inline ir::StmtPtr assign_name(std::string name, ir::ExprPtr value, int line) {
  return make_assign(make(ExprKind::name, line, std::move(name)), std::move(value), "", line);
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
  s->rule = rules::kSwitchCase;
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

// ---- the walk the front ends share ----------------------------------------------------------

// The base of each brace front end's class (CRTP): the tree and the program being built, scopes,
// blocks and statements walked under the nesting guard, if chains, switches of `case X:` arms,
// functions cut off in an ERROR, constructor and initializer bodies hoisted into the globals, and
// the statements, expressions and operators the languages write alike. `Front` names this base a
// friend and supplies its language:
//   static bool is_comment(std::string_view type);   node types items() leaves out
//   static constexpr std::string_view kBlock;         the node type of `{ ... }`
//   static constexpr std::string_view kForEach;       the loop besides for / while / do
//   static bool is_exit(TSNode statement);            ends a switch arm: break, continue, ...
//   void collect_declarations(TSNode root);           what is gathered before lowering (enums)
//   void lower_scope_item_at(TSNode item);            a top-level or class-level item
//   void lower_language_statement(TSNode node, std::string_view type, int line, ir::Body& out);
//                                                     a statement lower_statement_at leaves to it
//   void lower_expression_statement(TSNode node, ir::Body& out);
//   ir::ExprPtr lower_expr_at(TSNode node);
//   void lower_params(TSNode params, ir::Function& fn);
// and replaces, where its language differs, the defaults below of lower_condition, lower_returned,
// lower_assigned, lower_operator, lower_loop_variable, recover_function, is_header_part and
// ends_recovery.
template <typename Front>
class Lowering {
 public:
  explicit Lowering(const SyntaxTree& tree) : t_(tree) {}

  ir::Program run() {
    front().collect_declarations(t_.root());
    lower_scope(t_.root());
    drop_unfilled_members(program_.globals, members_);
    return std::move(program_);
  }

 protected:
  const SyntaxTree& t_;
  ir::Program program_;
  int depth_ = 0;                         // nesting of the node being lowered (NestingGuard)
  bool relowering_ = false;               // lowering a constructor body a second time: emit no functions
  std::vector<const ir::Stmt*> members_;  // globals that class members defined

  Front& front() { return static_cast<Front&>(*this); }

  static uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
  static TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }
  std::string_view text(TSNode n) const { return t_.text(n); }
  std::string str(TSNode n) const { return std::string(t_.text(n)); }

  // Named children without comments.
  static std::vector<TSNode> items(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    for (uint32_t i = 0; i < count(n); ++i) {
      TSNode c = child(n, i);
      if (!Front::is_comment(type_of(c))) out.push_back(c);
    }
    return out;
  }

  static bool same(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

  // ---- module / class level ------------------------------------------------------------------

  void lower_scope(TSNode node) {
    for (TSNode c : items(node)) lower_scope_item(c);
  }

  void lower_scope_item(TSNode c) {
    NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    front().lower_scope_item_at(c);
  }

  void add_globals(ir::Body& body) {
    for (ir::StmtPtr& s : body) add_global(program_.globals, std::move(s));
    body.clear();
  }

  // A class member's definition (see add_initializer).
  void add_member(ir::StmtPtr s) { add_initializer(program_.globals, std::move(s), &members_); }

  // Constructor / initializer statements define what the methods read.
  void hoist_initializer(TSNode body, const std::vector<std::string>* params = nullptr) {
    if (ts_node_is_null(body)) return;
    ir::Body tmp;
    bool saved = relowering_;
    relowering_ = true;
    lower_block(body, tmp);
    relowering_ = saved;
    for (ir::StmtPtr& s : tmp) add_initializer(program_.globals, std::move(s), &members_, params);
  }

  // A constructor's body, less what copies its parameters.
  void hoist_constructor(TSNode node) {
    ir::Function signature;
    front().lower_params(field(node, "parameters"), signature);
    hoist_initializer(field(node, "body"), &signature.params);
  }

  // ---- functions cut off -----------------------------------------------------------------------

  // A function cut off before its closing brace often comes back as an ERROR holding its header
  // (the name and the parameters) and then the body's statements: recovered as an incomplete
  // function, which takes the statements up to one that ends_recovery.
  void lower_error(TSNode node) {
    std::vector<TSNode> v = items(node);
    int current = -1;
    for (size_t i = 0; i < v.size(); ++i) {
      if (std::optional<ir::Function> fn = front().recover_function(v, i, node)) {
        program_.functions.push_back(std::move(*fn));
        current = static_cast<int>(program_.functions.size()) - 1;
        continue;
      }
      if (front().is_header_part(v, i)) continue;
      if (current >= 0 && !front().ends_recovery(v[i])) {
        ir::Body body;
        lower_statement(v[i], body);
        for (ir::StmtPtr& st : body) program_.functions[static_cast<size_t>(current)].body.push_back(std::move(st));
        continue;
      }
      current = -1;
      lower_scope_item(v[i]);
    }
  }

  // The function whose header ends at v[i] of the ERROR `error`: by default `name(params)`.
  std::optional<ir::Function> recover_function(const std::vector<TSNode>& v, size_t i, TSNode error) {
    if (type_of(v[i]) != "formal_parameters" || i == 0 || type_of(v[i - 1]) != "identifier") return std::nullopt;
    ir::Function fn = new_function(str(v[i - 1]), v[i - 1], error);
    fn.complete = false;
    front().lower_params(v[i], fn);
    return fn;
  }

  // v[i] belongs to a function header (skipped).
  bool is_header_part(const std::vector<TSNode>&, size_t) const { return false; }

  // The item ends the recovered function's body (it is lowered at the top level).
  static bool ends_recovery(TSNode) { return false; }

  // ---- functions -------------------------------------------------------------------------------

  // A function from the first line of `first` to the last line of `last`.
  static ir::Function new_function(std::string name, TSNode first, TSNode last) {
    ir::Function fn;
    fn.name = std::move(name);
    fn.line = line_of(first);
    fn.end_line = static_cast<int>(ts_node_end_point(last).row) + 1;
    return fn;
  }

  // The body ends in its own `}` (not one the parser made up for cut-off code).
  static bool closes(TSNode body) {
    if (ts_node_is_null(body)) return false;
    uint32_t n = ts_node_child_count(body);
    if (n == 0) return false;
    TSNode last = ts_node_child(body, n - 1);
    return type_of(last) == "}" && !ts_node_is_missing(last);
  }

  // The block `body` of the function `node`, and whether the function is complete.
  void lower_function_body(TSNode node, TSNode body, ir::Function& fn) {
    if (!ts_node_is_null(body)) lower_block(body, fn.body);
    fn.complete = !ts_node_has_error(node) && closes(body);
  }

  // ---- statements ----------------------------------------------------------------------------

  void lower_block(TSNode node, ir::Body& out) {
    for (TSNode c : items(node)) lower_statement(c, out);
  }

  // The body of an if / else / loop: braces are not a block of their own there.
  void lower_branch(TSNode node, ir::Body& out) {
    if (ts_node_is_null(node)) return;
    if (type_of(node) == Front::kBlock)
      lower_block(node, out);
    else
      lower_statement(node, out);
  }

  void lower_statement(TSNode node, ir::Body& out) {
    NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    lower_statement_at(node, out);
  }

  void lower_statement_at(TSNode node, ir::Body& out) {
    if (ts_node_is_null(node)) return;
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (type == "expression_statement") {
      for (TSNode c : items(node)) front().lower_expression_statement(c, out);
    } else if (type == "if_statement") {
      out.push_back(lower_if(node));
    } else if (type == "for_statement" || type == Front::kForEach || type == "while_statement" ||
               type == "do_statement") {
      auto s = make_stmt(StmtKind::loop, line);
      front().lower_loop_variable(node, *s);
      s->bodies.emplace_back();
      lower_branch(field(node, "body"), s->bodies.back());
      out.push_back(std::move(s));
    } else if (type == "return_statement") {
      auto s = make_stmt(StmtKind::ret, line);
      std::vector<TSNode> v = items(node);
      if (!v.empty()) s->value = front().lower_returned(v[0]);
      out.push_back(std::move(s));
    } else if (type == "throw_statement") {
      out.push_back(make_stmt(StmtKind::raise, line));
    } else if (type == "continue_statement") {
      out.push_back(make_stmt(StmtKind::skip, line));
    } else if (type == "try_statement" || type == Front::kBlock) {
      out.push_back(lower_block_statement(type == "try_statement" ? field(node, "body") : node, line));
    } else if (type == "ERROR") {
      lower_block(node, out);
    } else {
      front().lower_language_statement(node, type, line, out);
    }
  }

  // block {body}
  ir::StmtPtr lower_block_statement(TSNode body, int line) {
    auto s = make_stmt(StmtKind::block, line);
    s->bodies.emplace_back();
    lower_block(body, s->bodies.back());
    return s;
  }

  void push_expression(TSNode node, int line, ir::Body& out) {
    auto s = make_stmt(StmtKind::expression, line);
    s->value = lower_expr(node);
    out.push_back(std::move(s));
  }

  // `x = v`, `x += v`, `a = b = 0` (C, C++, Java).
  void lower_assignment(TSNode node, int line, ir::Body& out) {
    TSNode left = field(node, "left");
    TSNode right = field(node, "right");
    TSNode op = field(node, "operator");
    std::string o = ts_node_is_null(op) ? std::string() : assignment_operator(text(op));
    if (o.empty() && !ts_node_is_null(right) && type_of(right) == "assignment_expression") {
      front().lower_expression_statement(right, out);  // a = b = 0
      out.push_back(make_assign(lower_expr(left), lower_expr(field(right, "left")), "", line));
      return;
    }
    out.push_back(make_assign(lower_expr(left), front().lower_assigned(left, right), o, line));
    // selected[count++] = p: the count goes up after the store.
    for (TSNode part : items(left))
      if (type_of(part) == "update_expression") lower_update(part, line, out);
  }

  // `x++` / `--x` (C, C++, JavaScript): x += 1 / x -= 1.
  void lower_update(TSNode node, int line, ir::Body& out) {
    TSNode op = field(node, "operator");
    std::string o = !ts_node_is_null(op) && text(op) == "--" ? "-" : "+";
    out.push_back(make_assign(lower_expr(field(node, "argument")), make_number(1, line), o, line));
  }

  // visit(name, value, line) for each `name = value` declarator of a declaration; declarators
  // without a value (`let score;`) are skipped.
  template <typename Visit>
  void for_each_declarator(TSNode node, Visit&& visit) {
    for (TSNode d : items(node)) {
      if (type_of(d) != "variable_declarator") continue;
      TSNode name = field(d, "name");
      TSNode value = field(d, "value");
      if (!ts_node_is_null(name) && !ts_node_is_null(value)) visit(name, value, line_of(d));
    }
  }

  ir::ExprPtr lower_condition(TSNode cond) {
    if (ts_node_is_null(cond)) return make_unknown(0);
    if (type_of(cond) == "parenthesized_expression") return lower_last(cond, line_of(cond));
    return lower_expr(cond);
  }

  // if / else if / else: one chain. An `else` is an else_clause in C, C++ and JavaScript, the
  // statement itself in Java.
  ir::StmtPtr lower_if(TSNode node) {
    auto s = make_stmt(StmtKind::if_chain, line_of(node));
    TSNode cur = node;
    for (int guard = 0; guard < 10000; ++guard) {
      s->conditions.push_back(front().lower_condition(field(cur, "condition")));
      s->bodies.emplace_back();
      lower_branch(field(cur, "consequence"), s->bodies.back());
      TSNode alt = field(cur, "alternative");
      if (ts_node_is_null(alt)) break;
      TSNode inner = alt;
      if (type_of(alt) == "else_clause") {
        std::vector<TSNode> v = items(alt);
        inner = v.empty() ? TSNode{} : v[0];
      }
      if (!ts_node_is_null(inner) && type_of(inner) == "if_statement") {
        cur = inner;  // else if: same chain
        continue;
      }
      s->bodies.emplace_back();
      lower_branch(inner, s->bodies.back());
      break;
    }
    return s;
  }

  // The statement ends in return / throw / an exit, also as the last statement of its block.
  static bool ends_in_exit(TSNode st) {
    for (int guard = 0; guard < kMaxNesting && !ts_node_is_null(st); ++guard) {
      std::string_view t = type_of(st);
      if (t == "return_statement" || t == "throw_statement" || Front::is_exit(st)) return true;
      if (t != Front::kBlock) return false;
      std::vector<TSNode> v = items(st);
      if (v.empty()) return false;
      st = v.back();
    }
    return false;
  }

  // switch (subject) { case X: ... default: ... } (C, C++, JavaScript). The front end's
  // read_case(c, value, arm) reads the label of the arm `c` of the body into `arm`, or returns
  // false when `c` is no arm.
  ir::StmtPtr lower_case_switch(TSNode node, ir::ExprPtr subject) {
    int line = line_of(node);
    std::vector<SwitchArm> arms;
    for (TSNode c : items(field(node, "body"))) {
      SwitchArm arm;
      arm.line = line_of(c);
      TSNode value = field(c, "value");
      if (!front().read_case(c, value, arm)) continue;
      for (TSNode st : items(c)) {
        if (same(st, value)) continue;
        arm.empty = false;
        if (Front::is_exit(st)) {
          arm.exits = true;
          break;
        }
        lower_statement(st, arm.body);
        if (ends_in_exit(st)) {
          arm.exits = true;
          break;
        }
      }
      arms.push_back(std::move(arm));
    }
    return build_switch(std::move(subject), arms, line);
  }

  // ---- expressions -----------------------------------------------------------------------------

  ir::ExprPtr lower_expr(TSNode node) {
    NestingGuard guard(depth_);
    if (guard.too_deep()) return make_unknown(ts_node_is_null(node) ? 0 : line_of(node));
    return front().lower_expr_at(node);
  }

  // The value of `return value;` and of `x = value`.
  ir::ExprPtr lower_returned(TSNode value) { return lower_expr(value); }
  ir::ExprPtr lower_assigned(TSNode /*target*/, TSNode value) { return lower_expr(value); }

  // A loop's variable (s.target, a name) and the list it goes through (s.value), where the loop
  // names them: by default none.
  void lower_loop_variable(TSNode /*loop*/, ir::Stmt& /*s*/) {}

  // A function literal (`r => value`, `(r) -> { return value; }`) of one parameter `param`, whose
  // body is its returned value or a block of one return: an ir lambda; unknown otherwise.
  ir::ExprPtr lambda_of(std::string param, TSNode body, int line) {
    if (param.empty() || ts_node_is_null(body)) return make_unknown(line);
    TSNode value = body;
    if (type_of(body) == Front::kBlock) {
      std::vector<TSNode> statements = items(body);
      if (statements.size() != 1 || type_of(statements[0]) != "return_statement") return make_unknown(line);
      std::vector<TSNode> returned = items(statements[0]);
      if (returned.empty()) return make_unknown(line);
      value = returned[0];
    }
    auto e = make(ExprKind::lambda, line, std::move(param));
    e->children.push_back(front().lower_returned(value));
    return e;
  }

  // v.forEach(p -> { ... }) as a statement (JavaScript, Java): a loop over v with p bound to each
  // item, so that what its body appends is a selection like a for loop's.
  ir::StmtPtr for_each_loop(ir::ExprPtr source, std::string param, TSNode body, int line) {
    auto s = make_stmt(StmtKind::loop, line);
    if (!param.empty()) {
      s->target = make(ExprKind::name, line, std::move(param));
      s->value = std::move(source);
    }
    s->bodies.emplace_back();
    if (ts_node_is_null(body)) return s;
    if (type_of(body) == Front::kBlock) lower_block(body, s->bodies.back());
    else front().lower_expression_statement(body, s->bodies.back());
    returns_to_skips(s->bodies.back());
    return s;
  }

  // In a forEach callback, `return` ends the item's run: a `continue` (not inside a nested loop).
  static void returns_to_skips(ir::Body& body) {
    for (ir::StmtPtr& s : body) {
      if (s->kind == StmtKind::ret) {
        s->kind = StmtKind::skip;
        s->value.reset();
      }
      if (s->kind != StmtKind::loop)
        for (ir::Body& b : s->bodies) returns_to_skips(b);
    }
  }

  // The first / last item of `node`; unknown when it has none.
  ir::ExprPtr lower_first(TSNode node, int line) {
    std::vector<TSNode> v = items(node);
    return v.empty() ? make_unknown(line) : lower_expr(v[0]);
  }
  ir::ExprPtr lower_last(TSNode node, int line) {
    std::vector<TSNode> v = items(node);
    return v.empty() ? make_unknown(line) : lower_expr(v.back());
  }

  // [a, b, ...] of the items.
  ir::ExprPtr lower_list(TSNode node, int line) {
    auto e = make(ExprKind::list, line);
    for (TSNode c : items(node)) e->children.push_back(lower_expr(c));
    return e;
  }

  // condition ? consequence : alternative
  ir::ExprPtr lower_conditional(TSNode node, int line) {
    auto e = make(ExprKind::conditional, line);
    e->children.push_back(lower_expr(field(node, "condition")));
    e->children.push_back(lower_expr(field(node, "consequence")));
    e->children.push_back(lower_expr(field(node, "alternative")));
    return e;
  }

  // !x (or `not x`), -x, +x; other unary operators are unknown.
  ir::ExprPtr lower_unary(TSNode node, const char* operand, int line) {
    TSNode op = field(node, "operator");
    std::string o = ts_node_is_null(op) ? "-" : str(op);
    if (o == "!" || o == "not") return make_not(lower_expr(field(node, operand)), line);
    if (o == "-" || o == "+") {
      auto e = make(ExprKind::unary, line, o);
      e->children.push_back(lower_expr(field(node, operand)));
      return e;
    }
    return make_unknown(line);
  }

  // name(args...)
  ir::ExprPtr call_named(std::string name, const std::vector<TSNode>& args, int line) {
    auto e = make(ExprKind::call, line);
    e->children.push_back(make(ExprKind::name, line, std::move(name)));
    for (TSNode a : args) e->children.push_back(lower_expr(a));
    return e;
  }

  // clamp(x, lo, hi) -> max(lo, min(x, hi)), names the front ends' library tables give meaning to.
  ir::ExprPtr clamp_call(TSNode x, TSNode lo, TSNode hi, int line) {
    auto inner = call_named("min", {x, hi}, line);
    auto outer = make(ExprKind::call, line);
    outer->children.push_back(make(ExprKind::name, line, "max"));
    outer->children.push_back(lower_expr(lo));
    outer->children.push_back(std::move(inner));
    return outer;
  }

  ir::ExprPtr lower_binary(TSNode node) {
    TSNode op = field(node, "operator");
    return front().lower_operator(ts_node_is_null(op) ? std::string() : str(op), field(node, "left"),
                                  field(node, "right"), line_of(node));
  }

  // (left op right) of the lowered operands.
  ir::ExprPtr operands(ir::ExprKind kind, std::string op, TSNode left, TSNode right, int line) {
    return make_binary(kind, std::move(op), lower_expr(left), lower_expr(right), line);
  }

  // The operators the languages write alike: && (and), || (or), comparisons, arithmetic.
  ir::ExprPtr lower_operator(const std::string& op, TSNode left, TSNode right, int line) {
    if (op == "&&" || op == "and") return operands(ExprKind::logical, "and", left, right, line);
    if (op == "||" || op == "or") return operands(ExprKind::logical, "or", left, right, line);
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=")
      return operands(ExprKind::compare, op, left, right, line);
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%" || op == "**")
      return operands(ExprKind::binary, op, left, right, line);
    return make_unknown(line);
  }
};

}  // namespace codebias::analysis::front_ends::brace
