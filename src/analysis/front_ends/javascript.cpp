// JavaScript and TypeScript front end: tree-sitter-javascript / tree-sitter-typescript -> ir.
// TypeScript is JavaScript with types: annotations are skipped, `x as T`, `x!`, `<T>x` and
// `x satisfies T` lower to x, and enums declared in the code resolve to their values.
//
// Functions: declarations, function expressions and arrow functions assigned to a name
// (`const f = (a) => ...`, `module.exports = function ...`, `exports.f = ...`, object-literal
// methods and class methods / arrow-valued class fields). Functions nested in a function are
// lowered as functions of their own, placed before the function that holds them. Destructured
// parameters (`function f({gender, age})`) become one parameter per property.
// Top-level statements, class fields and constructor assignments (`this.w = {...}`, lowered as
// `w = {...}`) become program.globals.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/front_ends/front_end.h"
#include "analysis/front_ends/brace_common.h"

namespace codebias::analysis::front_ends {
namespace {

using namespace brace;  // and the lowering helpers, ExprKind, StmtKind

// JavaScript's and TypeScript's library calls the evaluator follows (ir::Library).
constexpr LibraryName kMethods[] = {
    {"toLowerCase", ir::kSameValue},
    {"toUpperCase", ir::kSameValue},
    {"toLocaleLowerCase", ir::kSameValue},
    {"toLocaleUpperCase", ir::kSameValue},
    {"trim", ir::kSameValue},
    {"trimStart", ir::kSameValue},
    {"trimEnd", ir::kSameValue},
    {"normalize", ir::kSameValue},
    {"toString", ir::kSameValue},
    {"startsWith", ir::kEquals},
    {"endsWith", ir::kEquals},
    {"localeCompare", ir::kOrder},
    {"includes", ir::kSubstring | ir::kHasItem},
    {"indexOf", ir::kSubstring | ir::kPosition},
    {"has", ir::kHasKey | ir::kHasItem},  // Map.has, Set.has
    {"get", ir::kEntry | ir::kField},     // Map.get; also what `table[key] || 0` is lowered to
    {"getAttribute", ir::kField},
    {"values", ir::kValues},
    {"filter", ir::kFilter},
    {"map", ir::kMap},
    {"push", ir::kAppend},
    {"add", ir::kAppend},
    {"some", ir::kAny},
    {"every", ir::kAll},
};
constexpr LibraryName kFunctions[] = {
    {"String", ir::kConvert},
    {"Number", ir::kParseNumber},
    {"parseInt", ir::kParseNumber},  // also Number.parseInt, as lowered
    {"parseFloat", ir::kParseNumber},
    // Math.max / min / abs, and Math.round / floor / ceil / trunc, as lowered
    {"max", ir::kMaximum},
    {"min", ir::kMinimum},
    {"abs", ir::kAbsolute},
    {"round", ir::kConvert},
};

class JavaScriptLowering : public brace::Lowering<JavaScriptLowering> {
 public:
  using Lowering::Lowering;

 private:
  friend class brace::Lowering<JavaScriptLowering>;
  static constexpr std::string_view kBlock = "statement_block";
  static constexpr std::string_view kForEach = "for_in_statement";

  // TypeScript enums of this code: enum -> member -> the value it reads as (its string
  // initializer, else the member's name).
  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> enums_;
  int functions_open_ = 0;  // functions being lowered around the current node

  static bool is_comment(std::string_view type) { return type == "comment" || type == "html_comment"; }

  static bool is_function_node(TSNode n) {
    if (ts_node_is_null(n)) return false;
    std::string_view t = type_of(n);
    return t == "arrow_function" || t == "function_expression" || t == "function" || t == "generator_function" ||
           t == "function_declaration" || t == "generator_function_declaration";
  }

  static bool is_class_node(TSNode n) {
    if (ts_node_is_null(n)) return false;
    std::string_view t = type_of(n);
    return t == "class_declaration" || t == "abstract_class_declaration" || t == "class";
  }

  // A property name: `score`, `'score'`, `#score`, `[expr]` (as written).
  std::string property_name(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    std::string_view t = type_of(n);
    if (t == "string") return unquote(text(n));
    std::string s = str(n);
    if (!s.empty() && s[0] == '#') s.erase(0, 1);
    return s;
  }

  // The enums of this code (enums_).
  void collect_declarations(TSNode root) {
    brace::for_each_node(root, [&](TSNode node) {
      if (type_of(node) != "enum_declaration") return;
      std::string name = str(field(node, "name"));
      auto& members = enums_[name];
      for (TSNode m : items(field(node, "body"))) {
        std::string_view t = type_of(m);
        if (t == "enum_assignment") {
          std::string member = property_name(field(m, "name"));
          TSNode value = field(m, "value");
          members[member] = !ts_node_is_null(value) && type_of(value) == "string" ? unquote(text(value)) : member;
        } else if (t == "property_identifier" || t == "string") {
          std::string member = property_name(m);
          members[member] = member;
        }
      }
    });
  }

  // ---- module level --------------------------------------------------------------------------

  void lower_scope_item_at(TSNode c) {
    if (ts_node_is_null(c)) return;
    std::string_view type = type_of(c);
    if (type == "function_declaration" || type == "generator_function_declaration") {
      emit_function(c, property_name(field(c, "name")));
    } else if (is_class_node(c)) {
      lower_class(c);
    } else if (type == "export_statement") {
      TSNode decl = field(c, "declaration");
      TSNode value = field(c, "value");
      if (!ts_node_is_null(decl)) {
        lower_scope_item(decl);
      } else if (is_function_node(value)) {
        TSNode name = field(value, "name");
        emit_function(value, ts_node_is_null(name) ? "default" : str(name));
      } else if (is_class_node(value)) {
        lower_class(value);
      } else {
        // export default function () {...} parses as a declaration child in some versions
        for (TSNode cc : items(c))
          if (is_function_node(cc)) {
            TSNode name = field(cc, "name");
            emit_function(cc, ts_node_is_null(name) ? "default" : str(name));
          } else if (is_class_node(cc)) {
            lower_class(cc);
          }
      }
    } else if (type == "ERROR") {
      lower_error(c);
    } else if (type == "internal_module" || type == "module") {
      lower_scope(field(c, "body"));
    } else if (type == "statement_block") {
      lower_scope(c);
    } else if (type == "import_statement" || type == "enum_declaration" || type == "interface_declaration" ||
               type == "type_alias_declaration" || type == "ambient_declaration" || type == "function_signature" ||
               type == "empty_statement" || type == "hash_bang_line") {
      // no code
    } else {
      ir::Body tmp;
      lower_statement(c, tmp);
      add_globals(tmp);
    }
  }

  // `function f(a) { ...` cut off (lower_error): the name before the parameters.
  static bool is_header_part(const std::vector<TSNode>& v, size_t i) {
    return type_of(v[i]) == "identifier" && i + 1 < v.size() && type_of(v[i + 1]) == "formal_parameters";
  }

  void lower_class(TSNode node) {
    TSNode body = field(node, "body");
    for (TSNode m : items(body)) {
      std::string_view t = type_of(m);
      if (t == "method_definition") {
        if (ts_node_is_null(field(m, "body"))) continue;
        std::string name = property_name(field(m, "name"));
        if (name == "constructor") {
          emit_function(m, "constructor");
          hoist_constructor(m);
        } else {
          emit_function(m, name);
          if (!relowering_) program_.functions.back().owner = property_name(field(node, "name"));
        }
      } else if (t == "field_definition" || t == "public_field_definition") {
        TSNode name = field(m, t == "field_definition" ? "property" : "name");
        TSNode value = field(m, "value");
        if (ts_node_is_null(name) || ts_node_is_null(value)) continue;
        if (is_function_node(value)) {
          emit_function(value, property_name(name));
          continue;
        }
        add_member(assign_name(property_name(name), lower_expr(value), line_of(m)));
      } else if (t == "class_static_block") {
        hoist_initializer(field(m, "body"));
      }
    }
  }

  // ---- functions ---------------------------------------------------------------------------

  // Lowers a function and adds it to the program; functions nested in it are added first.
  void emit_function(TSNode node, std::string name) {
    if (relowering_) return;
    ir::Function fn = lower_function(node, std::move(name));
    program_.functions.push_back(std::move(fn));
  }

  ir::Function lower_function(TSNode node, std::string name) {
    ir::Function fn = new_function(std::move(name), node, node);
    TSNode params = field(node, "parameters");
    TSNode single = field(node, "parameter");  // x => ...
    if (!ts_node_is_null(params)) {
      lower_params(params, fn);
    } else if (!ts_node_is_null(single)) {
      fn.params.push_back(str(single));
      fn.param_defaults.push_back(nullptr);
    }
    TSNode body = field(node, "body");
    bool expression_body = !ts_node_is_null(body) && type_of(body) != "statement_block";
    ++functions_open_;
    if (expression_body) {
      auto r = make_stmt(StmtKind::ret, line_of(body));
      r->value = lower_expr(body);
      fn.body.push_back(std::move(r));
    } else if (!ts_node_is_null(body)) {
      lower_block(body, fn.body);
    }
    --functions_open_;
    fn.complete = !ts_node_has_error(node) && (expression_body || closes(body));
    return fn;
  }

  void add_param(ir::Function& fn, std::string name, ir::ExprPtr def) {
    if (name.empty() || name == "this") return;
    fn.params.push_back(std::move(name));
    fn.param_defaults.push_back(std::move(def));
  }

  // Parameters; `{race: r}` adds the parameter `race` and `r = race` to the body's prologue.
  void lower_params(TSNode params, ir::Function& fn) {
    const std::vector<TSNode> all = items(params);
    for (TSNode p : all) lower_param(p, nullptr, fn, fn.body);
    if (all.size() == 1) {
      TSNode pattern = all[0];
      for (const char* inner : {"pattern", "left"}) {  // (x: T), (x = {}): the pattern itself
        TSNode unwrapped = field(pattern, inner);
        if (!ts_node_is_null(unwrapped)) pattern = unwrapped;
      }
      fn.destructured_object = type_of(pattern) == "object_pattern";
    }
  }

  void lower_param(TSNode p, TSNode* def, ir::Function& fn, ir::Body& prologue) {
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    std::string_view t = type_of(p);
    auto default_of = [&]() { return def && !ts_node_is_null(*def) ? lower_expr(*def) : nullptr; };
    if (t == "identifier" || t == "shorthand_property_identifier_pattern") {
      add_param(fn, str(p), default_of());
    } else if (t == "required_parameter" || t == "optional_parameter") {
      TSNode pattern = field(p, "pattern");
      TSNode value = field(p, "value");
      if (ts_node_is_null(pattern)) pattern = field(p, "name");
      if (!ts_node_is_null(pattern)) lower_param(pattern, &value, fn, prologue);
    } else if (t == "assignment_pattern" || t == "object_assignment_pattern") {
      TSNode right = field(p, "right");
      TSNode left = field(p, "left");
      if (!ts_node_is_null(left)) lower_param(left, &right, fn, prologue);
    } else if (t == "rest_pattern") {
      for (TSNode c : items(p))
        if (type_of(c) == "identifier") add_param(fn, str(c), nullptr);
    } else if (t == "object_pattern") {
      for (TSNode c : items(p)) {
        std::string_view ct = type_of(c);
        if (ct == "pair_pattern") {
          std::string key = property_name(field(c, "key"));
          TSNode value = field(c, "value");
          TSNode alias = value;
          TSNode alias_default{};
          if (!ts_node_is_null(value) && type_of(value) == "assignment_pattern") {
            alias = field(value, "left");
            alias_default = field(value, "right");
          }
          add_param(fn, key, ts_node_is_null(alias_default) ? nullptr : lower_expr(alias_default));
          if (!ts_node_is_null(alias) && type_of(alias) == "identifier" && str(alias) != key) {
            int line = line_of(c);
            prologue.push_back(assign_name(str(alias), make(ExprKind::name, line, key), line));
          }
        } else {
          lower_param(c, nullptr, fn, prologue);
        }
      }
    }
    // array patterns, `this` parameters: nothing the evaluation can name
  }

  // ---- statements --------------------------------------------------------------------------

  // The statements Lowering::lower_statement_at leaves to JavaScript.
  void lower_language_statement(TSNode node, std::string_view type, int /*line*/, ir::Body& out) {
    if (type == "lexical_declaration" || type == "variable_declaration") {
      lower_variables(node, out);
    } else if (type == "switch_statement") {
      out.push_back(lower_switch(node));
    } else if (type == "labeled_statement") {
      lower_statement(field(node, "body"), out);
    } else if (type == "function_declaration" || type == "generator_function_declaration") {
      emit_function(node, property_name(field(node, "name")));
    } else if (type == "export_statement") {
      lower_scope_item(node);
    } else if (type == "assignment_expression" || type == "augmented_assignment_expression" ||
               type == "update_expression" || type == "call_expression") {
      lower_expression_statement(node, out);  // recovered without its `;`
    }
    // break / continue / empty statements, imports, types, nested classes: nothing to lower
  }

  void lower_expression_statement(TSNode node, ir::Body& out) {
    if (ts_node_is_null(node)) return;
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (is_function_node(node) && !ts_node_is_null(field(node, "name"))) {
      // `function f(a) {` cut off before its `}` is recovered as a function expression
      emit_function(node, str(field(node, "name")));
      return;
    }
    if (type == "assignment_expression") {
      TSNode left = field(node, "left");
      TSNode right = field(node, "right");
      if (is_function_node(right)) {
        // module.exports = function score(...) / exports.score = (...) => / A.prototype.f = ...
        TSNode own = field(right, "name");
        emit_function(right, !ts_node_is_null(own) ? str(own) : target_name(left));
        return;
      }
      if (!ts_node_is_null(right) && type_of(right) == "assignment_expression") {
        lower_expression_statement(right, out);  // a = b = 0
        out.push_back(make_assign(lower_expr(left), lower_expr(field(right, "left")), "", line));
        return;
      }
      if (!ts_node_is_null(left) && (type_of(left) == "object_pattern" || type_of(left) == "array_pattern")) {
        destructure(left, lower_expr(right), line, out);
        return;
      }
      if (!ts_node_is_null(right) && type_of(right) == "object") emit_object_methods(right);
      out.push_back(make_assign(lower_expr(left), lower_expr(right), "", line));
    } else if (type == "augmented_assignment_expression") {
      TSNode op = field(node, "operator");
      std::string o = ts_node_is_null(op) ? "+" : assignment_operator(text(op));
      out.push_back(make_assign(lower_expr(field(node, "left")), lower_expr(field(node, "right")), o, line));
    } else if (type == "update_expression") {
      lower_update(node, line, out);
    } else if (type == "sequence_expression" || type == "parenthesized_expression") {
      for (TSNode c : items(node)) lower_expression_statement(c, out);
    } else if (type == "call_expression") {
      // m.set("male", 1) on a Map: a store into the table
      TSNode fn = field(node, "function");
      std::vector<TSNode> args = items(field(node, "arguments"));
      if (!ts_node_is_null(fn) && type_of(fn) == "member_expression" && args.size() == 2 &&
          property_name(field(fn, "property")) == "set") {
        out.push_back(
            brace::make_table_store(lower_expr(field(fn, "object")), lower_expr(args[0]), lower_expr(args[1]), line));
        return;
      }
      if (!ts_node_is_null(fn) && type_of(fn) == "member_expression" && args.size() == 1 &&
          property_name(field(fn, "property")) == "forEach" && is_function_node(args[0])) {
        out.push_back(for_each_loop(lower_expr(field(fn, "object")), first_parameter(args[0]), field(args[0], "body"), line));
        return;
      }
      push_expression(node, line, out);
    } else if (type != "string" && type != "template_string") {  // "use strict"
      push_expression(node, line, out);
    }
  }

  // The name a function gets from what it is assigned to: `module.exports` -> "exports".
  std::string target_name(TSNode left) const {
    if (ts_node_is_null(left)) return {};
    std::string_view t = type_of(left);
    if (t == "member_expression") return property_name(field(left, "property"));
    if (t == "subscript_expression") {
      TSNode index = field(left, "index");
      if (!ts_node_is_null(index) && type_of(index) == "string") return unquote(text(index));
      return {};
    }
    return str(left);
  }

  // Methods and function-valued properties of a module-level object literal are functions of
  // their own (`const scorer = { evaluate(a) {...} }`, `module.exports = { f: function ... }`).
  void emit_object_methods(TSNode object) {
    if (functions_open_ > 0) return;
    for (TSNode p : items(object)) {
      std::string_view t = type_of(p);
      if (t == "method_definition" && !ts_node_is_null(field(p, "body"))) {
        emit_function(p, property_name(field(p, "name")));
      } else if (t == "pair") {
        TSNode value = field(p, "value");
        if (is_function_node(value)) emit_function(value, property_name(field(p, "key")));
      }
    }
  }

  void lower_variables(TSNode node, ir::Body& out) {
    for_each_declarator(node, [&](TSNode name, TSNode value, int line) {
      if (is_function_node(value)) {
        emit_function(value, str(name));
        return;
      }
      if (is_class_node(value)) {
        lower_class(value);
        return;
      }
      std::string_view nt = type_of(name);
      if (nt == "object_pattern" || nt == "array_pattern") {
        destructure(name, lower_expr(value), line, out);
        return;
      }
      if (type_of(value) == "object") emit_object_methods(value);
      out.push_back(assign_name(str(name), lower_expr(value), line));
    });
  }

  // const {gender, race: r} = applicant  ->  gender = applicant.gender; r = applicant.race
  void destructure(TSNode pattern, ir::ExprPtr source, int line, ir::Body& out) {
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return;
    auto bind = [&](const std::string& var, ir::ExprPtr value) {
      if (!var.empty()) out.push_back(assign_name(var, std::move(value), line));
    };
    auto member = [&](const std::string& key) { return make_member(brace::clone(*source), key, line); };
    if (type_of(pattern) == "array_pattern") {
      double i = 0;
      for (TSNode c : items(pattern)) {
        if (type_of(c) == "identifier")
          bind(str(c), make_binary(ExprKind::index, "", brace::clone(*source), make_number(i, line), line));
        i += 1;
      }
      return;
    }
    for (TSNode c : items(pattern)) {
      std::string_view ct = type_of(c);
      if (ct == "shorthand_property_identifier_pattern" || ct == "shorthand_property_identifier") {
        bind(str(c), member(str(c)));
      } else if (ct == "object_assignment_pattern") {
        TSNode left = field(c, "left");
        if (!ts_node_is_null(left)) bind(str(left), member(str(left)));
      } else if (ct == "pair_pattern") {
        std::string key = property_name(field(c, "key"));
        TSNode value = field(c, "value");
        if (!ts_node_is_null(value) && type_of(value) == "assignment_pattern") value = field(value, "left");
        if (ts_node_is_null(value)) continue;
        if (type_of(value) == "identifier")
          bind(str(value), member(key));
        else if (type_of(value) == "object_pattern")
          destructure(value, member(key), line, out);
      }
    }
  }

  static bool is_exit(TSNode st) {
    std::string_view t = type_of(st);
    return t == "break_statement" || t == "continue_statement";
  }

  ir::StmtPtr lower_switch(TSNode node) { return lower_case_switch(node, lower_condition(field(node, "value"))); }

  // for (const r of groups)
  void lower_loop_variable(TSNode loop, ir::Stmt& s) {
    TSNode variable = field(loop, "left");
    TSNode op = field(loop, "operator");
    if (type_of(loop) != kForEach || ts_node_is_null(variable) || type_of(variable) != "identifier" ||
        ts_node_is_null(op) || text(op) != "of")
      return;
    s.target = lower_expr(variable);
    s.value = lower_expr(field(loop, "right"));
  }

  // An arm of lower_case_switch: `case value:` / `default:`.
  bool read_case(TSNode c, TSNode value, brace::SwitchArm& arm) {
    std::string_view ct = type_of(c);
    if (ct == "switch_default")
      arm.is_default = true;
    else if (ct == "switch_case")
      arm.labels.push_back(lower_expr(value));
    else
      return false;
    return true;
  }

  // ---- expressions -------------------------------------------------------------------------

  static bool is_literal(TSNode n) {
    std::string_view t = type_of(n);
    return t == "number" || t == "string" || t == "null" || t == "undefined" || t == "true" || t == "false" ||
           (t == "template_string" && count(n) == 0) || t == "array" || t == "object";
  }

  // What a TypeScript wrapper (`x as T`, `x!`, `<T>x`, `x satisfies T`) wraps.
  static TSNode unwrapped(TSNode n) {
    for (TSNode c : items(n)) {
      std::string_view t = type_of(c);
      if (t != "type_arguments" && t != "type_annotation" && t != "predefined_type" && t != "type_identifier" &&
          t != "generic_type" && t != "union_type" && t != "array_type" && t != "object_type" && t != "literal_type" &&
          t != "nested_type_identifier" && t != "tuple_type" && t != "function_type" && t != "parenthesized_type")
        return c;
    }
    return TSNode{};
  }

  ir::ExprPtr lower_expr_at(TSNode node) {
    if (ts_node_is_null(node)) return make_unknown(0);
    int line = line_of(node);
    std::string_view type = type_of(node);
    if (type == "identifier" || type == "property_identifier" || type == "shorthand_property_identifier" ||
        type == "this" || type == "super") {
      std::string name = str(node);
      if (name == "undefined") return make(ExprKind::null, line);
      return make(ExprKind::name, line, name);
    }
    if (type == "number") return make_number_literal(text(node), line);
    if (type == "string") return make(ExprKind::string, line, unquote(text(node)));
    if (type == "template_string") {
      for (TSNode c : items(node))
        if (type_of(c) == "template_substitution") return make_unknown(line);
      return make(ExprKind::string, line, unquote(text(node)));
    }
    if (type == "true" || type == "false") return make_boolean(type == "true", line);
    if (type == "null" || type == "undefined") return make(ExprKind::null, line);
    if (type == "parenthesized_expression" || type == "sequence_expression") return lower_last(node, line);
    if (type == "as_expression" || type == "satisfies_expression" || type == "non_null_expression" ||
        type == "type_assertion" || type == "await_expression" || type == "instantiation_expression") {
      return lower_expr(unwrapped(node));
    }
    if (type == "member_expression") {
      TSNode object = field(node, "object");
      std::string name = property_name(field(node, "property"));
      if (!ts_node_is_null(object)) {
        std::string_view ot = type_of(object);
        if (ot == "this") return make(ExprKind::name, line, name);
        if (ot == "identifier")
          if (auto value = enum_value(text(object), name)) return value;
      }
      return make_member(lower_expr(object), name, line);
    }
    if (type == "subscript_expression") {
      TSNode object = field(node, "object");
      TSNode index = field(node, "index");
      if (!ts_node_is_null(object) && !ts_node_is_null(index) && type_of(object) == "identifier" &&
          type_of(index) == "string")
        if (auto value = enum_value(text(object), unquote(text(index)))) return value;
      return make_binary(ExprKind::index, "", lower_expr(object), lower_expr(index), line);
    }
    if (type == "call_expression") return lower_call(node);
    if (type == "new_expression") return lower_new(node);
    if (type == "binary_expression") return lower_binary(node);
    if (type == "unary_expression") return lower_unary(node, "argument", line);
    if (type == "update_expression") return lower_expr(field(node, "argument"));
    if (type == "ternary_expression") return lower_conditional(node, line);
    if (type == "array") return lower_list(node, line);
    if (type == "object") return lower_object(node);
    if (type == "arrow_function" || type == "function_expression" || type == "function") return lower_lambda(node);
    return make_unknown(line);
  }

  // `r => c.race === r`, `function (r) { return ...; }` as a value: a lambda of its first
  // parameter (TypeScript's `(r: string) => ...` too).
  ir::ExprPtr lower_lambda(TSNode node) { return lambda_of(first_parameter(node), field(node, "body"), line_of(node)); }

  // The name of a function value's first parameter; "" when it has none or it is a pattern.
  std::string first_parameter(TSNode node) {
    TSNode param = field(node, "parameter");
    if (ts_node_is_null(param)) {
      std::vector<TSNode> params = items(field(node, "parameters"));
      if (!params.empty()) param = params[0];
    }
    if (!ts_node_is_null(param) && (type_of(param) == "required_parameter" || type_of(param) == "optional_parameter"))
      param = field(param, "pattern");
    bool named = !ts_node_is_null(param) && type_of(param) == "identifier";
    return named ? str(param) : std::string();
  }

  ir::ExprPtr enum_value(std::string_view enum_name, std::string_view member) {
    auto it = enums_.find(enum_name);
    if (it == enums_.end()) return nullptr;
    auto m = it->second.find(member);
    if (m == it->second.end()) return nullptr;
    return make(ExprKind::string, 0, m->second);
  }

  // {male: 1, 'female': 2, [k]: 3, gender} -> {"male": 1, "female": 2, k: 3, "gender": gender}
  ir::ExprPtr lower_object(TSNode node) {
    int line = line_of(node);
    auto e = make(ExprKind::dict, line);
    for (TSNode p : items(node)) {
      std::string_view t = type_of(p);
      if (t == "pair") {
        TSNode key = field(p, "key");
        ir::ExprPtr k;
        if (ts_node_is_null(key))
          k = make_unknown(line);
        else if (type_of(key) == "computed_property_name") {
          std::vector<TSNode> v = items(key);
          k = v.empty() ? make_unknown(line) : lower_expr(v[0]);
        } else if (type_of(key) == "number") {
          k = lower_expr(key);
        } else {
          k = make(ExprKind::string, line_of(key), property_name(key));
        }
        e->children.push_back(std::move(k));
        TSNode value = field(p, "value");
        e->children.push_back(is_function_node(value) ? make_unknown(line_of(value)) : lower_expr(value));
      } else if (t == "shorthand_property_identifier") {
        e->children.push_back(make(ExprKind::string, line_of(p), str(p)));
        e->children.push_back(make(ExprKind::name, line_of(p), str(p)));
      } else if (t == "method_definition") {
        e->children.push_back(make(ExprKind::string, line_of(p), property_name(field(p, "name"))));
        e->children.push_back(make_unknown(line_of(p)));
      }
    }
    return e;
  }

  // [["male", 1], ["female", 2]] -> {"male": 1, "female": 2}; null when not a list of pairs.
  ir::ExprPtr pairs_to_dict(TSNode array) {
    if (ts_node_is_null(array) || type_of(array) != "array") return nullptr;
    auto d = make(ExprKind::dict, line_of(array));
    for (TSNode pair : items(array)) {
      std::vector<TSNode> kv = type_of(pair) == "array" ? items(pair) : std::vector<TSNode>{};
      if (kv.size() != 2) return nullptr;
      d->children.push_back(lower_expr(kv[0]));
      d->children.push_back(lower_expr(kv[1]));
    }
    return d;
  }

  ir::ExprPtr lower_call(TSNode node) {
    int line = line_of(node);
    TSNode fn = field(node, "function");
    TSNode arguments = field(node, "arguments");
    if (!ts_node_is_null(arguments) && type_of(arguments) != "arguments") return make_unknown(line);  // tag`...`
    std::vector<TSNode> args = items(arguments);
    if (!ts_node_is_null(fn) && type_of(fn) == "member_expression") {
      TSNode object = field(fn, "object");
      std::string method = property_name(field(fn, "property"));
      std::string_view owner = !ts_node_is_null(object) && type_of(object) == "identifier" ? text(object) : "";
      if (owner == "Math" && (method == "max" || method == "min" || method == "round" || method == "abs" ||
                              method == "floor" || method == "ceil" || method == "trunc"))
        return call_named(
            method == "round" || method == "floor" || method == "ceil" || method == "trunc" ? "round" : method, args,
            line);
      if (owner == "Object" && (method == "freeze" || method == "seal" || method == "assign") && !args.empty())
        return lower_expr(args[method == "assign" ? args.size() - 1 : 0]);
      if (owner == "Object" && method == "fromEntries" && args.size() == 1)
        if (ir::ExprPtr d = pairs_to_dict(args[0])) return d;
      if (owner == "Number" && (method == "parseInt" || method == "parseFloat")) return call_named(method, args, line);
    }
    auto e = make(ExprKind::call, line);
    e->children.push_back(lower_expr(fn));
    for (TSNode a : args)
      e->children.push_back(type_of(a) == "spread_element" ? make_unknown(line_of(a)) : lower_expr(a));
    return e;
  }

  // new Set([...]) -> list; new Map([[k, v], ...]) -> dict; new Map() -> {}; new String(x) -> x
  ir::ExprPtr lower_new(TSNode node) {
    int line = line_of(node);
    TSNode ctor = field(node, "constructor");
    std::vector<TSNode> args = items(field(node, "arguments"));
    std::string name = ts_node_is_null(ctor) ? std::string() : str(ctor);
    if (name == "Set" || name == "WeakSet") {
      if (args.empty()) return make(ExprKind::list, line);
      return lower_expr(args[0]);
    }
    if (name == "Map" || name == "WeakMap") {
      if (args.empty()) return make(ExprKind::dict, line);
      if (ir::ExprPtr d = pairs_to_dict(args[0])) return d;
      return lower_expr(args[0]);
    }
    if ((name == "String" || name == "Number" || name == "Boolean") && args.size() == 1) return lower_expr(args[0]);
    if (name == "Array" && args.empty()) return make(ExprKind::list, line);
    return make_unknown(line);
  }

  // JavaScript's own operators; the rest are Lowering::lower_operator's.
  ir::ExprPtr lower_operator(const std::string& op, TSNode left, TSNode right, int line) {
    if (op == "||" || op == "??") {
      // weights[gender] || 0 / weights[gender] ?? 0: a lookup with a default
      if (!ts_node_is_null(left) && !ts_node_is_null(right) && type_of(left) == "subscript_expression" &&
          is_literal(right)) {
        auto e = make(ExprKind::call, line);
        e->children.push_back(make_member(lower_expr(field(left, "object")), "get", line));
        e->children.push_back(lower_expr(field(left, "index")));
        e->children.push_back(lower_expr(right));
        return e;
      }
      ir::ExprPtr l = lower_expr(left);
      // table.get(key) ?? 0: the same lookup with a default
      if (!ts_node_is_null(right) && is_literal(right) && l->kind == ExprKind::call && l->children.size() == 2 &&
          l->children[0]->kind == ExprKind::member && l->children[0]->text == "get") {
        l->children.push_back(lower_expr(right));
        return l;
      }
      return make_binary(ExprKind::logical, "or", std::move(l), lower_expr(right), line);
    }
    if (op == "===") return operands(ExprKind::compare, "==", left, right, line);
    if (op == "!==") return operands(ExprKind::compare, "!=", left, right, line);
    if (op == "in") return operands(ExprKind::membership, "in", left, right, line);
    return Lowering::lower_operator(op, left, right, line);
  }
};

}  // namespace

ir::Program lower_javascript(const SyntaxTree& tree) {
  ir::Program program = JavaScriptLowering(tree).run();
  tag_library(program, {kMethods, kFunctions});
  return program;
}

}  // namespace codebias::analysis::front_ends
