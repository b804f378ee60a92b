// C and C++ front end: tree-sitter-c / tree-sitter-cpp -> ir.
//
// Functions (also methods inside classes / structs / namespaces / templates, out-of-class
// definitions `T A::f()`, and lambdas assigned to a name), their statements and expressions.
// Top-level declarations with initializers, `#define NAME <number|string>` and in-class field
// initializers become program.globals; constructor bodies and member-initializer lists too, so
// that tables a constructor fills are visible to the methods.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/front_ends/front_end.h"
#include "analysis/front_ends/brace_common.h"
#include "analysis/front_ends/c_family_library.h"
#include "analysis/front_ends/c_family_selections.h"

namespace codebias::analysis::front_ends {
namespace {

using namespace brace;  // and the lowering helpers, ExprKind, StmtKind

// The library names and type-text helpers live in c_family_library.h.
using c_family::contains;
using c_family::is_map_type;
using c_family::is_sequence_type;
using c_family::kFunctions;
using c_family::kMethods;
using c_family::trim;

class CFamilyLowering : public brace::Lowering<CFamilyLowering> {
 public:
  using Lowering::Lowering;

 private:
  friend class brace::Lowering<CFamilyLowering>;
  static constexpr std::string_view kBlock = "compound_statement";
  static constexpr std::string_view kForEach = "for_range_loop";

  std::set<std::string, std::less<>> enum_types_;   // Gender in `Gender::Male` -> "Male"
  std::set<std::string, std::less<>> enumerators_;  // unscoped enumerators: MALE -> "MALE"
  std::vector<std::string> classes_;                // enclosing classes, to spot constructors
  // `auto it = m.find(k);` in the current function: `it != m.end()` tests membership and
  // `it->second` reads m[k].
  std::map<std::string, TSNode, std::less<>> iterators_;

  static bool is_comment(std::string_view type) { return type == "comment"; }

  // ---- declarations gathered before lowering -----------------------------------------------

  void collect_declarations(TSNode root) {
    collect_enums(root);
    collect_defines(root);
  }

  void collect_enums(TSNode root) {
    brace::for_each_node(root, [&](TSNode node) {
      if (type_of(node) != "enum_specifier") return;
      TSNode body = field(node, "body");
      TSNode name = field(node, "name");
      if (!ts_node_is_null(name)) enum_types_.insert(last_name(name));
      bool scoped = false;  // enum class / enum struct: enumerators need the qualifier
      for (uint32_t i = 0; i < ts_node_child_count(node); ++i) {
        std::string_view tok = type_of(ts_node_child(node, i));
        if (tok == "class" || tok == "struct") scoped = true;
      }
      if (!scoped && !ts_node_is_null(body))
        for (TSNode e : items(body))
          if (type_of(e) == "enumerator") enumerators_.insert(str(field(e, "name")));
    });
  }

  // `#define MALE 0` / `#define FEMALE 1`: two or more one-word ALL-CAPS macros with small
  // integer values are category codes, read like enumerators; other numeric and string macros
  // are constants (lowered in lower_define).
  void collect_defines(TSNode root) {
    std::vector<std::string> codes;
    std::vector<TSNode> stack{root};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      std::string_view type = type_of(n);
      if (type == "preproc_def") {
        std::string name = str(field(n, "name"));
        TSNode value = field(n, "value");
        double v = 0;
        bool one_word = brace::all_caps(name) && name.find('_') == std::string::npos &&
                        name.find_first_of("0123456789") == std::string::npos;
        if (one_word && !ts_node_is_null(value) && parse_number(trim(text(value)), v) && v >= 0 && v <= 9 &&
            v == static_cast<int>(v))
          codes.push_back(name);
        continue;
      }
      if (type == "function_definition") continue;
      for (uint32_t i = 0; i < count(n); ++i) stack.push_back(child(n, i));
    }
    if (codes.size() >= 2) enumerators_.insert(codes.begin(), codes.end());
  }

  // ---- module level --------------------------------------------------------------------------

  void lower_scope_item_at(TSNode c) {
    std::string_view type = type_of(c);
    if (type == "function_definition") {
      lower_function_into_program(c);
    } else if (type == "ERROR") {
      lower_error(c);
    } else if (type == "template_declaration" || type == "declaration_list" || type == "friend_declaration" ||
               type == "field_declaration_list") {
      lower_scope(c);
    } else if (type == "namespace_definition" || type == "linkage_specification") {
      TSNode body = field(c, "body");
      if (ts_node_is_null(body)) return;
      if (type_of(body) == "declaration_list")
        lower_scope(body);
      else
        lower_scope_item(body);
    } else if (type == "class_specifier" || type == "struct_specifier" || type == "union_specifier") {
      lower_class(c);
    } else if (type == "preproc_if" || type == "preproc_ifdef" || type == "preproc_else" || type == "preproc_elif" ||
               type == "preproc_elifdef") {
      TSNode cond = field(c, "condition");
      TSNode name = field(c, "name");
      for (TSNode cc : items(c))
        if (!same(cc, cond) && !same(cc, name)) lower_scope_item(cc);
    } else if (type == "preproc_def") {
      lower_define(c);
    } else if (type == "declaration" || type == "field_declaration" || type == "type_definition") {
      TSNode spec = field(c, "type");
      if (!ts_node_is_null(spec)) {
        std::string_view st = type_of(spec);
        if ((st == "class_specifier" || st == "struct_specifier" || st == "union_specifier") &&
            !ts_node_is_null(field(spec, "body")))
          lower_class(spec);
      }
      if (type == "type_definition") return;
      ir::Body tmp;
      if (type == "field_declaration")
        lower_field(c, tmp);
      else
        lower_declaration(c, tmp);
      if (classes_.empty()) {
        add_globals(tmp);
      } else {
        for (ir::StmtPtr& s : tmp) add_member(std::move(s));
      }
    } else if (type == "access_specifier" || type == "preproc_include" || type == "preproc_call" ||
               type == "preproc_function_def" || type == "using_declaration" || type == "alias_declaration" ||
               type == "namespace_alias_definition" || type == "static_assert_declaration" ||
               type == "concept_definition" || type == "template_instantiation" || type == "enum_specifier") {
      // no code
    } else {
      ir::Body tmp;
      lower_statement(c, tmp);
      add_globals(tmp);
    }
  }

  // A definition cut off (lower_error): its header is the function_declarator.
  std::optional<ir::Function> recover_function(const std::vector<TSNode>& v, size_t i, TSNode error) {
    TSNode c = v[i];
    if (type_of(c) != "function_declarator") return std::nullopt;
    ir::Function fn = new_function(declarator_name(field(c, "declarator")), c, error);
    lower_params(field(c, "parameters"), fn);
    fn.complete = false;
    iterators_.clear();
    return fn;
  }

  // Definitions after a cut-off one are not part of its body.
  static bool ends_recovery(TSNode c) {
    std::string_view type = type_of(c);
    return type == "function_definition" || type == "class_specifier" || type == "struct_specifier" ||
           type == "namespace_definition" || type == "template_declaration";
  }

  void lower_class(TSNode node) {
    TSNode body = field(node, "body");
    if (ts_node_is_null(body)) return;
    TSNode name = field(node, "name");
    classes_.push_back(ts_node_is_null(name) ? std::string() : last_name(name));
    lower_scope(body);
    classes_.pop_back();
  }

  void lower_define(TSNode node) {
    TSNode name = field(node, "name");
    TSNode value = field(node, "value");
    if (ts_node_is_null(name) || ts_node_is_null(value)) return;
    std::string n = str(name);
    if (enumerators_.count(n)) return;
    std::string_view v = trim(text(value));
    int line = line_of(node);
    ir::ExprPtr e;
    double d = 0;
    if (parse_number(v, d))
      e = make_number(d, line);
    else if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
      e = make(ExprKind::string, line, unquote(v));
    if (!e) return;
    brace::add_global(program_.globals, assign_name(n, std::move(e), line));
  }

  // ---- functions ---------------------------------------------------------------------------

  // Lambdas assigned to a name inside the function are added before it (the evaluator prefers
  // the later of two equally likely entry points).
  void lower_function_into_program(TSNode node) {
    ir::Function fn = lower_function(node);
    program_.functions.push_back(std::move(fn));
  }

  static TSNode function_declarator_of(TSNode d) {
    for (int guard = 0; guard < 32 && !ts_node_is_null(d); ++guard) {
      if (type_of(d) == "function_declarator") return d;
      TSNode inner = field(d, "declarator");
      if (ts_node_is_null(inner)) inner = count(d) ? child(d, 0) : inner;
      d = inner;
    }
    return TSNode{};
  }

  // The declared name: `x`, `*x`, `&x`, `x[3]`, `A::f` -> "f".
  std::string declarator_name(TSNode d) const {
    for (int guard = 0; guard < 32 && !ts_node_is_null(d); ++guard) {
      std::string_view type = type_of(d);
      if (type == "identifier" || type == "field_identifier" || type == "type_identifier" ||
          type == "destructor_name" || type == "operator_name")
        return str(d);
      if (type == "qualified_identifier" || type == "template_function" || type == "template_method")
        return last_name(d);
      TSNode inner = field(d, "declarator");
      if (ts_node_is_null(inner)) {
        inner = TSNode{};
        for (TSNode c : items(d)) {
          std::string_view ct = type_of(c);
          if (ct != "type_qualifier" && ct != "attribute_declaration" && ct != "ms_pointer_modifier") {
            inner = c;
            break;
          }
        }
      }
      d = inner;
    }
    return {};
  }

  static bool has_array_declarator(TSNode d) {
    for (int guard = 0; guard < 32 && !ts_node_is_null(d); ++guard) {
      if (type_of(d) == "array_declarator") return true;
      d = field(d, "declarator");
    }
    return false;
  }

  // Last component of a possibly qualified / templated name.
  std::string last_name(TSNode n) const {
    for (int guard = 0; guard < 32 && !ts_node_is_null(n); ++guard) {
      std::string_view type = type_of(n);
      if (type == "qualified_identifier" || type == "template_function" || type == "template_type" ||
          type == "template_method") {
        TSNode next = field(n, "name");
        if (ts_node_is_null(next)) break;
        n = next;
        continue;
      }
      return str(n);
    }
    return ts_node_is_null(n) ? std::string() : str(n);
  }

  ir::Function lower_function(TSNode node) {
    iterators_.clear();
    ir::Function fn = new_function({}, node, node);
    TSNode fd = function_declarator_of(field(node, "declarator"));
    TSNode name_node = ts_node_is_null(fd) ? TSNode{} : field(fd, "declarator");
    fn.name = declarator_name(name_node);
    if (!ts_node_is_null(fd)) lower_params(field(fd, "parameters"), fn);
    // A constructor: no return type, named like its class (in the class, or `A::A`).
    bool constructor = false;
    if (ts_node_is_null(field(node, "type")) && !fn.name.empty() && fn.name[0] != '~') {
      if (!classes_.empty() && classes_.back() == fn.name) constructor = true;
      if (!ts_node_is_null(name_node) && type_of(name_node) == "qualified_identifier") {
        TSNode scope = field(name_node, "scope");
        if (!ts_node_is_null(scope) && last_name(scope) == fn.name) constructor = true;
      }
    }
    TSNode body = field(node, "body");
    if (!ts_node_is_null(body) && type_of(body) == "try_statement") body = field(body, "body");
    lower_function_body(node, body, fn);
    if (constructor) {
      fn.name = "constructor";
      hoist_member_initializers(node, fn.params);
      hoist_initializer(body, &fn.params);
    }
    return fn;
  }

  // Member initializers (and the constructor's body) define the tables methods read.
  void hoist_member_initializers(TSNode node, const std::vector<std::string>& params) {
    for (TSNode c : items(node)) {
      if (type_of(c) != "field_initializer_list") continue;
      for (TSNode init : items(c)) {
        if (type_of(init) != "field_initializer") continue;
        std::vector<TSNode> parts = items(init);
        if (parts.size() < 2) continue;
        int line = line_of(init);
        ir::ExprPtr value;
        TSNode v = parts.back();
        if (type_of(v) == "initializer_list")
          value = lower_init_list(v, "", false, false);
        else if (type_of(v) == "argument_list") {
          std::vector<TSNode> args = items(v);
          value = args.size() == 1 ? lower_init_value(args[0]) : make_unknown(line);
        }
        if (value)
          brace::add_initializer(program_.globals, assign_name(last_name(parts[0]), std::move(value), line), &members_,
                                 &params);
      }
    }
  }

  void lower_params(TSNode params, ir::Function& fn) {
    for (TSNode p : items(params)) {
      std::string_view type = type_of(p);
      if (type != "parameter_declaration" && type != "optional_parameter_declaration" &&
          type != "variadic_parameter_declaration")
        continue;
      std::string name = declarator_name(field(p, "declarator"));
      if (name.empty()) continue;
      fn.params.push_back(name);
      TSNode def = field(p, "default_value");
      fn.param_defaults.push_back(ts_node_is_null(def) ? nullptr : lower_expr(def));
    }
  }

  ir::Function lower_lambda(TSNode node, const std::string& name) {
    auto saved_iterators = iterators_;
    iterators_.clear();
    ir::Function fn = new_function(name, node, node);
    TSNode decl = field(node, "declarator");
    if (!ts_node_is_null(decl)) lower_params(field(decl, "parameters"), fn);
    lower_function_body(node, field(node, "body"), fn);
    iterators_ = std::move(saved_iterators);
    return fn;
  }

  // ---- statements --------------------------------------------------------------------------

  // The statements Lowering::lower_statement_at leaves to C and C++.
  void lower_language_statement(TSNode node, std::string_view type, int /*line*/, ir::Body& out) {
    if (type == "declaration") {
      lower_declaration(node, out);
    } else if (type == "switch_statement") {
      out.push_back(lower_switch(node));
    } else if (type == "labeled_statement") {
      for (TSNode c : items(node))
        if (type_of(c) != "statement_identifier") lower_statement(c, out);
    } else if (type == "preproc_if" || type == "preproc_ifdef" || type == "preproc_else" || type == "preproc_elif" ||
               type == "preproc_elifdef") {
      TSNode cond = field(node, "condition");
      TSNode name = field(node, "name");
      for (TSNode c : items(node))
        if (!same(c, cond) && !same(c, name)) lower_statement(c, out);
    } else if (type == "case_statement") {
      // a stray case (error recovery): its statements
      TSNode value = field(node, "value");
      for (TSNode c : items(node))
        if (!same(c, value)) lower_statement(c, out);
    } else if (type == "assignment_expression" || type == "update_expression" || type == "call_expression") {
      lower_expression_statement(node, out);  // statements recovered without their `;`
    }
    // break / continue / goto / empty statements, local types and prototypes: nothing to lower.
  }

  void lower_expression_statement(TSNode node, ir::Body& out) {
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (type == "assignment_expression") {
      lower_assignment(node, line, out);
    } else if (type == "update_expression") {
      lower_update(node, line, out);
    } else if (type == "comma_expression") {
      lower_expression_statement(field(node, "left"), out);
      lower_expression_statement(field(node, "right"), out);
    } else if (type == "parenthesized_expression") {
      for (TSNode c : items(node)) lower_expression_statement(c, out);
    } else if (type == "call_expression") {
      if (ir::StmtPtr store = table_store(node)) {
        out.push_back(std::move(store));
        return;
      }
      push_expression(node, line, out);
    } else if (!ts_node_is_null(node)) {
      push_expression(node, line, out);
    }
  }

  // The value of `x = value` (an iterator of `it = m.find(k)` is tracked) and of `return value;`:
  // brace initializers included.
  ir::ExprPtr lower_assigned(TSNode target, TSNode value) {
    if (!ts_node_is_null(target) && type_of(target) == "identifier") track_iterator(str(target), value);
    return lower_init_value(value);
  }
  ir::ExprPtr lower_returned(TSNode value) { return lower_init_value(value); }

  // m.emplace("male", 1) / m.insert({"male", 1}) / m.insert(std::make_pair("male", 1)) /
  // m.insert_or_assign("male", 1): a store into the table.
  ir::StmtPtr table_store(TSNode call) {
    TSNode fn = field(call, "function");
    if (ts_node_is_null(fn) || type_of(fn) != "field_expression") return nullptr;
    std::string method = last_name(field(fn, "field"));
    std::vector<TSNode> args = items(field(call, "arguments"));
    int line = line_of(call);
    TSNode object = field(fn, "argument");
    if ((method == "emplace" || method == "insert_or_assign" || method == "try_emplace") && args.size() == 2)
      return brace::make_table_store(lower_expr(object), lower_expr(args[0]), lower_init_value(args[1]), line);
    if (method == "insert" && args.size() == 1) {
      TSNode a = args[0];
      std::vector<TSNode> kv;
      if (type_of(a) == "initializer_list")
        kv = items(a);
      else if (type_of(a) == "call_expression") {
        std::string callee = last_name(field(a, "function"));
        if (callee == "make_pair" || callee == "pair") kv = items(field(a, "arguments"));
      }
      if (kv.size() == 2)
        return brace::make_table_store(lower_expr(object), lower_expr(kv[0]), lower_init_value(kv[1]), line);
    }
    return nullptr;
  }

  // int x = 0, y[] = {1, 2}; std::map<std::string, int> w = {{"male", 1}}; std::map<...> m;
  void lower_declaration(TSNode node, ir::Body& out) {
    TSNode type = field(node, "type");
    std::string_view type_text = ts_node_is_null(type) ? std::string_view() : text(type);
    bool scalar = is_scalar_type(type);
    for (TSNode c : items(node)) {
      if (same(c, type)) continue;
      std::string_view ct = type_of(c);
      int line = line_of(c);
      if (ct == "init_declarator") {
        TSNode d = field(c, "declarator");
        std::string name = declarator_name(d);
        if (name.empty()) continue;
        TSNode v = field(c, "value");
        if (!ts_node_is_null(v) && type_of(v) == "lambda_expression") {
          if (!relowering_) {
            ir::Function fn = lower_lambda(v, name);
            program_.functions.push_back(std::move(fn));
          }
          continue;
        }
        track_iterator(name, v);
        ir::ExprPtr value;
        if (ts_node_is_null(v))
          value = make_unknown(line);
        else if (type_of(v) == "initializer_list")
          value = lower_init_list(v, type_text, has_array_declarator(d), scalar);
        else if (type_of(v) == "argument_list") {
          std::vector<TSNode> args = items(v);
          // std::vector<T> v(first, last): a call of the type, read as the range (lower_selections)
          value = args.size() == 1                                  ? lower_init_value(args[0])
                  : args.empty()                                    ? empty_container(type_text, line)
                  : args.size() == 2 && is_sequence_type(type_text) ? call_named(std::string(type_text), args, line)
                                                                    : make_unknown(line);
          if (!value) value = make_unknown(line);
        } else {
          value = lower_init_value(v);
        }
        out.push_back(assign_name(name, std::move(value), line));
      } else if (ct == "identifier" || ct == "array_declarator" || ct == "pointer_declarator" ||
                 ct == "reference_declarator") {
        // A container declared empty is filled later: m["male"] = 1; v.push_back(...)
        if (ir::ExprPtr empty = empty_container(type_text, line)) {
          std::string name = declarator_name(c);
          if (!name.empty()) out.push_back(assign_name(name, std::move(empty), line));
        }
      }
    }
  }

  // In-class member with a default: `std::map<std::string, int> w_ = {{"male", 1}};`
  void lower_field(TSNode node, ir::Body& out) {
    TSNode def = field(node, "default_value");
    TSNode d = field(node, "declarator");
    if (ts_node_is_null(d) || type_of(d) == "function_declarator") return;
    std::string name = declarator_name(d);
    if (name.empty()) return;
    TSNode type = field(node, "type");
    std::string_view type_text = ts_node_is_null(type) ? std::string_view() : text(type);
    int line = line_of(node);
    if (ts_node_is_null(def)) {
      // a table member the constructor fills
      if (ir::ExprPtr empty = empty_container(type_text, line))
        out.push_back(assign_name(name, std::move(empty), line));
      return;
    }
    ir::ExprPtr value = type_of(def) == "initializer_list"
                            ? lower_init_list(def, type_text, has_array_declarator(d), is_scalar_type(type))
                            : lower_init_value(def);
    out.push_back(assign_name(name, std::move(value), line));
  }

  static bool is_scalar_type(TSNode type) {
    if (ts_node_is_null(type)) return false;
    std::string_view t = type_of(type);
    return t == "primitive_type" || t == "sized_type_specifier" || t == "placeholder_type_specifier";
  }

  ir::ExprPtr empty_container(std::string_view type_text, int line) {
    if (is_map_type(type_text)) return make(ExprKind::dict, line);
    if (contains(type_text, "<") && is_sequence_type(type_text)) return make(ExprKind::list, line);
    return nullptr;
  }

  ir::ExprPtr lower_init_value(TSNode v) {
    if (!ts_node_is_null(v) && type_of(v) == "initializer_list") return lower_init_list(v, "", false, false);
    return lower_expr(v);
  }

  bool is_string_like(TSNode n) const {
    std::string_view t = type_of(n);
    return t == "string_literal" || t == "char_literal" || t == "raw_string_literal" || t == "concatenated_string" ||
           (t == "call_expression" && last_name(field(n, "function")) == "string");
  }

  // Brace initializers: {{"male", 1}, {"female", 2}} of a map (or of string/value pairs) is a
  // dict, {.male = 1} a dict of fields, {1, 2} a list, `int s{0}` the scalar.
  ir::ExprPtr lower_init_list(TSNode list, std::string_view type_text, bool array, bool scalar) {
    int line = line_of(list);
    brace::NestingGuard guard(depth_);
    if (guard.too_deep()) return make_unknown(line);
    std::vector<TSNode> elems = items(list);
    bool designated = false;
    for (TSNode e : elems)
      if (type_of(e) == "initializer_pair") designated = true;
    if (designated) {
      auto d = make(ExprKind::dict, line);
      for (TSNode e : elems) {
        if (type_of(e) != "initializer_pair") continue;
        TSNode des = field(e, "designator");
        ir::ExprPtr key;
        if (ts_node_is_null(des))
          key = make_unknown(line);
        else if (type_of(des) == "field_designator" || type_of(des) == "field_identifier") {
          std::string k(text(des));
          if (!k.empty() && k[0] == '.') k.erase(0, 1);
          key = make(ExprKind::string, line_of(des), k);
        } else if (type_of(des) == "subscript_designator") {
          std::vector<TSNode> idx = items(des);
          key = idx.empty() ? make_unknown(line) : lower_expr(idx[0]);
        } else {
          key = make_unknown(line);
        }
        d->children.push_back(std::move(key));
        TSNode value = field(e, "value");
        d->children.push_back(lower_init_value(value));
      }
      return d;
    }
    bool pairs = !elems.empty();
    bool string_keys = true;
    for (TSNode e : elems) {
      if (type_of(e) != "initializer_list" || items(e).size() != 2) {
        pairs = false;
        break;
      }
      if (!is_string_like(items(e)[0])) string_keys = false;
    }
    if (pairs && (is_map_type(type_text) || string_keys)) {
      auto d = make(ExprKind::dict, line);
      for (TSNode e : elems) {
        std::vector<TSNode> kv = items(e);
        d->children.push_back(lower_init_value(kv[0]));
        d->children.push_back(lower_init_value(kv[1]));
      }
      return d;
    }
    if (scalar && !array && elems.size() == 1 && type_of(elems[0]) != "initializer_list") return lower_expr(elems[0]);
    if (elems.empty() && is_map_type(type_text)) return make(ExprKind::dict, line);
    auto l = make(ExprKind::list, line);
    for (TSNode e : elems) l->children.push_back(lower_init_value(e));
    return l;
  }

  ir::ExprPtr lower_condition(TSNode cond) {
    if (ts_node_is_null(cond)) return make_unknown(0);
    std::string_view type = type_of(cond);
    if (type == "condition_clause") {
      TSNode value = field(cond, "value");
      if (!ts_node_is_null(value) && type_of(value) == "declaration") {
        // if (auto w = f(x)): the initializer's value
        for (TSNode c : items(value))
          if (type_of(c) == "init_declarator") return lower_init_value(field(c, "value"));
        return make_unknown(line_of(cond));
      }
      return lower_expr(value);
    }
    return lower_expr(cond);
  }

  static bool is_exit(TSNode st) {
    std::string_view t = type_of(st);
    return t == "break_statement" || t == "continue_statement" || t == "goto_statement";
  }

  ir::StmtPtr lower_switch(TSNode node) { return lower_case_switch(node, lower_condition(field(node, "condition"))); }

  // for (auto& r : v): r goes through v; for (int i = 0; i < n; i++): i through range(0, n).
  void lower_loop_variable(TSNode loop, ir::Stmt& s) {
    if (type_of(loop) == kForEach) {
      TSNode variable = field(loop, "declarator");
      // `auto& [k, v]` binds several names: none is the item
      if (ts_node_is_null(variable) || text(variable).find('[') != std::string_view::npos) return;
      std::string name = declarator_name(variable);
      if (name.empty()) return;
      s.target = make(ExprKind::name, line_of(variable), name);
      s.value = lower_init_value(field(loop, "right"));
    } else if (type_of(loop) == "for_statement") {
      lower_counting_loop(loop, s);
    }
  }

  // for (int i = START; i < BOUND; i++) (also `i <= BOUND`, `BOUND > i`, `++i`, `i += 1`).
  void lower_counting_loop(TSNode loop, ir::Stmt& s) {
    TSNode init = field(loop, "initializer");
    TSNode condition = field(loop, "condition");
    TSNode update = field(loop, "update");
    if (ts_node_is_null(init) || ts_node_is_null(condition) || ts_node_is_null(update)) return;
    TSNode counter{}, start{};
    if (type_of(init) == "declaration") {
      std::vector<TSNode> declarators = items(init);
      if (declarators.size() != 2 || type_of(declarators[1]) != "init_declarator") return;
      counter = field(declarators[1], "declarator");
      start = field(declarators[1], "value");
    } else if (type_of(init) == "assignment_expression" && text(field(init, "operator")) == "=") {
      counter = field(init, "left");
      start = field(init, "right");
    }
    if (ts_node_is_null(counter) || type_of(counter) != "identifier" || ts_node_is_null(start) ||
        type_of(condition) != "binary_expression")
      return;
    std::string name = str(counter);
    std::string op = str(field(condition, "operator"));
    TSNode left = field(condition, "left"), right = field(condition, "right");
    TSNode bound{};
    if ((op == "<" || op == "<=") && str(left) == name) bound = right;
    if ((op == ">" || op == ">=") && str(right) == name) bound = left;
    std::string step;
    for (char ch : text(update))
      if (ch != ' ') step.push_back(ch);
    if (ts_node_is_null(bound) || (step != name + "++" && step != "++" + name && step != name + "+=1")) return;
    int line = line_of(loop);
    auto range = make(ExprKind::call, line);
    range->library = ir::kRange;
    range->children.push_back(make(ExprKind::name, line, "range"));
    range->children.push_back(lower_expr(start));
    ir::ExprPtr end = lower_expr(bound);
    if (op == "<=" || op == ">=") end = make_binary(ExprKind::binary, "+", std::move(end), make_number(1, line), line);
    range->children.push_back(std::move(end));
    s.target = make(ExprKind::name, line_of(counter), name);
    s.value = std::move(range);
  }

  // An arm of lower_case_switch: `case value:` / `default:`.
  bool read_case(TSNode c, TSNode value, brace::SwitchArm& arm) {
    if (type_of(c) != "case_statement") return false;
    if (ts_node_is_null(value))
      arm.is_default = true;
    else
      arm.labels.push_back(lower_case_label(value));
    return true;
  }

  // Case labels are constants: a bare identifier is an enumerator or a macro, read by its name.
  ir::ExprPtr lower_case_label(TSNode value) {
    if (type_of(value) == "identifier") return make(ExprKind::string, line_of(value), str(value));
    return lower_expr(value);
  }

  // ---- expressions -------------------------------------------------------------------------

  std::string string_value(TSNode node) const {
    std::string_view s = text(node);
    size_t q = s.find('"');
    if (q == std::string_view::npos) return unquote(s);
    return unquote(s.substr(q));
  }

  ir::ExprPtr lower_expr_at(TSNode node) {
    if (ts_node_is_null(node)) return make_unknown(0);
    int line = line_of(node);
    std::string_view type = type_of(node);
    if (type == "identifier") {
      std::string name = str(node);
      if (name == "NULL") return make(ExprKind::null, line);
      if (enumerators_.count(name)) return make(ExprKind::string, line, name);
      return make(ExprKind::name, line, name);
    }
    if (type == "field_identifier" || type == "this" || type == "type_identifier" || type == "namespace_identifier")
      return make(ExprKind::name, line, str(node));
    if (type == "number_literal") return make_number_literal(text(node), line);
    if (type == "string_literal") return make(ExprKind::string, line, string_value(node));
    if (type == "raw_string_literal") {
      for (TSNode c : items(node))
        if (type_of(c) == "raw_string_content") return make(ExprKind::string, line, str(c));
      return make(ExprKind::string, line, "");
    }
    if (type == "char_literal") return make(ExprKind::string, line, unquote(text(node)));
    if (type == "concatenated_string") {
      std::string out;
      for (TSNode c : items(node)) {
        if (type_of(c) != "string_literal" && type_of(c) != "raw_string_literal") return make_unknown(line);
        out += lower_expr(c)->text;
      }
      return make(ExprKind::string, line, out);
    }
    if (type == "user_defined_literal") return lower_first(node, line);
    if (type == "true" || type == "false") return make_boolean(type == "true", line);
    if (type == "null" || type == "nullptr") return make(ExprKind::null, line);
    if (type == "parenthesized_expression") return lower_last(node, line);
    if (type == "comma_expression") return lower_expr(field(node, "right"));
    if (type == "field_expression") {
      TSNode object = field(node, "argument");
      std::string name = last_name(field(node, "field"));
      if (!ts_node_is_null(object) && type_of(object) == "this") return make(ExprKind::name, line, name);
      TSNode search = tracked_iterator(object);
      if (!ts_node_is_null(search) && (name == "second" || name == "first")) {
        // it->second after `it = m.find(k)`: m[k]
        TSNode key = items(field(search, "arguments"))[0];
        if (name == "first") return lower_expr(key);
        TSNode table = field(field(search, "function"), "argument");
        return make_binary(ExprKind::index, "", lower_expr(table), lower_expr(key), line);
      }
      return make_member(lower_expr(object), name, line);
    }
    if (type == "qualified_identifier") return lower_qualified(node);
    if (type == "template_function") return make(ExprKind::name, line, last_name(node));
    if (type == "subscript_expression") {
      TSNode index = field(node, "index");
      if (ts_node_is_null(index)) {
        std::vector<TSNode> v = items(field(node, "indices"));
        if (!v.empty()) index = v[0];
      }
      return make_binary(ExprKind::index, "", lower_expr(field(node, "argument")), lower_init_value(index), line);
    }
    if (type == "call_expression") return lower_call(node);
    if (type == "binary_expression") return lower_binary(node);
    if (type == "unary_expression") return lower_unary(node, "argument", line);
    if (type == "update_expression" || type == "pointer_expression") return lower_expr(field(node, "argument"));
    if (type == "conditional_expression") return lower_conditional(node, line);
    if (type == "cast_expression") return lower_expr(field(node, "value"));
    if (type == "compound_literal_expression") {
      TSNode t = field(node, "type");
      return lower_init_list(field(node, "value"), ts_node_is_null(t) ? std::string_view() : text(t), false, false);
    }
    if (type == "initializer_list") return lower_init_list(node, "", false, false);
    if (type == "condition_clause") return lower_condition(node);
    if (type == "lambda_expression") return lower_lambda_value(node);
    return make_unknown(line);
  }

  // [&](const std::string& r) { return c.race == r; } as a value: a lambda of its first parameter.
  ir::ExprPtr lower_lambda_value(TSNode node) {
    TSNode declarator = field(node, "declarator");
    std::vector<TSNode> params =
        ts_node_is_null(declarator) ? std::vector<TSNode>{} : items(field(declarator, "parameters"));
    std::string name = params.empty() ? std::string() : declarator_name(field(params[0], "declarator"));
    return lambda_of(name, field(node, "body"), line_of(node));
  }

  // std::max -> max; Gender::Male (Gender an enum of this code) -> "Male"; A::b -> A.b
  ir::ExprPtr lower_qualified(TSNode node) {
    int line = line_of(node);
    std::vector<std::string> parts;
    TSNode n = node;
    for (int guard = 0; guard < 32 && !ts_node_is_null(n); ++guard) {
      if (type_of(n) == "qualified_identifier") {
        TSNode scope = field(n, "scope");
        if (!ts_node_is_null(scope)) parts.push_back(last_name(scope));
        n = field(n, "name");
        continue;
      }
      parts.push_back(last_name(n));
      break;
    }
    while (parts.size() > 1 && (parts.front() == "std" || parts.front().empty())) parts.erase(parts.begin());
    if (parts.empty()) return make_unknown(line);
    if (parts.size() >= 2 && enum_types_.count(parts[parts.size() - 2]))
      return make(ExprKind::string, line, parts.back());
    ir::ExprPtr e = make(ExprKind::name, line, parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) e = make_member(std::move(e), parts[i], line);
    return e;
  }

  // The container of `v.begin()` / `std::begin(v)`, or null.
  TSNode range_container(TSNode begin) const {
    if (ts_node_is_null(begin) || type_of(begin) != "call_expression") return TSNode{};
    TSNode fn = field(begin, "function");
    if (ts_node_is_null(fn)) return TSNode{};
    if (type_of(fn) == "field_expression") {
      std::string m = last_name(field(fn, "field"));
      if (m == "begin" || m == "cbegin") return field(fn, "argument");
      return TSNode{};
    }
    std::string name = last_name(fn);
    std::vector<TSNode> args = items(field(begin, "arguments"));
    if ((name == "begin" || name == "cbegin") && args.size() == 1) return args[0];
    return TSNode{};
  }

  ir::ExprPtr lower_call(TSNode node) {
    int line = line_of(node);
    TSNode fn = field(node, "function");
    std::vector<TSNode> args = items(field(node, "arguments"));
    std::string_view ft = ts_node_is_null(fn) ? std::string_view() : type_of(fn);
    std::string callee;
    if (ft == "identifier" || ft == "template_function" || ft == "qualified_identifier" || ft == "primitive_type")
      callee = last_name(fn);
    if (ft == "template_function" && (callee == "static_cast" || callee == "dynamic_cast" ||
                                      callee == "reinterpret_cast" || callee == "const_cast" || callee == "bit_cast"))
      return args.empty() ? make_unknown(line) : lower_expr(args[0]);
    // std::string("male"), double(x): conversions keep the value
    if (callee == "string" || callee == "wstring" || callee == "string_view" || ft == "primitive_type") {
      if (args.size() == 1) return lower_expr(args[0]);
      if (args.empty() && callee != "") return make(ExprKind::string, line, "");
    }
    // std::find(v.begin(), v.end(), x) / std::count(...): membership in v, as v.includes(x) (a
    // search of a text or of a list's items) / v.count(x)
    if ((callee == "find" || callee == "count") && args.size() == 3) {
      TSNode container = range_container(args[0]);
      if (!ts_node_is_null(container)) {
        auto e = make(ExprKind::call, line);
        e->children.push_back(make_member(lower_expr(container), callee == "find" ? "includes" : "count", line));
        e->children.push_back(lower_expr(args[2]));
        if (callee == "find") e->library = ir::kSubstring | ir::kHasItem;
        return e;
      }
    }
    // std::any_of(v.begin(), v.end(), f) -> any_of(v, f); std::ranges::any_of(v, f) -> any_of(v, f)
    if (callee == "any_of" || callee == "all_of" || callee == "none_of") {
      TSNode container = args.size() == 3 ? range_container(args[0]) : TSNode{};
      if (!ts_node_is_null(container)) return call_named(callee, {container, args[2]}, line);
      if (args.size() == 2) return call_named(callee, args, line);
    }
    // std::clamp(x, lo, hi) -> max(lo, min(x, hi)); fmin / fmax / floor / ceil by the names of
    // kFunctions
    if (callee == "clamp" && args.size() == 3) return clamp_call(args[0], args[1], args[2], line);
    std::string known;
    if (callee == "fmin" || callee == "fminf" || callee == "fminl")
      known = "min";
    else if (callee == "fmax" || callee == "fmaxf" || callee == "fmaxl")
      known = "max";
    else if (callee == "floor" || callee == "ceil" || callee == "trunc" || callee == "lround" || callee == "llround")
      known = "round";
    else if (callee == "fabs" || callee == "labs")
      known = "abs";
    auto e = make(ExprKind::call, line);
    e->children.push_back(known.empty() ? lower_expr(fn) : make(ExprKind::name, line, known));
    for (TSNode a : args) e->children.push_back(lower_init_value(a));
    return e;
  }

  // `m.find(k)`: a method search with one argument.
  bool is_find_method(TSNode call) const {
    if (ts_node_is_null(call) || type_of(call) != "call_expression") return false;
    TSNode fn = field(call, "function");
    return !ts_node_is_null(fn) && type_of(fn) == "field_expression" && last_name(field(fn, "field")) == "find" &&
           items(field(call, "arguments")).size() == 1;
  }

  void track_iterator(const std::string& name, TSNode value) {
    if (is_find_method(value))
      iterators_[name] = value;
    else
      iterators_.erase(name);
  }

  TSNode tracked_iterator(TSNode n) const {
    if (ts_node_is_null(n) || type_of(n) != "identifier") return TSNode{};
    auto it = iterators_.find(text(n));
    return it == iterators_.end() ? TSNode{} : it->second;
  }

  // `x.end()`, `std::end(x)`, `std::string::npos`, `npos`
  bool is_end_marker(TSNode n) const {
    std::string_view t = type_of(n);
    if (t == "call_expression") {
      TSNode fn = field(n, "function");
      if (ts_node_is_null(fn)) return false;
      std::string name = type_of(fn) == "field_expression" ? last_name(field(fn, "field")) : last_name(fn);
      return name == "end" || name == "cend";
    }
    if (t == "qualified_identifier" || t == "identifier" || t == "field_expression")
      return last_name(t == "field_expression" ? field(n, "field") : n) == "npos";
    return false;
  }

  // `m.find(k) != m.end()`, `s.find("x") != std::string::npos`, `std::find(...) != v.end()`:
  // the membership test itself; null when `call` is not such a search.
  ir::ExprPtr lower_search(TSNode call, TSNode end) {
    TSNode tracked = tracked_iterator(call);
    if (!ts_node_is_null(tracked)) call = tracked;
    if (ts_node_is_null(call) || ts_node_is_null(end) || type_of(call) != "call_expression" || !is_end_marker(end))
      return nullptr;
    TSNode fn = field(call, "function");
    if (ts_node_is_null(fn)) return nullptr;
    std::vector<TSNode> args = items(field(call, "arguments"));
    if (type_of(fn) == "field_expression" && last_name(field(fn, "field")) == "find" && args.size() == 1)
      return lower_call(call);
    if (last_name(fn) == "find" && args.size() == 3) {
      ir::ExprPtr e = lower_call(call);
      if (e->kind == ExprKind::call && e->children[0]->kind == ExprKind::member) return e;
    }
    return nullptr;
  }

  // sizeof(a) / sizeof(a[0]) or sizeof a / sizeof *a: the number of items of the array a; null
  // otherwise.
  ir::ExprPtr array_length(TSNode left, TSNode right, int line) {
    if (ts_node_is_null(left) || ts_node_is_null(right) || type_of(left) != "sizeof_expression" ||
        type_of(right) != "sizeof_expression")
      return nullptr;
    auto operand = [&](TSNode n) {  // the text after `sizeof`, without parentheses and spaces
      std::string out;
      for (char ch : text(n).substr(std::string_view("sizeof").size()))
        if (ch != ' ' && ch != '\t' && ch != '(' && ch != ')') out.push_back(ch);
      return out;
    };
    std::string array = operand(left), item = operand(right);
    bool identifier = !array.empty() && std::all_of(array.begin(), array.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
    if (!identifier || (item != array + "[0]" && item != "*" + array)) return nullptr;
    auto e = make(ExprKind::call, line);
    e->library = ir::kLength;
    e->children.push_back(make(ExprKind::name, line, "sizeof"));  // a keyword: no function of the code
    e->children.push_back(make(ExprKind::name, line, array));
    return e;
  }

  // (In)equality, which may be a search's membership test; sizeof(a) / sizeof(a[0]), an array's
  // length; `range | adaptor` (c_family_selections.h); the rest are Lowering::lower_operator's.
  ir::ExprPtr lower_operator(const std::string& op, TSNode left, TSNode right, int line) {
    if (op == "|") return c_family::pipe_into(lower_expr(left), lower_expr(right), line);
    if (op == "/")
      if (ir::ExprPtr length = array_length(left, right, line)) return length;
    if (op == "==" || op == "!=" || op == "not_eq") {
      bool ne = op != "==";
      ir::ExprPtr found = lower_search(left, right);
      if (!found) found = lower_search(right, left);
      if (found) return ne ? std::move(found) : brace::make_not(std::move(found), line);
      return operands(ExprKind::compare, ne ? "!=" : "==", left, right, line);
    }
    return Lowering::lower_operator(op, left, right, line);
  }
};

}  // namespace

ir::Program lower_c_family(const SyntaxTree& tree) {
  ir::Program program = CFamilyLowering(tree).run();
  c_family::lower_selections(program);
  tag_library(program, {kMethods, kFunctions});
  return program;
}

}  // namespace codebias::analysis::front_ends
