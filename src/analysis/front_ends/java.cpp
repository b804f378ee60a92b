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

#include "analysis/front_ends/front_end.h"
#include "analysis/front_ends/brace_common.h"

namespace codebias::analysis::front_ends {
namespace {

using namespace brace;  // and the lowering helpers, ExprKind, StmtKind

// Java's library calls the evaluator follows (ir::Library).
constexpr LibraryName kMethods[] = {
    {"toLowerCase", ir::kSameValue},
    {"toUpperCase", ir::kSameValue},
    {"trim", ir::kSameValue},
    {"strip", ir::kSameValue},
    {"toString", ir::kSameValue},
    {"name", ir::kSameValue},  // of an enum constant
    {"getValue", ir::kSameValue},
    {"getName", ir::kSameValue},
    {"equals", ir::kEquals},
    {"equalsIgnoreCase", ir::kEquals},
    {"startsWith", ir::kEquals},
    {"endsWith", ir::kEquals},
    {"matches", ir::kEquals},
    {"compareTo", ir::kOrder},
    {"compareToIgnoreCase", ir::kOrder},
    {"contains", ir::kSubstring | ir::kHasItem},
    {"indexOf", ir::kSubstring | ir::kPosition},
    {"containsKey", ir::kHasKey},
    {"get", ir::kEntry | ir::kField},
    {"getOrDefault", ir::kEntry},
    {"getAttribute", ir::kField},
    {"getProperty", ir::kField},
    {"values", ir::kValues},
    {"add", ir::kAppend},
    {"stream", ir::kSameValue},  // of a collection: its items
    {"collect", ir::kSameValue},  // collect(Collectors.toList()): the stream's items
    {"toList", ir::kSameValue},
    {"filter", ir::kFilter},
    {"map", ir::kMap},
    {"size", ir::kLength},
    {"anyMatch", ir::kAny},
    {"allMatch", ir::kAll},
    {"noneMatch", ir::kNone},
};
// Math.max / min / abs / round / floor / ceil / rint / clamp, Integer.parseInt and
// Double.parseDouble (and their valueOf), as lowered.
constexpr LibraryName kFunctions[] = {
    {"max", ir::kMaximum},
    {"min", ir::kMinimum},
    {"abs", ir::kAbsolute},
    {"round", ir::kConvert},
    {"parseInt", ir::kParseNumber},
    {"parseFloat", ir::kParseNumber},
};

class JavaLowering : public brace::Lowering<JavaLowering> {
 public:
  using Lowering::Lowering;

 private:
  friend class brace::Lowering<JavaLowering>;
  static constexpr std::string_view kBlock = "block";
  static constexpr std::string_view kForEach = "enhanced_for_statement";

  std::map<std::string, std::vector<std::string>, std::less<>> enums_;  // enum -> constants

  static bool is_comment(std::string_view t) { return t == "line_comment" || t == "block_comment" || t == "comment"; }

  // The enums of this code (enums_).
  void collect_declarations(TSNode root) {
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
      hoist_constructor(c);
    } else if (type == "field_declaration" || type == "constant_declaration") {
      ir::Body tmp;
      lower_variables(c, tmp);
      for (ir::StmtPtr& s : tmp) add_member(std::move(s));
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
      add_globals(tmp);
    }
  }

  // A method cut off (lower_error): the parts of its declaration header.
  static bool is_header_part(const std::vector<TSNode>& v, size_t i) {
    std::string_view type = type_of(v[i]);
    return type == "identifier" || type == "modifiers" || type == "integral_type" || type == "floating_point_type" ||
           type == "boolean_type" || type == "void_type" || type == "type_identifier" || type == "generic_type" ||
           type == "array_type" || type == "scoped_type_identifier";
  }

  // ---- functions ---------------------------------------------------------------------------

  void emit_function(TSNode node, std::string name) {
    if (relowering_) return;
    ir::Function fn = new_function(std::move(name), node, node);
    lower_params(field(node, "parameters"), fn);
    lower_function_body(node, field(node, "body"), fn);
    program_.functions.push_back(std::move(fn));
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

  // The statements Lowering::lower_statement_at leaves to Java.
  void lower_language_statement(TSNode node, std::string_view type, int line, ir::Body& out) {
    if (type == "local_variable_declaration") {
      lower_variables(node, out);
    } else if (type == "switch_expression" || type == "switch_statement") {
      out.push_back(lower_switch(node));
    } else if (type == "try_with_resources_statement" || type == "synchronized_statement" ||
               type == "constructor_body") {
      TSNode body = type == "constructor_body" ? node : field(node, "body");
      if (type == "synchronized_statement")
        for (TSNode c : items(node))
          if (type_of(c) == "block") body = c;
      out.push_back(lower_block_statement(body, line));
    } else if (type == "labeled_statement") {
      for (TSNode c : items(node))
        if (type_of(c) != "identifier") lower_statement(c, out);
    } else if (type == "assignment_expression" || type == "update_expression" || type == "method_invocation") {
      lower_expression_statement(node, out);  // recovered without its `;`
    }
    // break / yield / assert / local classes / this(...) calls: nothing to lower
  }

  void lower_expression_statement(TSNode node, ir::Body& out) {
    std::string_view type = type_of(node);
    int line = line_of(node);
    if (type == "assignment_expression") {
      lower_assignment(node, line, out);
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
      if (!ts_node_is_null(object) && args.size() == 1 && text(field(node, "name")) == "forEach" &&
          type_of(args[0]) == "lambda_expression") {
        out.push_back(for_each_loop(lower_expr(object), first_parameter(args[0]), field(args[0], "body"), line));
        return;
      }
      push_expression(node, line, out);
    } else if (type == "parenthesized_expression") {
      for (TSNode c : items(node)) lower_expression_statement(c, out);
    } else {
      push_expression(node, line, out);
    }
  }

  void lower_variables(TSNode node, ir::Body& out) {
    for_each_declarator(node, [&](TSNode name, TSNode value, int line) {
      out.push_back(assign_name(str(name), lower_expr(value), line));
    });
  }

  static bool is_exit(TSNode st) {
    std::string_view t = type_of(st);
    return t == "break_statement" || t == "continue_statement" || t == "yield_statement";
  }

  // for (String r : groups)
  void lower_loop_variable(TSNode loop, ir::Stmt& s) {
    TSNode variable = field(loop, "name");
    if (type_of(loop) != kForEach || ts_node_is_null(variable) || type_of(variable) != "identifier") return;
    s.target = lower_expr(variable);
    s.value = lower_expr(field(loop, "value"));
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
      for (TSNode c : items(group)) {
        if (type_of(c) == "switch_label") {
          if (!read_label(c, arm.labels)) arm.is_default = true;
          continue;
        }
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
        if ((ct == "expression_statement" && gt == "switch_rule") || ct == "yield_statement") {
          arm.value = lower_first(c, line_of(c));
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

  ir::ExprPtr lower_expr_at(TSNode node) {
    if (ts_node_is_null(node)) return make_unknown(0);
    int line = line_of(node);
    std::string_view type = type_of(node);
    if (type == "identifier" || type == "this" || type == "super" || type == "type_identifier")
      return make(ExprKind::name, line, str(node));
    if (type == "decimal_integer_literal" || type == "hex_integer_literal" || type == "octal_integer_literal" ||
        type == "binary_integer_literal" || type == "decimal_floating_point_literal" ||
        type == "hex_floating_point_literal")
      return make_number_literal(text(node), line);
    if (type == "string_literal") {
      for (TSNode c : items(node))
        if (type_of(c) == "string_interpolation") return make_unknown(line);
      return make(ExprKind::string, line, unquote(text(node)));
    }
    if (type == "character_literal") return make(ExprKind::string, line, unquote(text(node)));
    if (type == "true" || type == "false") return make_boolean(type == "true", line);
    if (type == "null_literal") return make(ExprKind::null, line);
    if (type == "parenthesized_expression") return lower_last(node, line);
    if (type == "field_access") {
      TSNode object = field(node, "object");
      std::string name = str(field(node, "field"));
      if (!ts_node_is_null(object) && (type_of(object) == "this" || type_of(object) == "super"))
        return make(ExprKind::name, line, name);
      // Gender.FEMALE of an enum declared in this code reads as the constant's name; enums
      // declared elsewhere stay member accesses (the evaluator reads ALL-CAPS members as literals)
      if (!ts_node_is_null(object) && type_of(object) == "identifier" && is_enum_constant(text(object), name))
        return make(ExprKind::string, line, name);
      return make_member(lower_expr(object), name, line);
    }
    if (type == "scoped_identifier")  // java.util.Map in an expression position
      return make_member(lower_expr(field(node, "scope")), str(field(node, "name")), line);
    if (type == "array_access")
      return make_binary(ExprKind::index, "", lower_expr(field(node, "array")), lower_expr(field(node, "index")), line);
    if (type == "method_invocation") return lower_invocation(node);
    if (type == "object_creation_expression") return lower_new(node);
    if (type == "array_creation_expression") {
      TSNode value = field(node, "value");
      return ts_node_is_null(value) ? make_unknown(line) : lower_expr(value);
    }
    if (type == "array_initializer") return lower_list(node, line);
    if (type == "binary_expression") return lower_binary(node);
    if (type == "unary_expression") return lower_unary(node, "operand", line);
    if (type == "update_expression") return lower_first(node, line);
    if (type == "ternary_expression") return lower_conditional(node, line);
    if (type == "cast_expression") return lower_expr(field(node, "value"));
    if (type == "switch_expression") return lower_switch_value(node);
    if (type == "lambda_expression") return lower_lambda(node);
    return make_unknown(line);
  }

  // `r -> c.race.equals(r)`, `(String r) -> { return ...; }`: a lambda of its first parameter.
  ir::ExprPtr lower_lambda(TSNode node) { return lambda_of(first_parameter(node), field(node, "body"), line_of(node)); }

  // The name of a lambda's first parameter; "" when it has none.
  std::string first_parameter(TSNode node) {
    TSNode param = field(node, "parameters");
    if (!ts_node_is_null(param) && type_of(param) != "identifier") {
      std::vector<TSNode> params = items(param);
      param = params.empty()                             ? TSNode{}
              : type_of(params[0]) == "formal_parameter" ? field(params[0], "name")
                                                         : params[0];
    }
    bool named = !ts_node_is_null(param) && type_of(param) == "identifier";
    return named ? str(param) : std::string();
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
      if (owner == "Math" && name == "clamp" && args.size() == 3) return clamp_call(args[0], args[1], args[2], line);
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
      e->children.push_back(make_member(lower_expr(object), name, line));
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
};

}  // namespace

ir::Program lower_java(const SyntaxTree& tree) {
  ir::Program program = JavaLowering(tree).run();
  tag_library(program, {kMethods, kFunctions});
  return program;
}

}  // namespace codebias::analysis::front_ends
