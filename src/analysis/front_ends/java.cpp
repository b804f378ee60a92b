// Java front end: tree-sitter-java -> ir.
//
// Every method (of classes, interfaces, enums and records, nested ones included) becomes a
// function; constructors are named "constructor". Field initializers, static / instance
// initializer blocks and constructor assignments become program.globals, with
// `W.put("male", 1)` folded into the table `W` they fill. Collection factories lower to
// literals: Map.of / Map.ofEntries / new HashMap<>() {{ put(...); }} to dicts, List.of /
// Set.of / Arrays.asList / new HashSet<>(...) to lists.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/front_end.h"
#include "analysis/front_ends/brace_common.h"

namespace codebias::analysis::front_ends {
namespace {

using namespace lowering;
using brace::make_assign;
using brace::make_stmt;
using ir::ExprKind;
using ir::StmtKind;

bool one_of(std::string_view s, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (s == n) return true;
  return false;
}

class JavaLowering {
 public:
  explicit JavaLowering(const SyntaxTree& tree) : t_(tree) {}

  ir::Program run() {
    collect_enums(t_.root());
    lower_scope(t_.root());
    brace::drop_unfilled_members(program_.globals, members_);
    return std::move(program_);
  }

 private:
  const SyntaxTree& t_;
  ir::Program program_;
  std::map<std::string, std::vector<std::string>, std::less<>> enums_;  // enum -> constants
  int depth_ = 0;  // nesting of the node being lowered (NestingGuard)
  bool relowering_ = false;
  std::vector<const ir::Stmt*> members_;  // globals that class members defined

  static uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
  static TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }
  std::string_view text(TSNode n) const { return t_.text(n); }
  std::string str(TSNode n) const { return std::string(t_.text(n)); }

  static std::vector<TSNode> items(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    for (uint32_t i = 0; i < count(n); ++i) {
      TSNode c = child(n, i);
      std::string_view t = type_of(c);
      if (t != "line_comment" && t != "block_comment" && t != "comment") out.push_back(c);
    }
    return out;
  }

  void collect_enums(TSNode root) {
    brace::for_each_node(root, [&](TSNode node) {
      if (type_of(node) != "enum_declaration") return;
      auto& constants = enums_[str(field(node, "name"))];
      for (TSNode c : items(field(node, "body")))
        if (type_of(c) == "enum_constant") constants.push_back(str(field(c, "name")));
    });
  }

  bool is_enum_constant(std::string_view enum_name, std::string_view constant) const {
    auto it = enums_.find(enum_name);
    if (it == enums_.end()) return false;
    for (const std::string& c : it->second)
      if (c == constant) return true;
    return false;
  }

  // ---- module / class level ------------------------------------------------------------------

  void lower_scope(TSNode node) {
    for (TSNode c : items(node)) lower_scope_item(c);
  }

  void lower_scope_item(TSNode c) {
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    lower_scope_item_at(c);
  }

  void lower_scope_item_at(TSNode c) {
    std::string_view type = type_of(c);
    if (type == "class_declaration" || type == "interface_declaration" || type == "enum_declaration" ||
        type == "record_declaration" || type == "annotation_type_declaration") {
      lower_scope(field(c, "body"));
    } else if (type == "class_body" || type == "interface_body" || type == "enum_body" ||
               type == "enum_body_declarations" || type == "annotation_type_body") {
      lower_scope(c);
    } else if (type == "method_declaration") {
      if (!ts_node_is_null(field(c, "body"))) emit_function(c, str(field(c, "name")));
    } else if (type == "constructor_declaration" || type == "compact_constructor_declaration") {
      emit_function(c, "constructor");
      ir::Function signature;
      lower_params(field(c, "parameters"), signature);
      hoist_initializer(field(c, "body"), &signature.params);
    } else if (type == "field_declaration" || type == "constant_declaration") {
      ir::Body tmp;
      lower_variables(c, tmp);
      for (ir::StmtPtr& s : tmp) brace::add_initializer(program_.globals, std::move(s), &members_);
    } else if (type == "static_initializer") {
      for (TSNode b : items(c)) hoist_initializer(b);
    } else if (type == "block") {
      hoist_initializer(c);  // instance initializer
    } else if (type == "ERROR") {
      lower_error(c);
    } else if (type == "package_declaration" || type == "import_declaration" || type == "module_declaration" ||
               type == "enum_constant" || type == "modifiers" || type == "identifier" || type == "superclass" ||
               type == "super_interfaces" || type == "type_parameters" ||
               type == "annotation_type_element_declaration") {
      // no code
    } else {
      ir::Body tmp;
      lower_statement(c, tmp);
      for (ir::StmtPtr& s : tmp) brace::add_global(program_.globals, std::move(s));
    }
  }

  // A method cut off before its closing brace comes back as an ERROR holding its name, the
  // parameters and then the body's statements: recovered as an incomplete function.
  void lower_error(TSNode node) {
    std::vector<TSNode> v = items(node);
    int current = -1;
    for (size_t i = 0; i < v.size(); ++i) {
      TSNode c = v[i];
      std::string_view type = type_of(c);
      if (type == "formal_parameters" && i > 0 && type_of(v[i - 1]) == "identifier") {
        ir::Function fn;
        fn.name = str(v[i - 1]);
        fn.line = line_of(v[i - 1]);
        fn.end_line = static_cast<int>(ts_node_end_point(node).row) + 1;
        fn.complete = false;
        lower_params(c, fn);
        program_.functions.push_back(std::move(fn));
        current = static_cast<int>(program_.functions.size()) - 1;
        continue;
      }
      if (type == "identifier" || type == "modifiers" || type == "integral_type" || type == "floating_point_type" ||
          type == "boolean_type" || type == "void_type" || type == "type_identifier" || type == "generic_type" ||
          type == "array_type" || type == "scoped_type_identifier")
        continue;  // parts of a declaration header
      if (current >= 0) {
        ir::Body body;
        lower_statement(c, body);
        for (ir::StmtPtr& st : body) program_.functions[static_cast<size_t>(current)].body.push_back(std::move(st));
        continue;
      }
      lower_scope_item(c);
    }
  }

  void hoist_initializer(TSNode body, const std::vector<std::string>* params = nullptr) {
    if (ts_node_is_null(body)) return;
    ir::Body tmp;
    bool saved = relowering_;
    relowering_ = true;
    lower_block(body, tmp);
    relowering_ = saved;
    for (ir::StmtPtr& s : tmp) brace::add_initializer(program_.globals, std::move(s), &members_, params);
  }

  // ---- functions ---------------------------------------------------------------------------

  void emit_function(TSNode node, std::string name) {
    if (relowering_) return;
    ir::Function fn;
    fn.name = std::move(name);
    fn.line = line_of(node);
    fn.end_line = static_cast<int>(ts_node_end_point(node).row) + 1;
    lower_params(field(node, "parameters"), fn);
    TSNode body = field(node, "body");
    if (!ts_node_is_null(body)) lower_block(body, fn.body);
    fn.complete = !ts_node_has_error(node) && closes(body);
    program_.functions.push_back(std::move(fn));
  }

  static bool closes(TSNode body) {
    if (ts_node_is_null(body)) return false;
    uint32_t n = ts_node_child_count(body);
    if (n == 0) return false;
    TSNode last = ts_node_child(body, n - 1);
    return type_of(last) == "}" && !ts_node_is_missing(last);
  }

  void lower_params(TSNode params, ir::Function& fn) {
    for (TSNode p : items(params)) {
      std::string_view t = type_of(p);
      TSNode name{};
      if (t == "formal_parameter") {
        name = field(p, "name");
      } else if (t == "spread_parameter") {
        for (TSNode c : items(p))
          if (type_of(c) == "variable_declarator") name = field(c, "name");
      } else if (t == "identifier") {
        name = p;
      }
      if (ts_node_is_null(name)) continue;  // receiver parameter `Foo this`
      fn.params.push_back(str(name));
      fn.param_defaults.push_back(nullptr);
    }
  }

  // ---- statements --------------------------------------------------------------------------

  void lower_block(TSNode node, ir::Body& out) {
    for (TSNode c : items(node)) lower_statement(c, out);
  }

  void lower_branch(TSNode node, ir::Body& out) {
    if (ts_node_is_null(node)) return;
    if (type_of(node) == "block")
      lower_block(node, out);
    else
      lower_statement(node, out);
  }

  void lower_statement(TSNode node, ir::Body& out) {
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    lower_statement_at(node, out);
  }

  void lower_statement_at(TSNode node, ir::Body& out) {
    if (ts_node_is_null(node)) return;
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (type == "expression_statement") {
      for (TSNode c : items(node)) lower_expression_statement(c, out);
    } else if (type == "local_variable_declaration") {
      lower_variables(node, out);
    } else if (type == "if_statement") {
      out.push_back(lower_if(node));
    } else if (type == "switch_expression" || type == "switch_statement") {
      out.push_back(lower_switch(node));
    } else if (type == "for_statement" || type == "enhanced_for_statement" || type == "while_statement" ||
               type == "do_statement") {
      auto s = make_stmt(StmtKind::loop, line);
      s->bodies.emplace_back();
      lower_branch(field(node, "body"), s->bodies.back());
      out.push_back(std::move(s));
    } else if (type == "return_statement") {
      auto s = make_stmt(StmtKind::ret, line);
      std::vector<TSNode> v = items(node);
      if (!v.empty()) s->value = lower_expr(v[0]);
      out.push_back(std::move(s));
    } else if (type == "throw_statement") {
      out.push_back(make_stmt(StmtKind::raise, line));
    } else if (type == "try_statement" || type == "try_with_resources_statement" || type == "block" ||
               type == "synchronized_statement" || type == "constructor_body") {
      TSNode body = type == "block" || type == "constructor_body" ? node : field(node, "body");
      if (type == "synchronized_statement")
        for (TSNode c : items(node))
          if (type_of(c) == "block") body = c;
      auto s = make_stmt(StmtKind::block, line);
      s->bodies.emplace_back();
      lower_block(body, s->bodies.back());
      out.push_back(std::move(s));
    } else if (type == "labeled_statement") {
      for (TSNode c : items(node))
        if (type_of(c) != "identifier") lower_statement(c, out);
    } else if (type == "ERROR") {
      lower_block(node, out);
    } else if (type == "assignment_expression" || type == "update_expression" || type == "method_invocation") {
      lower_expression_statement(node, out);  // recovered without its `;`
    }
    // break / continue / yield / assert / local classes / this(...) calls: nothing to lower
  }

  void lower_expression_statement(TSNode node, ir::Body& out) {
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (type == "assignment_expression") {
      TSNode left = field(node, "left");
      TSNode right = field(node, "right");
      TSNode op = field(node, "operator");
      std::string o = ts_node_is_null(op) ? std::string() : assignment_operator(text(op));
      if (o.empty() && !ts_node_is_null(right) && type_of(right) == "assignment_expression") {
        lower_expression_statement(right, out);  // a = b = 0
        out.push_back(make_assign(lower_expr(left), lower_expr(field(right, "left")), "", line));
        return;
      }
      out.push_back(make_assign(lower_expr(left), lower_expr(right), o, line));
    } else if (type == "update_expression") {
      std::string o = "+";
      for (uint32_t i = 0; i < ts_node_child_count(node); ++i)
        if (type_of(ts_node_child(node, i)) == "--") o = "-";
      std::vector<TSNode> v = items(node);
      out.push_back(make_assign(v.empty() ? make_unknown(line) : lower_expr(v[0]), make_number(1, line), o, line));
    } else if (type == "method_invocation") {
      // weights.put("male", 1): a store into the table
      TSNode object = field(node, "object");
      std::vector<TSNode> args = items(field(node, "arguments"));
      if (!ts_node_is_null(object) && args.size() == 2 && text(field(node, "name")) == "put") {
        out.push_back(brace::make_table_store(lower_expr(object), lower_expr(args[0]), lower_expr(args[1]), line));
        return;
      }
      auto s = make_stmt(StmtKind::expression, line);
      s->value = lower_expr(node);
      out.push_back(std::move(s));
    } else if (type == "parenthesized_expression") {
      for (TSNode c : items(node)) lower_expression_statement(c, out);
    } else {
      auto s = make_stmt(StmtKind::expression, line);
      s->value = lower_expr(node);
      out.push_back(std::move(s));
    }
  }

  void lower_variables(TSNode node, ir::Body& out) {
    for (TSNode d : items(node)) {
      if (type_of(d) != "variable_declarator") continue;
      TSNode name = field(d, "name");
      TSNode value = field(d, "value");
      if (ts_node_is_null(name) || ts_node_is_null(value)) continue;
      int line = line_of(d);
      out.push_back(make_assign(make(ExprKind::name, line, str(name)), lower_expr(value), "", line));
    }
  }

  ir::ExprPtr lower_condition(TSNode cond) {
    if (ts_node_is_null(cond)) return make_unknown(0);
    if (type_of(cond) == "parenthesized_expression") {
      std::vector<TSNode> v = items(cond);
      return v.empty() ? make_unknown(line_of(cond)) : lower_expr(v.back());
    }
    return lower_expr(cond);
  }

  ir::StmtPtr lower_if(TSNode node) {
    auto s = make_stmt(StmtKind::if_chain, line_of(node));
    TSNode cur = node;
    for (int guard = 0; guard < 10000; ++guard) {
      s->conditions.push_back(lower_condition(field(cur, "condition")));
      s->bodies.emplace_back();
      lower_branch(field(cur, "consequence"), s->bodies.back());
      TSNode alt = field(cur, "alternative");
      if (ts_node_is_null(alt)) break;
      if (type_of(alt) == "if_statement") {
        cur = alt;  // else if: same chain
        continue;
      }
      s->bodies.emplace_back();
      lower_branch(alt, s->bodies.back());
      break;
    }
    return s;
  }

  static bool is_exit(TSNode st) {
    std::string_view t = type_of(st);
    return t == "break_statement" || t == "continue_statement" || t == "yield_statement";
  }

  static bool ends_in_exit(TSNode st) {
    for (int guard = 0; guard < brace::kMaxNesting && !ts_node_is_null(st); ++guard) {
      std::string_view t = type_of(st);
      if (t == "return_statement" || t == "throw_statement" || is_exit(st)) return true;
      if (t != "block") return false;
      std::vector<TSNode> v = items(st);
      if (v.empty()) return false;
      st = v.back();
    }
    return false;
  }

  // `case "a", "b":` / `case MALE ->` / `default:`; false for `default`.
  bool read_label(TSNode label, std::vector<ir::ExprPtr>& labels) {
    std::vector<TSNode> v = items(label);
    std::string_view t = text(label);
    if (t.substr(0, 7) == "default") return false;
    bool is_default = false;
    for (TSNode e : v) {
      std::string_view et = type_of(e);
      if (et == "identifier")
        labels.push_back(make(ExprKind::string, line_of(e), str(e)));  // enum constant
      else if (et == "pattern" || et == "guard" || et == "record_pattern" || et == "type_pattern")
        labels.push_back(make_unknown(line_of(e)));
      else if (text(e) == "default")
        is_default = true;
      else
        labels.push_back(lower_expr(e));
    }
    return !is_default;
  }

  ir::StmtPtr lower_switch(TSNode node) {
    int line = line_of(node);
    ir::ExprPtr subject = lower_condition(field(node, "condition"));
    std::vector<brace::SwitchArm> arms;
    for (TSNode group : items(field(node, "body"))) {
      std::string_view gt = type_of(group);
      if (gt != "switch_block_statement_group" && gt != "switch_rule") continue;
      brace::SwitchArm arm;
      arm.line = line_of(group);
      bool in_statements = false;
      for (TSNode c : items(group)) {
        if (type_of(c) == "switch_label") {
          if (!read_label(c, arm.labels)) arm.is_default = true;
          continue;
        }
        in_statements = true;
        if (arm.exits) continue;
        arm.empty = false;
        if (is_exit(c)) {
          arm.exits = true;
          continue;
        }
        if (gt == "switch_rule" && type_of(c) == "expression_statement") {
          for (TSNode e : items(c)) lower_expression_statement(e, arm.body);
        } else {
          lower_branch(c, arm.body);
        }
        if (ends_in_exit(c)) arm.exits = true;
      }
      (void)in_statements;
      if (gt == "switch_rule") {
        arm.exits = true;  // `case X -> ...` never falls through
        arm.empty = false;
      }
      arms.push_back(std::move(arm));
    }
    return brace::build_switch(std::move(subject), arms, line);
  }

  // int bonus = switch (g) { case "male" -> 5; default -> 0; };
  ir::ExprPtr lower_switch_value(TSNode node) {
    int line = line_of(node);
    ir::ExprPtr subject = lower_condition(field(node, "condition"));
    std::vector<brace::SwitchValueArm> arms;
    std::vector<ir::ExprPtr> pending;
    for (TSNode group : items(field(node, "body"))) {
      std::string_view gt = type_of(group);
      if (gt != "switch_block_statement_group" && gt != "switch_rule") continue;
      brace::SwitchValueArm arm;
      arm.line = line_of(group);
      for (ir::ExprPtr& p : pending) arm.labels.push_back(std::move(p));
      pending.clear();
      bool has_value = false;
      for (TSNode c : items(group)) {
        std::string_view ct = type_of(c);
        if (ct == "switch_label") {
          if (!read_label(c, arm.labels)) arm.is_default = true;
          continue;
        }
        if (has_value) continue;
        if (ct == "expression_statement" && gt == "switch_rule") {
          std::vector<TSNode> v = items(c);
          arm.value = v.empty() ? make_unknown(line_of(c)) : lower_expr(v[0]);
          has_value = true;
        } else if (ct == "yield_statement") {
          std::vector<TSNode> v = items(c);
          arm.value = v.empty() ? make_unknown(line_of(c)) : lower_expr(v[0]);
          has_value = true;
        } else if (ct == "block") {
          std::vector<TSNode> v = items(c);
          if (v.size() == 1 && type_of(v[0]) == "yield_statement" && count(v[0]) > 0)
            arm.value = lower_expr(items(v[0])[0]);
          else
            arm.value = make_unknown(line_of(c));
          has_value = true;
        } else {
          arm.value = make_unknown(line_of(c));
          has_value = true;
        }
      }
      if (!has_value && gt == "switch_block_statement_group") {
        for (ir::ExprPtr& l : arm.labels) pending.push_back(std::move(l));  // case "a": case "b": yield 1;
        continue;
      }
      arms.push_back(std::move(arm));
    }
    return brace::build_switch_value(std::move(subject), arms, line);
  }

  // ---- expressions -------------------------------------------------------------------------

  ir::ExprPtr lower_expr(TSNode node) {
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return make_unknown(ts_node_is_null(node) ? 0 : line_of(node));
    return lower_expr_at(node);
  }

  ir::ExprPtr lower_expr_at(TSNode node) {
    if (ts_node_is_null(node)) return make_unknown(0);
    int line = line_of(node);
    std::string_view type = type_of(node);
    if (type == "identifier" || type == "this" || type == "super" || type == "type_identifier")
      return make(ExprKind::name, line, str(node));
    if (type == "decimal_integer_literal" || type == "hex_integer_literal" || type == "octal_integer_literal" ||
        type == "binary_integer_literal" || type == "decimal_floating_point_literal" ||
        type == "hex_floating_point_literal") {
      double v = 0;
      return parse_number(text(node), v) ? make_number(v, line) : make_unknown(line);
    }
    if (type == "string_literal") {
      for (TSNode c : items(node))
        if (type_of(c) == "string_interpolation") return make_unknown(line);
      return make(ExprKind::string, line, unquote(text(node)));
    }
    if (type == "character_literal") return make(ExprKind::string, line, unquote(text(node)));
    if (type == "true" || type == "false") {
      auto e = make(ExprKind::boolean, line);
      e->value = type == "true" ? 1 : 0;
      return e;
    }
    if (type == "null_literal") return make(ExprKind::null, line);
    if (type == "parenthesized_expression") {
      std::vector<TSNode> v = items(node);
      return v.empty() ? make_unknown(line) : lower_expr(v.back());
    }
    if (type == "field_access") {
      TSNode object = field(node, "object");
      std::string name = str(field(node, "field"));
      if (!ts_node_is_null(object) && (type_of(object) == "this" || type_of(object) == "super"))
        return make(ExprKind::name, line, name);
      // Gender.FEMALE of an enum declared in this code reads as the constant's name; enums
      // declared elsewhere stay member accesses (the evaluator reads ALL-CAPS members as literals)
      if (!ts_node_is_null(object) && type_of(object) == "identifier" && is_enum_constant(text(object), name))
        return make(ExprKind::string, line, name);
      auto e = make(ExprKind::member, line, name);
      e->children.push_back(lower_expr(object));
      return e;
    }
    if (type == "scoped_identifier") {  // java.util.Map in an expression position
      auto e = make(ExprKind::member, line, str(field(node, "name")));
      e->children.push_back(lower_expr(field(node, "scope")));
      return e;
    }
    if (type == "array_access")
      return make_binary(ExprKind::index, "", lower_expr(field(node, "array")), lower_expr(field(node, "index")), line);
    if (type == "method_invocation") return lower_invocation(node);
    if (type == "object_creation_expression") return lower_new(node);
    if (type == "array_creation_expression") {
      TSNode value = field(node, "value");
      return ts_node_is_null(value) ? make_unknown(line) : lower_expr(value);
    }
    if (type == "array_initializer") {
      auto e = make(ExprKind::list, line);
      for (TSNode c : items(node)) e->children.push_back(lower_expr(c));
      return e;
    }
    if (type == "binary_expression") return lower_binary(node);
    if (type == "unary_expression") {
      TSNode op = field(node, "operator");
      std::string o = ts_node_is_null(op) ? "-" : str(op);
      if (o == "!") return brace::make_not(lower_expr(field(node, "operand")), line);
      if (o == "-" || o == "+") {
        auto e = make(ExprKind::unary, line, o);
        e->children.push_back(lower_expr(field(node, "operand")));
        return e;
      }
      return make_unknown(line);
    }
    if (type == "update_expression") {
      std::vector<TSNode> v = items(node);
      return v.empty() ? make_unknown(line) : lower_expr(v[0]);
    }
    if (type == "ternary_expression") {
      auto e = make(ExprKind::conditional, line);
      e->children.push_back(lower_expr(field(node, "condition")));
      e->children.push_back(lower_expr(field(node, "consequence")));
      e->children.push_back(lower_expr(field(node, "alternative")));
      return e;
    }
    if (type == "cast_expression") return lower_expr(field(node, "value"));
    if (type == "switch_expression") return lower_switch_value(node);
    return make_unknown(line);
  }

  ir::ExprPtr call_named(const std::string& name, const std::vector<TSNode>& args, int line) {
    auto e = make(ExprKind::call, line);
    e->children.push_back(make(ExprKind::name, line, name));
    for (TSNode a : args) e->children.push_back(lower_expr(a));
    return e;
  }

  ir::ExprPtr list_of(const std::vector<TSNode>& args, int line) {
    auto e = make(ExprKind::list, line);
    // Arrays.asList(array) / List.of(array): the array itself
    if (args.size() == 1 &&
        (type_of(args[0]) == "array_creation_expression" || type_of(args[0]) == "array_initializer"))
      return lower_expr(args[0]);
    for (TSNode a : args) e->children.push_back(lower_expr(a));
    return e;
  }

  // Map.entry(k, v) / new AbstractMap.SimpleEntry<>(k, v): its key and value; false otherwise.
  bool entry_of(TSNode n, std::vector<TSNode>& kv) const {
    std::string_view t = type_of(n);
    std::vector<TSNode> args;
    if (t == "method_invocation" && text(field(n, "name")) == "entry")
      args = items(field(n, "arguments"));
    else if (t == "object_creation_expression" && text(field(n, "type")).find("Entry") != std::string_view::npos)
      args = items(field(n, "arguments"));
    if (args.size() != 2) return false;
    kv = args;
    return true;
  }

  ir::ExprPtr lower_invocation(TSNode node) {
    int line = line_of(node);
    TSNode object = field(node, "object");
    std::string name = str(field(node, "name"));
    std::vector<TSNode> args = items(field(node, "arguments"));
    std::string owner;
    if (!ts_node_is_null(object) && (type_of(object) == "identifier" || type_of(object) == "scoped_identifier")) {
      owner = str(object);
      size_t dot = owner.rfind('.');
      if (dot != std::string::npos) owner.erase(0, dot + 1);  // java.util.Map -> Map
    }
    if (!owner.empty()) {
      if ((owner == "Map" || owner == "ImmutableMap") && name == "of") {
        auto d = make(ExprKind::dict, line);
        for (TSNode a : args) d->children.push_back(lower_expr(a));
        if (d->children.size() % 2) d->children.pop_back();
        return d;
      }
      if (owner == "Map" && name == "ofEntries") {
        auto d = make(ExprKind::dict, line);
        for (TSNode a : args) {
          std::vector<TSNode> kv;
          if (!entry_of(a, kv)) return make_unknown(line);
          d->children.push_back(lower_expr(kv[0]));
          d->children.push_back(lower_expr(kv[1]));
        }
        return d;
      }
      if ((one_of(owner, {"List", "Set", "Stream", "EnumSet", "ImmutableList", "ImmutableSet"}) && name == "of") ||
          (owner == "Arrays" && (name == "asList" || name == "stream")))
        return list_of(args, line);
      if (owner == "Collections") {
        if (one_of(name, {"unmodifiableMap", "unmodifiableList", "unmodifiableSet", "unmodifiableCollection",
                          "synchronizedMap", "synchronizedList", "synchronizedSet"}) &&
            args.size() == 1)
          return lower_expr(args[0]);
        if ((name == "singletonList" || name == "singleton") && args.size() == 1) return list_of(args, line);
        if (name == "emptyMap") return make(ExprKind::dict, line);
        if (name == "emptyList" || name == "emptySet") return make(ExprKind::list, line);
      }
      if (owner == "Math" && one_of(name, {"max", "min", "abs", "round"})) return call_named(name, args, line);
      if (owner == "Math" && one_of(name, {"floor", "ceil", "rint"})) return call_named("round", args, line);
      if (owner == "Math" && name == "clamp" && args.size() == 3) {  // max(lo, min(x, hi))
        auto inner = call_named("min", {args[0], args[2]}, line);
        auto outer = make(ExprKind::call, line);
        outer->children.push_back(make(ExprKind::name, line, "max"));
        outer->children.push_back(lower_expr(args[1]));
        outer->children.push_back(std::move(inner));
        return outer;
      }
      if (owner == "Objects" && name == "equals" && args.size() == 2)
        return make_binary(ExprKind::compare, "==", lower_expr(args[0]), lower_expr(args[1]), line);
      if (owner == "String" && name == "valueOf" && args.size() == 1) return lower_expr(args[0]);
      if (one_of(owner, {"Integer", "Long", "Short"}) &&
          (name == "parseInt" || name == "parseLong" || name == "valueOf"))
        return call_named("parseInt", args, line);
      if (one_of(owner, {"Double", "Float"}) && (name == "parseDouble" || name == "parseFloat" || name == "valueOf"))
        return call_named("parseFloat", args, line);
    }
    auto e = make(ExprKind::call, line);
    if (ts_node_is_null(object)) {
      e->children.push_back(make(ExprKind::name, line, name));
    } else {
      auto callee = make(ExprKind::member, line, name);
      callee->children.push_back(lower_expr(object));
      e->children.push_back(std::move(callee));
    }
    for (TSNode a : args) e->children.push_back(lower_expr(a));
    return e;
  }

  // new HashMap<>() -> {}; new HashMap<>(other) -> other; new HashMap<>() {{ put("male", 1); }}
  // -> {"male": 1}; new ArrayList<>(List.of(...)) -> [...]; new String("x") -> "x".
  ir::ExprPtr lower_new(TSNode node) {
    int line = line_of(node);
    std::string type(text(field(node, "type")));
    size_t lt = type.find('<');
    if (lt != std::string::npos) type.erase(lt);
    size_t dot = type.rfind('.');
    if (dot != std::string::npos) type.erase(0, dot + 1);
    std::vector<TSNode> args = items(field(node, "arguments"));
    TSNode body{};
    for (TSNode c : items(node))
      if (type_of(c) == "class_body") body = c;
    bool is_map = type.size() >= 3 &&
                  (type.compare(type.size() - 3, 3, "Map") == 0 || type == "Hashtable" || type == "Properties");
    bool is_list = !is_map && (type.find("List") != std::string::npos || type.find("Set") != std::string::npos ||
                               type == "Vector" || type == "ArrayDeque" || type.find("Queue") != std::string::npos);
    auto copies = [&]() {
      if (args.size() != 1) return false;
      std::string_view t = type_of(args[0]);
      return t != "decimal_integer_literal" && t != "class_literal" && t != "decimal_floating_point_literal";
    };
    if (is_map || is_list) {
      if (copies()) return lower_expr(args[0]);
      auto e = make(is_map ? ExprKind::dict : ExprKind::list, line);
      // double-brace initialization: {{ put("male", 1); add("x"); }}
      for (TSNode block : items(body)) {
        if (type_of(block) != "block") continue;
        for (TSNode st : items(block)) {
          if (type_of(st) != "expression_statement") continue;
          for (TSNode call : items(st)) {
            if (type_of(call) != "method_invocation" || !ts_node_is_null(field(call, "object"))) continue;
            std::string m = str(field(call, "name"));
            std::vector<TSNode> a = items(field(call, "arguments"));
            if (is_map && m == "put" && a.size() == 2) {
              e->children.push_back(lower_expr(a[0]));
              e->children.push_back(lower_expr(a[1]));
            } else if (is_list && m == "add" && a.size() == 1) {
              e->children.push_back(lower_expr(a[0]));
            }
          }
        }
      }
      return e;
    }
    if (one_of(type, {"String", "Integer", "Double", "Long", "Float", "BigDecimal", "Boolean"}) && args.size() == 1)
      return lower_expr(args[0]);
    if (type == "String" && args.empty()) return make(ExprKind::string, line, "");
    return make_unknown(line);
  }

  ir::ExprPtr lower_binary(TSNode node) {
    int line = line_of(node);
    TSNode opn = field(node, "operator");
    std::string op = ts_node_is_null(opn) ? std::string() : str(opn);
    TSNode left = field(node, "left");
    TSNode right = field(node, "right");
    if (op == "&&") return make_binary(ExprKind::logical, "and", lower_expr(left), lower_expr(right), line);
    if (op == "||") return make_binary(ExprKind::logical, "or", lower_expr(left), lower_expr(right), line);
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=")
      return make_binary(ExprKind::compare, op, lower_expr(left), lower_expr(right), line);
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%")
      return make_binary(ExprKind::binary, op, lower_expr(left), lower_expr(right), line);
    return make_unknown(line);
  }
};

}  // namespace

ir::Program lower_java(const SyntaxTree& tree) { return JavaLowering(tree).run(); }

}  // namespace codebias::analysis::front_ends
