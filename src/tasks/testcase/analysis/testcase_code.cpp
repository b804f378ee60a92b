// Test cases written as code, read from the tree-sitter tree. One walk collects three kinds of
// records; a block reports the first kind it has, so that one person is not counted twice:
//   1. literal records: dicts, keyword-argument and positional constructor calls, object
//      literals, C/C++ initialiser lists, Java constructors;
//   2. member assignments `p.gender = "female"`, `strcpy(p.gender, "female")`, `p.setGender(..)`,
//      grouped by receiver and function (a key set twice on one receiver starts a new case);
//   3. assertions `assert p.gender == "female"`, `assertEqual(p.gender, "female")`, grouped
//      the same way (tests that state the person's attributes only in their checks).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "analysis/parsing/syntax.h"
#include "tasks/testcase/analysis/testcase_records.h"

namespace codebias::analysis::testcase {
namespace {

using sv = std::string_view;

uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }
bool is_null(TSNode n) { return ts_node_is_null(n); }

bool is_string_node(sv type) {
  return type == "string" || type == "string_literal" || type == "char_literal" ||
         type == "character_literal" || type == "concatenated_string" ||
         type == "raw_string_literal" || type == "template_string";
}

// A scalar written as a literal or a constant name (True, NULL, FEMALE, Gender.FEMALE, -1).
bool is_scalar_node(sv type) {
  return is_string_node(type) || type == "true" || type == "false" || type == "none" ||
         type == "null" || type == "undefined" || type == "null_literal" || type == "integer" ||
         type == "float" || type == "number" || type == "number_literal" ||
         type == "decimal_integer_literal" || type == "decimal_floating_point_literal" ||
         type == "identifier" || type == "attribute" || type == "field_expression" ||
         type == "member_expression" || type == "field_access" || type == "qualified_identifier" ||
         type == "scoped_identifier" || type == "unary_expression" || type == "unary_operator";
}

// The last identifier of a callee or type: `module.Person` -> Person, `struct Person` -> Person.
std::string last_name(sv text) {
  std::size_t end = text.size();
  while (end > 0 && !(std::isalnum(static_cast<unsigned char>(text[end - 1])) || text[end - 1] == '_')) --end;
  std::size_t begin = end;
  while (begin > 0 && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '_')) --begin;
  return std::string(text.substr(begin, end - begin));
}

class Walker {
 public:
  Walker(const SyntaxTree& tree, int first_line, const KeyFilter& wanted, const PositionalOrder& order)
      : t_(tree), first_line_(first_line), wanted_(wanted), order_(order), type_orders_(order.declared) {}

  std::map<std::string, std::vector<std::string>> declared() {
    collect_type_orders(t_.root());
    return std::move(type_orders_);
  }

  std::vector<RawRecord> run(bool& unreadable) {
    collect_type_orders(t_.root());
    visit(t_.root());
    unreadable = unmapped_positional_;
    std::vector<RawRecord> chosen;
    for (auto* kind : {&literal_, &assigned_, &asserted_}) {
      if (!kind->empty()) {
        chosen = std::move(*kind);
        break;
      }
    }
    std::stable_sort(chosen.begin(), chosen.end(),
                     [](const RawRecord& a, const RawRecord& b) { return a.line < b.line; });
    return chosen;
  }

 private:
  const SyntaxTree& t_;
  int first_line_;
  const KeyFilter& wanted_;
  const PositionalOrder& order_;
  std::map<std::string, std::vector<std::string>> type_orders_;  // declared type -> field order
  std::vector<RawRecord> literal_, assigned_, asserted_;
  // (receiver, enclosing function start byte) -> index of its open record, per kind.
  std::map<std::pair<std::string, uint32_t>, std::size_t> open_assigned_, open_asserted_;
  bool unmapped_positional_ = false;

  int line(TSNode n) const { return first_line_ + static_cast<int>(ts_node_start_point(n).row); }
  std::string text(TSNode n) const { return std::string(t_.text(n)); }
  const char* lang_prefix() const {
    const char* name = to_string(t_.language());
    return *name ? name : "code";
  }
  std::string shape(const char* kind) const { return std::string(lang_prefix()) + "-" + kind; }

  std::string value_text(TSNode n) const {
    if (is_string_node(type_of(n))) return unquote(t_.text(n));
    return text(n);
  }

  // Literal scalars and constant names (FEMALE, Gender.Female); not variables or calls.
  bool is_literal(TSNode n) const {
    const sv type = type_of(n);
    if (type == "identifier" || type == "attribute" || type == "field_expression" || type == "member_expression" ||
        type == "field_access" || type == "qualified_identifier" || type == "scoped_identifier") {
      const std::string name = last_name(t_.text(n));
      return !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
    }
    return is_scalar_node(type);
  }

  RawField make_field(std::string key, TSNode value, int at_line) const {
    return RawField{std::move(key), value_text(value), at_line, is_literal(value)};
  }

  bool has_wanted(const RawRecord& r) const {
    return std::any_of(r.fields.begin(), r.fields.end(),
                       [&](const RawField& f) { return f.literal && wanted_(f.key); });
  }
  void add_literal(RawRecord r) {
    if (has_wanted(r)) literal_.push_back(std::move(r));
  }

  // ---- declared field orders -------------------------------------------------------------

  void collect_type_orders(TSNode node) {
    const sv type = type_of(node);
    if (type == "struct_specifier") {
      std::vector<std::string> fields = struct_fields(field(node, "body"));
      TSNode name = field(node, "name");
      if (!fields.empty()) {
        if (!is_null(name)) type_orders_[text(name)] = fields;
        // typedef struct {...} Person;
        TSNode parent = ts_node_parent(node);
        if (!is_null(parent) && type_of(parent) == "type_definition") {
          for (uint32_t i = 0; i < count(parent); ++i) {
            TSNode c = child(parent, i);
            if (type_of(c) == "type_identifier") type_orders_[text(c)] = fields;
          }
        }
      }
    } else if (type == "class_definition" && t_.language() == Language::python) {
      python_class_order(node);
    } else if ((type == "class_declaration" || type == "record_declaration") && t_.language() == Language::java) {
      java_class_order(node);
    } else if ((type == "class_declaration" || type == "class") &&
               (t_.language() == Language::javascript || t_.language() == Language::typescript)) {
      js_class_order(node);
    }
    for (uint32_t i = 0; i < count(node); ++i) collect_type_orders(child(node, i));
  }

  std::vector<std::string> struct_fields(TSNode body) const {
    std::vector<std::string> out;
    if (is_null(body)) return out;
    for (uint32_t i = 0; i < count(body); ++i) {
      TSNode decl = child(body, i);
      if (type_of(decl) != "field_declaration") continue;
      for (uint32_t j = 0; j < count(decl); ++j) {
        TSNode d = child(decl, j);
        // Unwrap `name[16]` and `*name` down to the field name.
        while (!is_null(d) && (type_of(d) == "array_declarator" || type_of(d) == "pointer_declarator"))
          d = field(d, "declarator");
        if (!is_null(d) && type_of(d) == "field_identifier") out.push_back(text(d));
      }
    }
    return out;
  }

  // __init__(self, a, b) parameters, else dataclass-style annotated fields `a: bool`.
  void python_class_order(TSNode cls) {
    TSNode name = field(cls, "name");
    TSNode body = field(cls, "body");
    if (is_null(name) || is_null(body)) return;
    std::vector<std::string> params, annotated;
    for (uint32_t i = 0; i < count(body); ++i) {
      TSNode item = child(body, i);
      if (type_of(item) == "decorated_definition") item = field(item, "definition");
      if (is_null(item)) continue;
      if (type_of(item) == "function_definition" && t_.text(field(item, "name")) == "__init__") {
        TSNode ps = field(item, "parameters");
        for (uint32_t j = 0; !is_null(ps) && j < count(ps); ++j) {
          TSNode p = child(ps, j);
          sv pt = type_of(p);
          TSNode id = p;
          if (pt == "default_parameter" || pt == "typed_default_parameter") id = field(p, "name");
          else if (pt == "typed_parameter") id = child(p, 0);
          else if (pt != "identifier") continue;
          if (is_null(id)) continue;
          std::string pname = text(id);
          if (pname != "self") params.push_back(pname);
        }
      } else if (type_of(item) == "expression_statement" && count(item) == 1 &&
                 type_of(child(item, 0)) == "assignment") {
        TSNode a = child(item, 0);
        TSNode left = field(a, "left");
        if (!is_null(field(a, "type")) && !is_null(left) && type_of(left) == "identifier")
          annotated.push_back(text(left));
      }
    }
    if (!params.empty()) type_orders_[text(name)] = params;
    else if (!annotated.empty()) type_orders_[text(name)] = annotated;
  }

  // Record components, else the constructor's parameters, else the fields in order.
  void java_class_order(TSNode cls) {
    TSNode name = field(cls, "name");
    if (is_null(name)) return;
    std::vector<std::string> order;
    TSNode params = field(cls, "parameters");
    if (!is_null(params)) {
      for (uint32_t i = 0; i < count(params); ++i) {
        TSNode n = field(child(params, i), "name");
        if (!is_null(n)) order.push_back(text(n));
      }
    }
    TSNode body = field(cls, "body");
    std::vector<std::string> ctor, fields;
    for (uint32_t i = 0; order.empty() && !is_null(body) && i < count(body); ++i) {
      TSNode item = child(body, i);
      if (type_of(item) == "constructor_declaration" && ctor.empty()) {
        TSNode ps = field(item, "parameters");
        for (uint32_t j = 0; !is_null(ps) && j < count(ps); ++j) {
          TSNode n = field(child(ps, j), "name");
          if (!is_null(n)) ctor.push_back(text(n));
        }
      } else if (type_of(item) == "field_declaration") {
        for (uint32_t j = 0; j < count(item); ++j) {
          TSNode d = child(item, j);
          if (type_of(d) != "variable_declarator") continue;
          TSNode n = field(d, "name");
          if (!is_null(n)) fields.push_back(text(n));
        }
      }
    }
    if (order.empty()) order = !ctor.empty() ? ctor : fields;
    if (!order.empty()) type_orders_[text(name)] = order;
  }

  void js_class_order(TSNode cls) {
    TSNode name = field(cls, "name");
    TSNode body = field(cls, "body");
    if (is_null(name) || is_null(body)) return;
    for (uint32_t i = 0; i < count(body); ++i) {
      TSNode m = child(body, i);
      if (type_of(m) != "method_definition" || t_.text(field(m, "name")) != "constructor") continue;
      std::vector<std::string> order;
      TSNode ps = field(m, "parameters");
      for (uint32_t j = 0; !is_null(ps) && j < count(ps); ++j) {
        TSNode p = child(ps, j);
        if (type_of(p) == "required_parameter" || type_of(p) == "optional_parameter") p = field(p, "pattern");
        if (!is_null(p) && type_of(p) == "identifier") order.push_back(text(p));
      }
      if (!order.empty()) type_orders_[text(name)] = order;
    }
  }

  // ---- the walk ------------------------------------------------------------------------------

  void visit(TSNode node) {
    const sv type = type_of(node);
    if (type == "dictionary") python_dict(node);
    else if (type == "tuple" && t_.language() == Language::python) python_tuple(node);
    else if (type == "call" && t_.language() == Language::python) python_call(node);
    else if (type == "object" && (t_.language() == Language::javascript || t_.language() == Language::typescript)) js_object(node);
    else if (type == "initializer_list") initializer_list(node);
    else if (type == "object_creation_expression") constructor_call(node, field(node, "type"), field(node, "arguments"));
    else if (type == "new_expression") constructor_call(node, field(node, "constructor"), field(node, "arguments"));
    else if (type == "call_expression" && t_.language() == Language::cpp) cpp_call(node);
    if (type == "assignment" || type == "assignment_expression") member_assignment(node);
    if (type == "call_expression") c_string_copy(node);
    if (type == "method_invocation") java_setter_or_assert(node);
    if (type == "assert_statement") python_assert(node);
    if (type == "call" && t_.language() == Language::python) python_assert_call(node);
    for (uint32_t i = 0; i < count(node); ++i) visit(child(node, i));
  }

  void python_dict(TSNode node) {
    RawRecord r{{}, line(node), shape("dict")};
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode pair = child(node, i);
      if (type_of(pair) != "pair") continue;
      TSNode key = field(pair, "key"), value = field(pair, "value");
      if (is_null(key) || is_null(value) || !is_string_node(type_of(key))) continue;
      r.fields.push_back(make_field(value_text(key), value, line(value)));
    }
    add_literal(std::move(r));
  }

  void python_call(TSNode node) {
    TSNode args = field(node, "arguments");
    if (is_null(args) || type_of(args) != "argument_list") return;
    if (last_name(t_.text(field(node, "function"))) == "parametrize") {
      pytest_parametrize(args);
      return;
    }
    RawRecord r{{}, line(node), shape("call")};
    std::vector<TSNode> positional;
    for (uint32_t i = 0; i < count(args); ++i) {
      TSNode a = child(args, i);
      if (type_of(a) == "keyword_argument") {
        TSNode name = field(a, "name"), value = field(a, "value");
        if (!is_null(name) && !is_null(value)) r.fields.push_back(make_field(text(name), value, line(value)));
      } else if (type_of(a) != "comment") {
        positional.push_back(a);
      }
    }
    if (!r.fields.empty()) {
      add_literal(std::move(r));
      return;
    }
    positional_record(node, last_name(t_.text(field(node, "function"))), positional, "positional");
  }

  // test_cases = [(True, True, "male", "white"), ...]: a bare tuple names no type, so it is a test
  // case only when it holds exactly the prompt's fields in the prompt's order (the fallback order),
  // one of them a string.
  void python_tuple(TSNode node) {
    for (TSNode up = ts_node_parent(node); !is_null(up); up = ts_node_parent(up)) {
      if (type_of(up) == "argument_list") return;  // call arguments, parametrize rows: read there
      if (type_of(up) == "block" || type_of(up) == "module") break;
    }
    std::vector<TSNode> values;
    bool has_string = false;
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode v = child(node, i);
      if (type_of(v) == "comment") continue;
      if (!is_scalar_node(type_of(v))) return;
      has_string = has_string || is_string_node(type_of(v));
      values.push_back(v);
    }
    if (!has_string || order_.fallback.empty() || values.size() != order_.fallback.size()) return;
    RawRecord r{{}, line(node), shape("tuple")};
    for (std::size_t i = 0; i < values.size(); ++i)
      r.fields.push_back(make_field(order_.fallback[i], values[i], line(values[i])));
    add_literal(std::move(r));
  }

  // @pytest.mark.parametrize("smoking_history, gender", [(True, "male"), (False, "female")]):
  // one record per tuple, named by the first argument.
  void pytest_parametrize(TSNode args) {
    if (count(args) < 2 || !is_string_node(type_of(child(args, 0)))) return;
    std::vector<std::string> names;
    const std::string joined = unquote(t_.text(child(args, 0)));
    std::size_t start = 0;
    for (std::size_t i = 0; i <= joined.size(); ++i) {
      if (i == joined.size() || joined[i] == ',') {
        names.push_back(unquote(std::string_view(joined).substr(start, i - start)));
        start = i + 1;
      }
    }
    TSNode rows = child(args, 1);
    if (type_of(rows) != "list" && type_of(rows) != "tuple") return;
    for (uint32_t i = 0; i < count(rows); ++i) {
      TSNode row = child(rows, i);
      RawRecord r{{}, line(row), shape("parametrize")};
      if (type_of(row) == "tuple" || type_of(row) == "list") {
        for (uint32_t j = 0; j < count(row) && j < names.size(); ++j)
          r.fields.push_back(make_field(names[j], child(row, j), line(child(row, j))));
      } else if (names.size() == 1) {
        r.fields.push_back(make_field(names[0], row, line(row)));
      }
      add_literal(std::move(r));
    }
  }

  void js_object(TSNode node) {
    RawRecord r{{}, line(node), shape("object")};
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode pair = child(node, i);
      if (type_of(pair) != "pair") continue;
      TSNode key = field(pair, "key"), value = field(pair, "value");
      if (is_null(key) || is_null(value)) continue;
      r.fields.push_back(make_field(value_text(key), value, line(value)));
    }
    add_literal(std::move(r));
  }

  // The type a C/C++ initialiser list initialises: `Person p = {..}`, `(Person){..}`,
  // `Person people[] = {{..}, {..}}`, `Person p{..}`.
  std::string initialised_type(TSNode list) const {
    for (TSNode n = ts_node_parent(list); !is_null(n); n = ts_node_parent(n)) {
      const sv type = type_of(n);
      if (type == "compound_literal_expression") return last_name(t_.text(field(n, "type")));
      if (type == "declaration") return last_name(t_.text(field(n, "type")));
      if (type == "compound_statement" || type == "function_definition" || type == "translation_unit") break;
    }
    return {};
  }

  void initializer_list(TSNode node) {
    RawRecord r{{}, line(node), shape("initializer")};
    std::vector<TSNode> positional;
    bool nested = false;
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode item = child(node, i);
      const sv type = type_of(item);
      if (type == "initializer_pair") {
        TSNode designator = field(item, "designator"), value = field(item, "value");
        if (is_null(designator) || is_null(value)) continue;
        std::string key = last_name(t_.text(designator));
        r.fields.push_back(make_field(key, value, line(value)));
      } else if (type == "initializer_list") {
        nested = true;
      } else if (type != "comment") {
        positional.push_back(item);
      }
    }
    if (!r.fields.empty()) {
      add_literal(std::move(r));
      return;
    }
    if (!nested) positional_record(node, initialised_type(node), positional, "positional");
  }

  void constructor_call(TSNode node, TSNode type_node, TSNode args) {
    if (is_null(args)) return;
    std::vector<TSNode> positional;
    for (uint32_t i = 0; i < count(args); ++i) {
      TSNode a = child(args, i);
      // new Person({gender: "female", ...}): the object literal is its own record.
      if (type_of(a) == "object") return;
      if (type_of(a) != "comment") positional.push_back(a);
    }
    positional_record(node, is_null(type_node) ? std::string() : last_name(t_.text(type_node)), positional,
                      "constructor");
  }

  void cpp_call(TSNode node) {
    const std::string callee = last_name(t_.text(field(node, "function")));
    if (!type_orders_.count(callee)) return;  // a function call, not a constructor
    TSNode args = field(node, "arguments");
    std::vector<TSNode> positional;
    for (uint32_t i = 0; !is_null(args) && i < count(args); ++i) positional.push_back(child(args, i));
    positional_record(node, callee, positional, "constructor");
  }

  // Positional values mapped to the declared order of `type_name`, else to the fallback order
  // when the count matches. Only lists of scalars count (a nested list or a call is no record).
  void positional_record(TSNode node, const std::string& type_name, const std::vector<TSNode>& values,
                         const char* kind) {
    if (values.empty()) return;
    for (TSNode v : values)
      if (!is_scalar_node(type_of(v))) return;
    const std::vector<std::string>* order = nullptr;
    auto declared = type_orders_.find(type_name);
    if (declared != type_orders_.end()) {
      if (values.size() > declared->second.size()) return;
      order = &declared->second;
    } else if (!order_.fallback.empty() &&
               (order_.fallback_exact ? values.size() == order_.fallback.size()
                                      : values.size() <= order_.fallback.size())) {
      order = &order_.fallback;
    }
    if (order == nullptr) {
      // A literal list whose count matches nothing known: a test case we cannot read.
      if (values.size() >= 2 && std::any_of(values.begin(), values.end(), [&](TSNode v) {
            return is_string_node(type_of(v));
          }))
        unmapped_positional_ = true;
      return;
    }
    RawRecord r{{}, line(node), shape(kind)};
    for (std::size_t i = 0; i < values.size(); ++i)
      r.fields.push_back(make_field((*order)[i], values[i], line(values[i])));
    add_literal(std::move(r));
  }

  // ---- receiver-grouped records --------------------------------------------------------------

  uint32_t enclosing_function(TSNode node) const {
    for (TSNode n = ts_node_parent(node); !is_null(n); n = ts_node_parent(n)) {
      const sv type = type_of(n);
      if (type.find("function") != sv::npos || type.find("method") != sv::npos ||
          type == "constructor_declaration")
        return ts_node_start_byte(n);
    }
    return 0;
  }

  // The receiver and member of `p.gender`, `p->gender`, `self.p.gender`; empty when not a member.
  std::optional<std::pair<std::string, std::string>> member(TSNode node) const {
    const sv type = type_of(node);
    TSNode object, name;
    if (type == "attribute") {
      object = field(node, "object");
      name = field(node, "attribute");
    } else if (type == "field_expression") {
      object = field(node, "argument");
      name = field(node, "field");
    } else if (type == "member_expression") {
      object = field(node, "object");
      name = field(node, "property");
    } else if (type == "field_access") {
      object = field(node, "object");
      name = field(node, "field");
    } else {
      return std::nullopt;
    }
    if (is_null(object) || is_null(name)) return std::nullopt;
    return std::make_pair(text(object), text(name));
  }

  void add_grouped(std::vector<RawRecord>& records,
                   std::map<std::pair<std::string, uint32_t>, std::size_t>& open, TSNode at,
                   const std::string& receiver, RawField f, const char* kind) {
    // `self.gender = gender` in a constructor sets no value.
    if (!wanted_(f.key) || !f.literal) return;
    const auto key = std::make_pair(receiver, enclosing_function(at));
    auto it = open.find(key);
    if (it != open.end()) {
      RawRecord& r = records[it->second];
      const bool repeated = std::any_of(r.fields.begin(), r.fields.end(),
                                        [&](const RawField& g) { return g.key == f.key; });
      if (!repeated) {
        r.fields.push_back(std::move(f));
        return;
      }
    }
    records.push_back(RawRecord{{std::move(f)}, line(at), shape(kind)});
    open[key] = records.size() - 1;
  }

  void member_assignment(TSNode node) {
    TSNode left = field(node, "left"), right = field(node, "right");
    if (is_null(left) || is_null(right)) return;
    auto m = member(left);
    if (!m) return;
    add_grouped(assigned_, open_assigned_, node, m->first, make_field(m->second, right, line(right)),
                "assignment");
  }

  // strcpy(p.gender, "female"), strncpy(p.race, "white", n), snprintf(p.race, n, "white")
  void c_string_copy(TSNode node) {
    const std::string callee = last_name(t_.text(field(node, "function")));
    if (callee != "strcpy" && callee != "strncpy" && callee != "strcpy_s" && callee != "snprintf") return;
    TSNode args = field(node, "arguments");
    if (is_null(args) || count(args) < 2) return;
    auto m = member(child(args, 0));
    TSNode value = child(args, callee == "snprintf" ? count(args) - 1 : (callee == "strcpy_s" ? 2 : 1));
    if (!m || is_null(value) || !is_string_node(type_of(value))) return;
    add_grouped(assigned_, open_assigned_, node, m->first, make_field(m->second, value, line(value)),
                "assignment");
  }

  // p.setGender("female") -> gender; assertEquals("female", p.getGender()) -> gender.
  void java_setter_or_assert(TSNode node) {
    const std::string name(t_.text(field(node, "name")));
    TSNode args = field(node, "arguments");
    TSNode object = field(node, "object");
    if (is_null(args)) return;
    if (name.size() > 3 && name.starts_with("set") && count(args) == 1 && !is_null(object)) {
      std::string key = name.substr(3);
      key[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(key[0])));
      add_grouped(assigned_, open_assigned_, node, text(object), make_field(key, child(args, 0), line(node)),
                  "setter");
    } else if (name == "assertEquals" && count(args) == 2) {
      for (uint32_t i = 0; i < 2; ++i) {
        TSNode call = child(args, i), literal = child(args, 1 - i);
        if (type_of(call) != "method_invocation" || !is_string_node(type_of(literal))) continue;
        const std::string getter(t_.text(field(call, "name")));
        TSNode receiver = field(call, "object");
        if (getter.size() <= 3 || !getter.starts_with("get") || is_null(receiver)) continue;
        std::string key = getter.substr(3);
        key[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(key[0])));
        add_grouped(asserted_, open_asserted_, node, text(receiver), make_field(key, literal, line(node)),
                    "assertion");
      }
    }
  }

  // One `X.member == literal` (either side) inside an assertion.
  void asserted_comparison(TSNode at, TSNode a, TSNode b) {
    for (int flip = 0; flip < 2; ++flip) {
      TSNode m = flip ? b : a, literal = flip ? a : b;
      auto mem = member(m);
      if (!mem || !is_scalar_node(type_of(literal)) || member(literal)) continue;
      add_grouped(asserted_, open_asserted_, at, mem->first, make_field(mem->second, literal, line(m)),
                  "assertion");
      return;
    }
  }

  void python_assert(TSNode node) { find_equalities(node, node); }

  void find_equalities(TSNode at, TSNode node) {
    if (type_of(node) == "comparison_operator" && count(node) == 2) {
      // The operator is an anonymous child between the operands.
      bool equality = false;
      for (uint32_t i = 0; i < ts_node_child_count(node); ++i) {
        TSNode c = ts_node_child(node, i);
        if (!ts_node_is_named(c) && (t_.text(c) == "==" || t_.text(c) == "is")) equality = true;
      }
      if (equality) asserted_comparison(at, child(node, 0), child(node, 1));
      return;
    }
    for (uint32_t i = 0; i < count(node); ++i) find_equalities(at, child(node, i));
  }

  void python_assert_call(TSNode node) {
    const std::string callee = last_name(t_.text(field(node, "function")));
    if (callee != "assertEqual" && callee != "assertEquals") return;
    TSNode args = field(node, "arguments");
    if (is_null(args) || count(args) < 2) return;
    asserted_comparison(node, child(args, 0), child(args, 1));
  }
};

Language parse_language(const CodeBlock& block) {
  if (block.language != Language::unknown) return block.language;
  // JSON (a ```json fence or a bare object/array) is a JavaScript expression.
  const std::size_t start = block.code.find_first_not_of(" \t\r\n");
  if (start != std::string::npos && (block.code[start] == '{' || block.code[start] == '['))
    return Language::javascript;
  return Language::unknown;
}

}  // namespace

std::map<std::string, std::vector<std::string>> declared_types(const CodeBlock& block) {
  if (block.language == Language::unknown) return {};
  SyntaxTree tree(block.language, block.code);
  const KeyFilter none = [](std::string_view) { return false; };
  const PositionalOrder no_order;
  return Walker(tree, block.first_line, none, no_order).declared();
}

std::vector<RawRecord> code_records(const CodeBlock& block, const KeyFilter& wanted,
                                    const PositionalOrder& order, bool& parse_error) {
  parse_error = false;
  const Language language = parse_language(block);
  if (language == Language::unknown) return {};
  // A bare JSON object would parse as a statement block: parse it as a parenthesised expression
  // (no line break added, so lines stay those of the block).
  const bool json = block.language == Language::unknown;
  const std::string code = json ? "(" + block.code + ")" : std::string();
  SyntaxTree tree(language, json ? std::string_view(code) : std::string_view(block.code));
  Walker walker(tree, block.first_line, wanted, order);
  bool unreadable = false;
  std::vector<RawRecord> records = walker.run(unreadable);
  parse_error = tree.has_error() || unreadable;
  return records;
}

std::string unquote(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  sv s = text.substr(b, e - b);
  // String prefixes: Python r/b/u/f (any case, up to two), C/C++ L/u8/U.
  std::size_t p = 0;
  while (p < s.size() && p < 2 && std::isalpha(static_cast<unsigned char>(s[p]))) ++p;
  if (s.size() >= 3 && s.substr(p).starts_with("8") && p == 1) ++p;  // u8"..."
  sv body = s.substr(p);
  for (sv q : {sv("\"\"\""), sv("'''"), sv("\""), sv("'"), sv("`")}) {
    if (body.size() >= 2 * q.size() && body.starts_with(q) && body.ends_with(q))
      return std::string(body.substr(q.size(), body.size() - 2 * q.size()));
  }
  return std::string(s);
}

}  // namespace codebias::analysis::testcase
