// tree-sitter-python's tree -> the shape of Python's ast (python_ast.h).
#include "analysis/counterfactual/python_ast.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/front_ends/brace_common.h"
#include "analysis/parsing/syntax.h"

namespace codebias::analysis::python_ast {
namespace {

using nlohmann::json;

// Appends the UTF-8 of code point `c`; a lone surrogate (Python's "\ud800") as U+FFFD, as UTF-8
// has no bytes for it and the job's JSON must stay valid.
void append_utf8(std::string& out, uint32_t c) {
  if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The value of a string literal's body, its escapes read as Python reads them (a raw string's
// are kept).
std::string unescape(std::string_view body, bool raw) {
  std::string out;
  for (std::size_t at = 0; at < body.size(); ++at) {
    const char c = body[at];
    if (c != '\\' || raw || at + 1 == body.size()) {
      out += c;
      continue;
    }
    const char next = body[++at];
    auto hex = [&](std::size_t digits) {
      if (at + digits >= body.size()) return false;
      const std::string text(body.substr(at + 1, digits));
      if (text.size() != digits || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
      append_utf8(out, static_cast<uint32_t>(std::strtoul(text.c_str(), nullptr, 16)));
      at += digits;
      return true;
    };
    switch (next) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
        if (!hex(2)) out += "\\x";
        break;
      case 'u':
        if (!hex(4)) out += "\\u";
        break;
      case 'U':
        if (!hex(8)) out += "\\U";
        break;
      default:
        if (next >= '0' && next <= '7') {
          uint32_t value = static_cast<uint32_t>(next - '0');
          for (int more = 0; more < 2 && at + 1 < body.size() && body[at + 1] >= '0' && body[at + 1] <= '7'; ++more)
            value = value * 8 + static_cast<uint32_t>(body[++at] - '0');
          append_utf8(out, value);
        } else {
          out += '\\';
          out += next;
        }
    }
  }
  return out;
}

// How deep statements and expressions nest before the conversion stops descending: CPython's
// tokenizer refuses parentheses nested deeper than 200 (MAXLEVEL) and blocks indented deeper than
// 100, and a sanitizer build's frames are large enough that 512 levels overflow an 8 MiB stack.
constexpr int kMaxDepth = 200;

using front_ends::brace::NestingGuard;

class Converter {
 public:
  explicit Converter(const SyntaxTree& tree) : t_(tree) {}

  Node module(TSNode root) {
    Node m;
    m.kind = Kind::module;
    statements(root, m.kids);
    return m;
  }

 private:
  const SyntaxTree& t_;
  // Statements and expressions nested inside the one being converted: past kMaxDepth a node is
  // `other` without kids, so hostile code cannot exhaust the stack.
  int depth_ = 0;

  // Named children, comments left out.
  static std::vector<TSNode> kids(TSNode n) {
    std::vector<TSNode> found;
    for (TSNode c : named_children(n))
      if (type_of(c) != "comment" && type_of(c) != "line_continuation") found.push_back(c);
    return found;
  }

  static Node make(Kind kind, std::vector<Node> children = {}) {
    Node n;
    n.kind = kind;
    n.kids = std::move(children);
    return n;
  }

  void statements(TSNode block, std::vector<Node>& out) {
    if (ts_node_is_null(block)) return;
    for (TSNode c : kids(block)) statement(c, out);
  }

  void statement(TSNode n, std::vector<Node>& out) {
    const NestingGuard guard(depth_);
    if (depth_ > kMaxDepth) {
      out.push_back(make(Kind::other));
      return;
    }
    const std::string_view type = type_of(n);
    if (type == "expression_statement") {
      const auto parts = kids(n);
      if (parts.size() == 1 && (type_of(parts[0]) == "assignment" || type_of(parts[0]) == "augmented_assignment")) {
        out.push_back(assignment(parts[0]));
      } else {
        out.push_back(make(Kind::other, {parts.size() == 1 ? expr(parts[0]) : sequence(parts)}));  // ast.Expr
      }
    } else if (type == "assignment" || type == "augmented_assignment") {
      out.push_back(assignment(n));
    } else if (type == "return_statement") {
      Node r = make(Kind::ret);
      for (TSNode c : kids(n)) r.kids.push_back(expr(c));
      out.push_back(std::move(r));
    } else if (type == "if_statement") {
      out.push_back(if_chain(n));
    } else if (type == "for_statement" || type == "while_statement") {
      out.push_back(loop(n));
    } else if (type == "try_statement") {
      out.push_back(try_statement(n));
    } else if (type == "with_statement") {
      out.push_back(with_statement(n));
    } else if (type == "function_definition") {
      out.push_back(function(n, {}));
    } else if (type == "class_definition") {
      out.push_back(class_def(n, {}));
    } else if (type == "decorated_definition") {
      std::vector<TSNode> decorators;
      for (TSNode c : kids(n))
        if (type_of(c) == "decorator") decorators.push_back(c);
      TSNode definition = field(n, "definition");
      if (ts_node_is_null(definition)) return;
      out.push_back(type_of(definition) == "class_definition" ? class_def(definition, decorators)
                                                              : function(definition, decorators));
    } else if (type == "match_statement") {
      out.push_back(match_statement(n));
    } else if (type == "block" || type == "ERROR") {
      statements(n, out);
    } else if (type == "raise_statement" || type == "assert_statement" || type == "delete_statement" ||
               type == "print_statement" || type == "exec_statement") {
      Node s = make(Kind::other);
      for (TSNode c : kids(n)) {
        if (type_of(c) == "expression_list") {  // del a, b: two targets
          for (TSNode item : kids(c)) s.kids.push_back(expr(item));
        } else {
          s.kids.push_back(expr(c));
        }
      }
      out.push_back(std::move(s));
    } else {
      out.push_back(make(Kind::other));  // pass, break, import, global (names, not expressions), ...
    }
  }

  Node assignment(TSNode n) {
    if (type_of(n) == "augmented_assignment") return make(Kind::aug_assign, {expr(field(n, "left")), expr(field(n, "right"))});
    TSNode right = field(n, "right");
    TSNode annotation = field(n, "type");
    if (!ts_node_is_null(annotation)) {  // x: int = 5 is an AnnAssign: target, annotation, value
      Node s = make(Kind::other, {expr(field(n, "left")), expr(annotation)});
      if (!ts_node_is_null(right)) s.kids.push_back(expr(right));
      return s;
    }
    Node s = make(Kind::assign, {expr(field(n, "left"))});
    // a = b = 0: one Assign of two targets
    while (!ts_node_is_null(right) && type_of(right) == "assignment" && ts_node_is_null(field(right, "type"))) {
      s.kids.push_back(expr(field(right, "left")));
      right = field(right, "right");
    }
    s.split = s.kids.size();
    s.kids.push_back(expr(right));
    return s;
  }

  // if/elif/else: each elif an If in the orelse of the one before.
  Node if_chain(TSNode n) {
    std::vector<TSNode> clauses;  // elif and else clauses, in order
    for (TSNode c : kids(n))
      if (type_of(c) == "elif_clause" || type_of(c) == "else_clause") clauses.push_back(c);
    return if_from(field(n, "condition"), field(n, "consequence"), clauses, 0);
  }

  Node if_from(TSNode condition, TSNode body, const std::vector<TSNode>& clauses, std::size_t next) {
    const NestingGuard guard(depth_);  // an elif nests in its if's orelse, as in ast
    if (depth_ > kMaxDepth) return make(Kind::other);
    Node s = make(Kind::if_statement, {expr(condition)});
    statements(body, s.kids);
    if (next < clauses.size()) {
      TSNode clause = clauses[next];
      if (type_of(clause) == "elif_clause")
        s.kids.push_back(if_from(field(clause, "condition"), field(clause, "consequence"), clauses, next + 1));
      else
        statements(field(clause, "body"), s.kids);
    }
    return s;
  }

  static bool starts_async(TSNode n) {
    return ts_node_child_count(n) > 0 && type_of(ts_node_child(n, 0)) == std::string_view("async");
  }

  Node loop(TSNode n) {
    Node s;
    if (type_of(n) == "for_statement") {
      s = make(starts_async(n) ? Kind::other : Kind::for_loop, {expr(field(n, "left")), expr(field(n, "right"))});
    } else {
      s = make(Kind::while_loop, {expr(field(n, "condition"))});
    }
    statements(field(n, "body"), s.kids);
    TSNode alternative = field(n, "alternative");
    if (!ts_node_is_null(alternative)) statements(field(alternative, "body"), s.kids);
    return s;
  }

  Node try_statement(TSNode n) {
    Node s = make(Kind::other);
    statements(field(n, "body"), s.kids);
    std::vector<Node> orelse, finalbody;
    for (TSNode c : kids(n)) {
      const std::string_view type = type_of(c);
      if (type == "except_clause" || type == "except_group_clause") {
        Node handler = make(Kind::other);  // ExceptHandler: type, body (its `as` name is no expression)
        for (TSNode part : kids(c)) {
          if (type_of(part) == "block") statements(part, handler.kids);
          else handler.kids.push_back(expr(type_of(part) == "as_pattern" ? ts_node_named_child(part, 0) : part));
        }
        s.kids.push_back(std::move(handler));
      } else if (type == "else_clause") {
        statements(field(c, "body"), orelse);
      } else if (type == "finally_clause") {
        for (TSNode part : kids(c)) statements(part, finalbody);
      }
    }
    for (auto* part : {&orelse, &finalbody})
      for (auto& node : *part) s.kids.push_back(std::move(node));
    return s;
  }

  Node with_statement(TSNode n) {
    Node s = make(Kind::other);
    for (TSNode c : kids(n)) {
      if (type_of(c) != "with_clause") continue;
      for (TSNode item : kids(c)) {
        TSNode value = field(item, "value");
        if (ts_node_is_null(value)) continue;
        Node with_item = make(Kind::other);  // withitem: context_expr, optional_vars
        if (type_of(value) == "as_pattern") {
          with_item.kids.push_back(expr(ts_node_named_child(value, 0)));
          TSNode alias = field(value, "alias");
          if (!ts_node_is_null(alias)) with_item.kids.push_back(expr(ts_node_named_child(alias, 0)));
        } else {
          with_item.kids.push_back(expr(value));
        }
        s.kids.push_back(std::move(with_item));
      }
    }
    statements(field(n, "body"), s.kids);
    return s;
  }

  // match: the subject, then each case's guard and body (patterns bind names, they read none).
  Node match_statement(TSNode n) {
    Node s = make(Kind::other, {expr(field(n, "subject"))});
    TSNode body = field(n, "body");
    if (ts_node_is_null(body)) return s;
    for (TSNode clause : kids(body)) {
      Node match_case = make(Kind::other);
      TSNode guard = field(clause, "guard");
      if (!ts_node_is_null(guard)) match_case.kids.push_back(expr(ts_node_named_child(guard, 0)));
      statements(field(clause, "consequence"), match_case.kids);
      s.kids.push_back(std::move(match_case));
    }
    return s;
  }

  // The name a decorator ends with: @property, @functools.cache, @x.setter, @deco(arg).
  std::string decorator_name(TSNode decorator) {
    TSNode e = ts_node_named_child(decorator, 0);
    if (!ts_node_is_null(e) && type_of(e) == "call") e = field(e, "function");
    if (!ts_node_is_null(e) && type_of(e) == "attribute") e = field(e, "attribute");
    return ts_node_is_null(e) ? std::string() : std::string(t_.text(e));
  }

  // ast.arguments: each parameter's annotation (posonlyargs, args, vararg, kwonlyargs), the
  // keyword-only defaults, the **kwargs annotation, the positional defaults.
  Node arguments(TSNode params, Node* function_node) {
    struct Param {
      Node annotation;
      std::optional<Node> default_value;
      bool has_annotation = false;
    };
    std::vector<Param> positional, keyword_only;
    std::optional<Param> star, double_star;
    bool keyword = false;
    for (TSNode p : ts_node_is_null(params) ? std::vector<TSNode>{} : kids(params)) {
      const std::string_view type = type_of(p);
      Param param;
      TSNode name = p;
      if (type == "default_parameter" || type == "typed_default_parameter") {
        name = field(p, "name");
        param.default_value = expr(field(p, "value"));
      } else if (type == "typed_parameter") {
        name = ts_node_named_child(p, 0);
      }
      if (type == "typed_parameter" || type == "typed_default_parameter") {
        param.annotation = expr(field(p, "type"));
        param.has_annotation = true;
      }
      const std::string_view name_type = ts_node_is_null(name) ? "" : type_of(name);
      if (type == "keyword_separator") {
        keyword = true;
      } else if (name_type == "list_splat_pattern") {
        star = std::move(param);
        keyword = true;
      } else if (name_type == "dictionary_splat_pattern") {
        double_star = std::move(param);
      } else if (name_type == "identifier") {
        if (!keyword && function_node) {
          function_node->params.emplace_back(t_.text(name));
          if (param.default_value) ++function_node->defaults;
        }
        (keyword ? keyword_only : positional).push_back(std::move(param));
      }
    }
    Node args = make(Kind::other);
    auto arg = [&](Param& p) {  // ast.arg: its annotation
      Node a = make(Kind::other);
      if (p.has_annotation) a.kids.push_back(std::move(p.annotation));
      args.kids.push_back(std::move(a));
    };
    for (auto& p : positional) arg(p);
    if (star) arg(*star);
    for (auto& p : keyword_only) arg(p);
    for (auto& p : keyword_only)
      if (p.default_value) args.kids.push_back(std::move(*p.default_value));
    if (double_star) arg(*double_star);
    for (auto& p : positional)
      if (p.default_value) args.kids.push_back(std::move(*p.default_value));
    return args;
  }

  Node function(TSNode n, const std::vector<TSNode>& decorators) {
    Node f = make(Kind::function_def);
    f.line = line_of(n);
    TSNode name = field(n, "name");
    if (!ts_node_is_null(name)) f.text = std::string(t_.text(name));
    Node args = arguments(field(n, "parameters"), &f);
    f.kids.push_back(std::move(args));
    statements(field(n, "body"), f.kids);
    for (TSNode d : decorators) {
      f.kids.push_back(expr(ts_node_named_child(d, 0)));
      f.decorators.push_back(decorator_name(d));
    }
    TSNode returns = field(n, "return_type");
    if (!ts_node_is_null(returns)) f.kids.push_back(expr(returns));
    return f;
  }

  Node class_def(TSNode n, const std::vector<TSNode>& decorators) {
    Node c = make(Kind::class_def);
    c.line = line_of(n);
    TSNode name = field(n, "name");
    if (!ts_node_is_null(name)) c.text = std::string(t_.text(name));
    TSNode bases = field(n, "superclasses");
    if (!ts_node_is_null(bases)) call_arguments(bases, c);
    c.body_begin = c.kids.size();
    statements(field(n, "body"), c.kids);
    c.body_end = c.kids.size();
    for (TSNode d : decorators) {
      c.kids.push_back(expr(ts_node_named_child(d, 0)));
      c.decorators.push_back(decorator_name(d));
    }
    return c;
  }

  // Positional arguments (a *x is one), then keywords (a **x is one): ast's args, keywords.
  void call_arguments(TSNode list, Node& out) {
    std::vector<Node> keywords;
    std::size_t positional = 0;
    for (TSNode a : kids(list)) {
      const std::string_view type = type_of(a);
      if (type == "keyword_argument") {
        keywords.push_back(make(Kind::other, {expr(field(a, "value"))}));
      } else if (type == "dictionary_splat") {
        keywords.push_back(make(Kind::other, {expr(ts_node_named_child(a, 0))}));
      } else {
        out.kids.push_back(expr(a));
        ++positional;
      }
    }
    out.split = positional;
    for (auto& k : keywords) out.kids.push_back(std::move(k));
  }

  Node sequence(const std::vector<TSNode>& items) {
    Node s = make(Kind::list);
    for (TSNode item : items) s.kids.push_back(expr(item));
    return s;
  }

  // A string literal's value; nothing for an f-string (ast.JoinedStr) or bytes.
  std::optional<std::string> string_value(TSNode n) {
    const std::string_view text = t_.text(n);
    std::size_t prefix = 0;
    bool raw = false;
    while (prefix < text.size() && std::isalpha(static_cast<unsigned char>(text[prefix]))) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[prefix])));
      if (c == 'f' || c == 'b' || c == 't') return std::nullopt;
      raw = raw || c == 'r';
      ++prefix;
    }
    std::string_view body = text.substr(prefix);
    const std::size_t quotes = body.size() >= 6 && (body.substr(0, 3) == "\"\"\"" || body.substr(0, 3) == "'''") ? 3 : 1;
    if (body.size() < 2 * quotes) return std::nullopt;
    return unescape(body.substr(quotes, body.size() - 2 * quotes), raw);
  }

  // An f-string's ast.JoinedStr: its FormattedValues (value, then format_spec's own).
  void formatted_values(TSNode n, std::vector<Node>& out) {
    for (TSNode c : kids(n)) {
      const std::string_view type = type_of(c);
      if (type == "interpolation") {
        Node value = make(Kind::other, {expr(field(c, "expression"))});
        TSNode spec = field(c, "format_specifier");
        if (!ts_node_is_null(spec)) {
          Node joined = make(Kind::other);
          formatted_values(spec, joined.kids);
          value.kids.push_back(std::move(joined));
        }
        out.push_back(std::move(value));
      } else if (type == "format_expression") {
        out.push_back(make(Kind::other, {expr(field(c, "expression"))}));
      }
    }
  }

  Node string_literal(TSNode n) {
    std::vector<TSNode> parts = type_of(n) == "concatenated_string" ? kids(n) : std::vector<TSNode>{n};
    std::string value;
    bool constant = true;
    for (TSNode part : parts) {
      const auto text = string_value(part);
      constant = constant && text;
      if (text) value += *text;
    }
    if (constant) {
      Node c = make(Kind::constant);
      c.value = value;
      return c;
    }
    Node joined = make(Kind::other);
    for (TSNode part : parts) formatted_values(part, joined.kids);
    return joined;
  }

  Node number(TSNode n) {
    std::string text;
    for (char c : t_.text(n))
      if (c != '_') text += c;
    if (!text.empty() && (text.back() == 'j' || text.back() == 'J')) return make(Kind::other);  // complex
    Node c = make(Kind::constant);
    const bool based = text.size() > 1 && text[0] == '0' && std::string_view("xXoObB").find(text[1]) != std::string_view::npos;
    if (type_of(n) == "integer" || based) {
      const int base = !based ? 10 : (text[1] == 'x' || text[1] == 'X') ? 16 : (text[1] == 'o' || text[1] == 'O') ? 8 : 2;
      errno = 0;
      const long long value = std::strtoll(text.c_str() + (based ? 2 : 0), nullptr, base);
      if (errno == ERANGE) return make(Kind::other);  // past int64: left out of the literals
      c.value = value;
    } else {
      c.value = std::strtod(text.c_str(), nullptr);
    }
    return c;
  }

  // `a and b and c` is one BoolOp of three values; tree-sitter nests it to the left.
  void bool_values(TSNode n, std::string_view op, std::vector<Node>& out) {
    const NestingGuard guard(depth_);
    if (depth_ > kMaxDepth) {
      out.push_back(make(Kind::other));
      return;
    }
    TSNode left = field(n, "left");
    if (type_of(left) == "boolean_operator" && t_.text(field(left, "operator")) == op) bool_values(left, op, out);
    else out.push_back(expr(left));
    out.push_back(expr(field(n, "right")));
  }

  Node comparison(TSNode n) {
    Node c = make(Kind::compare);
    std::string pending;
    auto close = [&] {
      static const std::pair<std::string_view, std::string_view> kNames[] = {
          {"==", "Eq"}, {"!=", "NotEq"}, {"<>", "NotEq"}, {"<", "Lt"}, {"<=", "LtE"}, {">", "Gt"},
          {">=", "GtE"}, {"in", "In"}, {"not in", "NotIn"}, {"is", "Is"}, {"is not", "IsNot"}};
      for (const auto& [token, name] : kNames)
        if (pending == token) c.ops.emplace_back(name);
      pending.clear();
    };
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
      TSNode part = ts_node_child(n, i);
      if (ts_node_is_named(part)) {
        if (type_of(part) == "comment") continue;
        if (!pending.empty()) close();
        c.kids.push_back(expr(part));
      } else {
        pending += (pending.empty() ? "" : " ") + std::string(t_.text(part));
      }
    }
    return c;
  }

  Node comprehension(TSNode n) {
    Node c = make(Kind::other);
    TSNode body = field(n, "body");
    if (!ts_node_is_null(body) && type_of(body) == "pair") {  // {k: v for ...}
      c.kids.push_back(expr(field(body, "key")));
      c.kids.push_back(expr(field(body, "value")));
    } else {
      c.kids.push_back(expr(body));
    }
    for (TSNode clause : kids(n)) {
      if (type_of(clause) == "for_in_clause") {  // ast.comprehension: target, iter, ifs
        c.kids.push_back(make(Kind::other, {expr(field(clause, "left")), expr(field(clause, "right"))}));
      } else if (type_of(clause) == "if_clause" && !c.kids.empty()) {
        c.kids.back().kids.push_back(expr(ts_node_named_child(clause, 0)));
      }
    }
    return c;
  }

  Node expr(TSNode n) {
    if (ts_node_is_null(n)) return make(Kind::absent);
    const NestingGuard guard(depth_);
    if (depth_ > kMaxDepth) return make(Kind::other);
    const std::string_view type = type_of(n);
    if (type == "parenthesized_expression" || type == "type") {
      const auto inner = kids(n);
      return inner.size() == 1 ? expr(inner[0]) : make(Kind::other);
    }
    if (type == "identifier") {
      Node name = make(Kind::name);
      name.text = std::string(t_.text(n));
      return name;
    }
    if (type == "integer" || type == "float") return number(n);
    if (type == "string" || type == "concatenated_string") return string_literal(n);
    if (type == "true" || type == "false" || type == "none") {
      Node c = make(Kind::constant);
      if (type != "none") c.value = type == "true";
      return c;
    }
    if (type == "attribute") {
      Node a = make(Kind::attribute, {expr(field(n, "object"))});
      a.text = std::string(t_.text(field(n, "attribute")));
      return a;
    }
    if (type == "subscript") {
      std::vector<TSNode> keys;
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i)
        if (const char* name = ts_node_field_name_for_child(n, i); name && std::string_view(name) == "subscript")
          keys.push_back(ts_node_child(n, i));
      return make(Kind::subscript, {expr(field(n, "value")), keys.size() == 1 ? expr(keys[0]) : sequence(keys)});
    }
    if (type == "call") {
      Node c = make(Kind::call, {expr(field(n, "function"))});
      TSNode args = field(n, "arguments");
      if (!ts_node_is_null(args) && type_of(args) == "generator_expression") {
        c.kids.push_back(expr(args));
        c.split = 1;
      } else if (!ts_node_is_null(args)) {
        call_arguments(args, c);
      }
      return c;
    }
    if (type == "binary_operator") return make(Kind::bin_op, {expr(field(n, "left")), expr(field(n, "right"))});
    if (type == "unary_operator" || type == "not_operator") {
      Node u = make(Kind::unary_op, {expr(field(n, "argument"))});
      u.text = type == "not_operator" ? "not" : std::string(t_.text(field(n, "operator")));
      return u;
    }
    if (type == "boolean_operator") {
      Node b = make(Kind::bool_op);
      bool_values(n, t_.text(field(n, "operator")), b.kids);
      return b;
    }
    if (type == "comparison_operator") return comparison(n);
    if (type == "conditional_expression") {  // body if test else orelse -> test, body, orelse
      const auto parts = kids(n);
      if (parts.size() < 3) return make(Kind::other);
      return make(Kind::if_expression, {expr(parts[1]), expr(parts[0]), expr(parts[2])});
    }
    if (type == "list" || type == "tuple" || type == "set" || type == "expression_list" || type == "pattern_list" ||
        type == "tuple_pattern" || type == "list_pattern")
      return sequence(kids(n));
    if (type == "dictionary") {
      Node d = make(Kind::dict);
      std::vector<Node> values;
      for (TSNode item : kids(n)) {
        const bool pair = type_of(item) == "pair";
        d.kids.push_back(pair ? expr(field(item, "key")) : make(Kind::absent));
        values.push_back(expr(pair ? field(item, "value") : ts_node_named_child(item, 0)));
      }
      d.split = d.kids.size();
      for (auto& v : values) d.kids.push_back(std::move(v));
      return d;
    }
    if (type == "list_comprehension" || type == "set_comprehension" || type == "generator_expression" ||
        type == "dictionary_comprehension")
      return comprehension(n);
    if (type == "lambda") return make(Kind::other, {arguments(field(n, "parameters"), nullptr), expr(field(n, "body"))});
    if (type == "ellipsis") return make(Kind::other);
    // await, yield, *x, named expressions (target, value), slices (lower, upper, step), ...
    Node other = make(Kind::other);
    for (TSNode c : kids(n)) other.kids.push_back(expr(c));
    return other;
  }
};

}  // namespace

Node parse(std::string_view code) {
  SyntaxTree tree(Language::python, code);
  return Converter(tree).module(tree.root());
}

std::string normalize_name(std::string_view name) {
  std::string spaced;  // re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
  for (std::size_t at = 0; at < name.size(); ++at) {
    const char c = name[at];
    spaced += c;
    const bool lower_or_digit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (lower_or_digit && at + 1 < name.size() && name[at + 1] >= 'A' && name[at + 1] <= 'Z') {
      spaced += ' ';
      spaced += name[++at];
    }
  }
  std::string words;
  std::string word;
  for (std::size_t at = 0; at <= spaced.size(); ++at) {
    const char c = at < spaced.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(spaced[at]))) : ' ';
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      word += c;
    } else if (!word.empty()) {
      words += (words.empty() ? "" : " ") + word;
      word.clear();
    }
  }
  return words;
}

}  // namespace codebias::analysis::python_ast
