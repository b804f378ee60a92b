// Python front end: tree-sitter-python -> ir.
#include <string>

#include "analysis/front_ends/front_end.h"
#include "analysis/ir/rules.h"

namespace codebias::analysis::front_ends {
namespace {

using namespace lowering;
using ir::ExprKind;
using ir::StmtKind;

// Python's library calls the evaluator follows (ir::Library).
constexpr LibraryName kMethods[] = {
    {"lower", ir::kSameValue},
    {"upper", ir::kSameValue},
    {"casefold", ir::kSameValue},
    {"strip", ir::kSameValue},
    {"lstrip", ir::kSameValue},
    {"rstrip", ir::kSameValue},
    {"title", ir::kSameValue},
    {"capitalize", ir::kSameValue},
    {"value", ir::kSameValue},  // Enum members: gender.value, gender.name
    {"name", ir::kSameValue},
    {"str", ir::kSameValue},  // pandas: df["gender"].str.lower()
    {"startswith", ir::kEquals},
    {"endswith", ir::kEquals},
    {"__eq__", ir::kEquals},
    {"find", ir::kSubstring},
    {"count", ir::kHasItem},
    {"index", ir::kPosition},
    {"get", ir::kEntry | ir::kField},
    {"get_attribute", ir::kField},
    {"values", ir::kValues},
    {"items", ir::kPairs},
    {"append", ir::kAppend},
    {"add", ir::kAppend},
};
constexpr LibraryName kFunctions[] = {
    {"getattr", ir::kField},
    {"str", ir::kConvert},
    {"list", ir::kConvert},
    {"filter", ir::kFilter},
    {"map", ir::kMap},
    {"round", ir::kConvert},
    {"bool", ir::kConvert},
    {"int", ir::kParseNumber},
    {"float", ir::kParseNumber},
    {"abs", ir::kAbsolute},
    {"min", ir::kMinimum},
    {"max", ir::kMaximum},
    {"sum", ir::kSum},
    {"range", ir::kRange},
    {"len", ir::kLength},
    {"any", ir::kAny},
    {"all", ir::kAll},
    {"isinstance", ir::kOpaque},
    {"hasattr", ir::kOpaque},
    {"print", ir::kOpaque},
    {"type", ir::kOpaque},
};

class PythonLowering {
 public:
  explicit PythonLowering(const SyntaxTree& tree) : t_(tree) {}

  ir::Program run() {
    ir::Program program;
    lower_module(t_.root(), program);
    return program;
  }

 private:
  const SyntaxTree& t_;

  static uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
  static TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }

  // Module level: functions (also inside classes and error-recovered regions) and statements.
  void lower_module(TSNode node, ir::Program& program) {
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      std::string_view type = type_of(c);
      if (type == "function_definition") {
        program.functions.push_back(lower_function(c));
      } else if (type == "decorated_definition") {
        lower_module_item(field(c, "definition"), program);
      } else if (type == "class_definition") {
        TSNode body = field(c, "body");
        if (!ts_node_is_null(body)) lower_module(body, program);
      } else if (type == "ERROR" || type == "block") {
        lower_module(c, program);
      } else {
        lower_statement(c, program.globals);
      }
    }
  }

  void lower_module_item(TSNode node, ir::Program& program) {
    if (ts_node_is_null(node)) return;
    if (type_of(node) == "function_definition") program.functions.push_back(lower_function(node));
    else if (type_of(node) == "class_definition") lower_module(field(node, "body"), program);
  }

  ir::Function lower_function(TSNode node) {
    ir::Function fn;
    fn.line = line_of(node);
    fn.end_line = static_cast<int>(ts_node_end_point(node).row) + 1;
    fn.complete = !ts_node_has_error(node);
    TSNode name = field(node, "name");
    if (!ts_node_is_null(name)) fn.name = std::string(t_.text(name));
    TSNode params = field(node, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
      TSNode p = child(params, i);
      std::string_view type = type_of(p);
      TSNode id = p;
      ir::ExprPtr default_value;
      if (type == "default_parameter" || type == "typed_default_parameter") {
        id = field(p, "name");
        default_value = lower_expr(field(p, "value"));
      } else if (type == "typed_parameter") {
        id = child(p, 0);
      } else if (type != "identifier") {
        continue;
      }
      if (ts_node_is_null(id)) continue;
      std::string pname(t_.text(id));
      if (pname == "self" || pname == "cls") continue;
      fn.params.push_back(pname);
      fn.param_defaults.push_back(std::move(default_value));
    }
    TSNode body = field(node, "body");
    if (!ts_node_is_null(body)) lower_block(body, fn.body);
    return fn;
  }

  void lower_block(TSNode node, ir::Body& out) {
    for (uint32_t i = 0; i < count(node); ++i) lower_statement(child(node, i), out);
  }

  ir::StmtPtr stmt(StmtKind kind, TSNode node) {
    auto s = std::make_unique<ir::Stmt>();
    s->kind = kind;
    s->line = line_of(node);
    return s;
  }

  void lower_statement(TSNode node, ir::Body& out) {
    std::string_view type = type_of(node);
    if (type == "expression_statement") {
      for (uint32_t i = 0; i < count(node); ++i) lower_expression_statement(child(node, i), out);
    } else if (type == "if_statement") {
      out.push_back(lower_if(node));
    } else if (type == "return_statement") {
      auto s = stmt(StmtKind::ret, node);
      if (count(node) > 0) s->value = lower_expr(child(node, 0));
      out.push_back(std::move(s));
    } else if (type == "continue_statement") {
      out.push_back(stmt(StmtKind::skip, node));
    } else if (type == "raise_statement" || type == "assert_statement") {
      if (type == "raise_statement") out.push_back(stmt(StmtKind::raise, node));
    } else if (type == "for_statement" || type == "while_statement") {
      auto s = stmt(StmtKind::loop, node);
      TSNode variable = field(node, "left");
      if (type == "for_statement" && !ts_node_is_null(variable)) s->target = lower_loop_target(variable);
      if (s->target) {
        s->value = lower_expr(field(node, "right"));
      }
      s->bodies.emplace_back();
      lower_block(field(node, "body"), s->bodies.back());
      out.push_back(std::move(s));
    } else if (type == "try_statement" || type == "with_statement") {
      auto s = stmt(StmtKind::block, node);
      s->bodies.emplace_back();
      lower_block(field(node, "body"), s->bodies.back());
      out.push_back(std::move(s));
    } else if (type == "match_statement") {
      out.push_back(lower_match(node));
    } else if (type == "function_definition" || type == "decorated_definition" || type == "class_definition") {
      // Nested definitions are collected by the caller's module walk only at top level; inner
      // helpers are rare and left out of the decision logic.
    } else if (type == "block" || type == "ERROR") {
      lower_block(node, out);
    } else if (type == "assignment" || type == "augmented_assignment") {
      lower_expression_statement(node, out);
    }
  }

  void lower_expression_statement(TSNode node, ir::Body& out) {
    std::string_view type = type_of(node);
    if (type == "assignment") {
      TSNode right = field(node, "right");
      if (ts_node_is_null(right)) return;  // annotation only: `x: int`
      TSNode left = field(node, "left");
      // a = b = 0: the right side is itself an assignment
      if (type_of(right) == "assignment") {
        lower_expression_statement(right, out);
        auto s = stmt(StmtKind::assign, node);
        s->target = lower_expr(left);
        s->value = lower_expr(field(right, "left"));
        out.push_back(std::move(s));
        return;
      }
      // a, b = 1, 2
      if ((type_of(left) == "pattern_list" || type_of(left) == "tuple_pattern") &&
          (type_of(right) == "expression_list" || type_of(right) == "tuple") && count(left) == count(right)) {
        for (uint32_t i = 0; i < count(left); ++i) {
          auto s = stmt(StmtKind::assign, node);
          s->target = lower_expr(child(left, i));
          s->value = lower_expr(child(right, i));
          out.push_back(std::move(s));
        }
        return;
      }
      auto s = stmt(StmtKind::assign, node);
      s->target = lower_expr(left);
      s->value = lower_expr(right);
      out.push_back(std::move(s));
    } else if (type == "augmented_assignment") {
      auto s = stmt(StmtKind::assign, node);
      s->target = lower_expr(field(node, "left"));
      s->value = lower_expr(field(node, "right"));
      TSNode op = field(node, "operator");
      s->op = ts_node_is_null(op) ? "+" : assignment_operator(t_.text(op));
      out.push_back(std::move(s));
    } else if (type != "string" && type != "concatenated_string") {  // docstrings are not code
      auto s = stmt(StmtKind::expression, node);
      s->value = lower_expr(node);
      out.push_back(std::move(s));
    }
  }

  ir::StmtPtr lower_if(TSNode node) {
    auto s = stmt(StmtKind::if_chain, node);
    s->conditions.push_back(lower_expr(field(node, "condition")));
    s->bodies.emplace_back();
    lower_block(field(node, "consequence"), s->bodies.back());
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(c) == "elif_clause") {
        s->conditions.push_back(lower_expr(field(c, "condition")));
        s->bodies.emplace_back();
        lower_block(field(c, "consequence"), s->bodies.back());
      } else if (type_of(c) == "else_clause") {
        s->bodies.emplace_back();
        lower_block(field(c, "body"), s->bodies.back());
      }
    }
    return s;
  }

  // match x: case 'a' | 'b': ...  ->  if x in ['a', 'b'] ... else ...
  ir::StmtPtr lower_match(TSNode node) {
    auto s = stmt(StmtKind::if_chain, node);
    s->rule = rules::kMatchCase;
    TSNode subject = field(node, "subject");
    TSNode body = field(node, "body");
    for (uint32_t i = 0; !ts_node_is_null(body) && i < count(body); ++i) {
      TSNode clause = child(body, i);
      if (type_of(clause) != "case_clause") continue;
      auto labels = make(ExprKind::list, line_of(clause));
      bool wildcard = false;
      for (uint32_t j = 0; j < count(clause); ++j) {
        TSNode pattern = child(clause, j);
        if (type_of(pattern) != "case_pattern") continue;
        std::string_view text = t_.text(pattern);
        if (text == "_") {
          wildcard = true;
        } else {
          collect_case_labels(pattern, *labels);
        }
      }
      ir::Body branch;
      TSNode consequence = field(clause, "consequence");
      if (!ts_node_is_null(consequence)) lower_block(consequence, branch);
      if (wildcard) {
        s->bodies.push_back(std::move(branch));
        break;
      }
      s->conditions.push_back(make_binary(ExprKind::membership, "in", lower_expr(subject), std::move(labels), line_of(clause)));
      s->bodies.push_back(std::move(branch));
    }
    return s;
  }

  void collect_case_labels(TSNode pattern, ir::Expr& labels) {
    std::string_view type = type_of(pattern);
    if (type == "string" || type == "integer" || type == "float" || type == "dotted_name") {
      labels.children.push_back(lower_expr(pattern));
      return;
    }
    for (uint32_t i = 0; i < count(pattern); ++i) collect_case_labels(child(pattern, i), labels);
  }

  ir::ExprPtr lower_expr(TSNode node) {
    if (ts_node_is_null(node)) return make_unknown(0);
    int line = line_of(node);
    std::string_view type = type_of(node);
    if (type == "identifier") return make(ExprKind::name, line, std::string(t_.text(node)));
    if (type == "integer" || type == "float") return make_number_literal(t_.text(node), line);
    if (type == "string") {
      for (uint32_t i = 0; i < count(node); ++i)
        if (type_of(child(node, i)) == "interpolation") return make_unknown(line);  // f-strings
      return make(ExprKind::string, line, unquote(t_.text(node)));
    }
    if (type == "concatenated_string") return make_unknown(line);
    if (type == "true" || type == "false") return make_boolean(type == "true", line);
    if (type == "none") return make(ExprKind::null, line);
    if (type == "parenthesized_expression") return count(node) ? lower_expr(child(node, 0)) : make_unknown(line);
    if (type == "attribute")
      return make_member(lower_expr(field(node, "object")), std::string(t_.text(field(node, "attribute"))), line);
    if (type == "subscript") {
      TSNode sub = field(node, "subscript");
      if (!ts_node_is_null(sub) && type_of(sub) == "slice") return make_unknown(line);
      return make_binary(ExprKind::index, "", lower_expr(field(node, "value")), lower_expr(sub), line);
    }
    if (type == "call") {
      auto e = make(ExprKind::call, line);
      e->children.push_back(lower_expr(field(node, "function")));
      TSNode args = field(node, "arguments");
      if (!ts_node_is_null(args) && type_of(args) == "generator_expression") {  // any(x for x in v)
        e->children.push_back(lower_expr(args));
        return e;
      }
      for (uint32_t i = 0; !ts_node_is_null(args) && i < count(args); ++i) {
        TSNode a = child(args, i);
        if (type_of(a) == "keyword_argument") {
          // default=... in dict.get-like calls still matters; keep it positional
          TSNode name = field(a, "name");
          if (!ts_node_is_null(name) && t_.text(name) == "default") e->children.push_back(lower_expr(field(a, "value")));
          continue;
        }
        if (type_of(a) == "comment") continue;
        e->children.push_back(lower_expr(a));
      }
      return e;
    }
    if (type == "binary_operator") {
      TSNode op = field(node, "operator");
      std::string o(ts_node_is_null(op) ? "" : t_.text(op));
      if (o == "|" || o == "&" || o == "^" || o == "<<" || o == ">>" || o == "@") return make_unknown(line);
      return make_binary(ExprKind::binary, o, lower_expr(field(node, "left")), lower_expr(field(node, "right")), line);
    }
    if (type == "unary_operator") {
      TSNode op = field(node, "operator");
      std::string o(ts_node_is_null(op) ? "-" : t_.text(op));
      auto e = make(ExprKind::unary, line, o == "~" ? "~" : o);
      e->children.push_back(lower_expr(field(node, "argument")));
      return e;
    }
    if (type == "not_operator") {
      auto e = make(ExprKind::unary, line, "not");
      e->children.push_back(lower_expr(field(node, "argument")));
      return e;
    }
    if (type == "boolean_operator") {
      TSNode op = field(node, "operator");
      std::string o(ts_node_is_null(op) ? "and" : t_.text(op));
      return make_binary(ExprKind::logical, o, lower_expr(field(node, "left")), lower_expr(field(node, "right")), line);
    }
    if (type == "comparison_operator") return lower_comparison(node);
    if (type == "conditional_expression") {
      // `a if c else b`: named children are a, c, b
      if (count(node) < 3) return make_unknown(line);
      auto e = make(ExprKind::conditional, line);
      e->children.push_back(lower_expr(child(node, 1)));
      e->children.push_back(lower_expr(child(node, 0)));
      e->children.push_back(lower_expr(child(node, 2)));
      return e;
    }
    if (type == "list" || type == "tuple" || type == "set" || type == "expression_list") {
      auto e = make(ExprKind::list, line);
      for (uint32_t i = 0; i < count(node); ++i)
        if (type_of(child(node, i)) != "comment") e->children.push_back(lower_expr(child(node, i)));
      return e;
    }
    if (type == "generator_expression" || type == "list_comprehension" || type == "set_comprehension")
      return lower_comprehension(node);
    if (type == "lambda") return lower_lambda(node);
    if (type == "dictionary") {
      auto e = make(ExprKind::dict, line);
      for (uint32_t i = 0; i < count(node); ++i) {
        TSNode pair = child(node, i);
        if (type_of(pair) != "pair") continue;
        e->children.push_back(lower_expr(field(pair, "key")));
        e->children.push_back(lower_expr(field(pair, "value")));
      }
      return e;
    }
    if (type == "dotted_name") {
      // case Gender.MALE: -> member chain
      ir::ExprPtr e;
      for (uint32_t i = 0; i < count(node); ++i) {
        std::string part(t_.text(child(node, i)));
        e = e ? make_member(std::move(e), part, line) : make(ExprKind::name, line, part);
      }
      return e ? std::move(e) : make_unknown(line);
    }
    return make_unknown(line);
  }

  // `for r in v`: the name; `for key, weight in d.items()`: a list of names; null otherwise.
  ir::ExprPtr lower_loop_target(TSNode variable) {
    std::string_view type = type_of(variable);
    if (type == "identifier") return lower_expr(variable);
    if (type != "pattern_list" && type != "tuple_pattern") return nullptr;
    auto names = make(ExprKind::list, line_of(variable));
    for (uint32_t i = 0; i < count(variable); ++i) {
      if (type_of(child(variable, i)) != "identifier") return nullptr;
      names->children.push_back(lower_expr(child(variable, i)));
    }
    return names;
  }

  // lambda p: test: a lambda of its first parameter.
  ir::ExprPtr lower_lambda(TSNode node) {
    auto e = make(ExprKind::lambda, line_of(node));
    TSNode params = field(node, "parameters");
    if (!ts_node_is_null(params) && count(params) > 0 && type_of(child(params, 0)) == "identifier")
      e->text = std::string(t_.text(child(params, 0)));
    e->children.push_back(lower_expr(field(node, "body")));
    return e;
  }

  // (element for name in source if filter ...): one `for` over a name; unknown otherwise.
  ir::ExprPtr lower_comprehension(TSNode node) {
    int line = line_of(node);
    auto e = make(ExprKind::comprehension, line);
    e->children.push_back(lower_expr(field(node, "body")));
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode clause = child(node, i);
      if (type_of(clause) == "for_in_clause") {
        TSNode variable = field(clause, "left");
        if (!e->text.empty() || ts_node_is_null(variable) || type_of(variable) != "identifier")
          return make_unknown(line);  // several `for`s, or a tuple of names
        e->text = std::string(t_.text(variable));
        e->children.push_back(lower_expr(field(clause, "right")));
      } else if (type_of(clause) == "if_clause" && !e->text.empty()) {
        e->children.push_back(count(clause) ? lower_expr(child(clause, 0)) : make_unknown(line));
      }
    }
    return e->text.empty() ? make_unknown(line) : std::move(e);
  }

  // a < b <= c  ->  (a < b) and (b <= c);  `not in`, `is`, `is not` map to ir operators.
  ir::ExprPtr lower_comparison(TSNode node) {
    int line = line_of(node);
    std::vector<TSNode> operands;
    std::vector<std::string> ops;
    std::string pending;
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_child(node, i);
      if (ts_node_is_named(c)) {
        if (!pending.empty()) ops.push_back(pending);
        pending.clear();
        operands.push_back(c);
      } else {
        std::string tok(t_.text(c));
        pending = pending.empty() ? tok : pending + " " + tok;
      }
    }
    if (operands.size() < 2 || ops.size() + 1 != operands.size()) return make_unknown(line);
    ir::ExprPtr result;
    for (size_t i = 0; i < ops.size(); ++i) {
      std::string op = ops[i];
      ir::ExprPtr part;
      if (op == "in" || op == "not in") {
        part = make_binary(ExprKind::membership, op, lower_expr(operands[i]), lower_expr(operands[i + 1]), line);
      } else {
        if (op == "is") op = "==";
        if (op == "is not" || op == "<>") op = "!=";
        part = make_binary(ExprKind::compare, op, lower_expr(operands[i]), lower_expr(operands[i + 1]), line);
      }
      result = result ? make_binary(ExprKind::logical, "and", std::move(result), std::move(part), line) : std::move(part);
    }
    return result;
  }
};

}  // namespace

ir::Program lower_python(const SyntaxTree& tree) {
  ir::Program program = PythonLowering(tree).run();
  tag_library(program, {kMethods, kFunctions});
  return program;
}

}  // namespace codebias::analysis::front_ends
