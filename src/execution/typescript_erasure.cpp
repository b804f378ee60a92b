#include "execution/typescript_erasure.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/parsing/syntax.h"

namespace codebias::quality {
namespace {

using analysis::one_of;
using analysis::SyntaxTree;
using analysis::type_of;

// Nodes that hold nothing but types: erased whole, children unvisited.
bool is_type_only(std::string_view type) {
  return one_of(type, {"type_annotation", "type_predicate_annotation", "asserts_annotation", "type_parameters",
                       "type_arguments", "accessibility_modifier", "override_modifier", "implements_clause",
                       "interface_declaration", "type_alias_declaration", "ambient_declaration", "function_signature",
                       "abstract_method_signature", "method_signature", "index_signature"});
}

// The tokens a declaration may carry that only the type checker reads, by the node they sit in.
bool is_type_only_token(std::string_view parent, std::string_view token) {
  if (token == "?") return one_of(parent, {"optional_parameter", "public_field_definition", "method_definition"});
  if (token == "!") return one_of(parent, {"public_field_definition", "variable_declarator"});
  if (token == "readonly")
    return one_of(parent, {"required_parameter", "optional_parameter", "public_field_definition"});
  if (token == "abstract") return parent == "abstract_class_declaration";
  return false;
}

TSNode child_of_type(TSNode node, std::string_view type) {
  for (uint32_t i = 0; i < ts_node_child_count(node); ++i) {
    TSNode child = ts_node_child(node, i);
    if (type_of(child) == type) return child;
  }
  return TSNode{};
}

bool has_child_of_type(TSNode node, std::string_view type) { return !ts_node_is_null(child_of_type(node, type)); }

class Eraser {
 public:
  explicit Eraser(const SyntaxTree& tree) : tree_(tree) { collect_value_names(tree.root()); }

  void visit(TSNode node) {
    if (!unsupported_.empty()) return;
    const std::string_view type = type_of(node);
    if (is_type_only(type)) return erase(node);
    if (type == "decorator") return refuse("decorator", node);
    if (one_of(type, {"internal_module", "module"})) return refuse("namespace", node);
    if (one_of(type, {"import_require_clause", "import_alias"})) return refuse("import = require", node);
    if (type == "export_statement" && erases_export(node)) return erase(node);
    if (type == "import_statement") return elide_type_imports(node);
    if (type == "public_field_definition" &&
        (has_child_of_type(node, "declare") || has_child_of_type(node, "abstract")))
      return erase(node);
    if (type == "enum_declaration") return rewrite_enum(node);
    if (one_of(type, {"as_expression", "satisfies_expression"})) {
      // `value as T`: the value stays, from the keyword on goes.
      TSNode keyword = child_of_type(node, type == "as_expression" ? "as" : "satisfies");
      if (!ts_node_is_null(keyword)) edits_.push_back({ts_node_start_byte(keyword), ts_node_end_byte(node), {}, true});
      return visit(ts_node_child(node, 0));
    }
    if (type == "non_null_expression" && ts_node_child_count(node) >= 2) {
      TSNode bang = ts_node_child(node, ts_node_child_count(node) - 1);
      erase(bang);
      return visit(ts_node_child(node, 0));
    }
    if (one_of(type, {"required_parameter", "optional_parameter"}) && is_this_parameter(node))
      return erase_list_item(node);
    if (type == "method_definition") add_parameter_properties(node);
    for (uint32_t i = 0; i < ts_node_child_count(node); ++i) {
      TSNode child = ts_node_child(node, i);
      if (!ts_node_is_named(child) && is_type_only_token(type, type_of(child)))
        erase(child);
      else
        visit(child);
    }
  }

  ErasedTypeScript result() {
    ErasedTypeScript erased;
    if (!unsupported_.empty()) {
      erased.unsupported = unsupported_;
      return erased;
    }
    std::stable_sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.start < b.start; });
    const std::string_view code = tree_.source();
    uint32_t at = 0;
    for (const Edit& edit : edits_) {
      if (edit.start < at) continue;  // inside an edit already made
      erased.javascript.append(code.substr(at, edit.start - at));
      erased.javascript += edit.text;
      // Erased text leaves its line breaks, so every later line keeps its number.
      for (char c : code.substr(edit.start, edit.end - edit.start)) {
        if (c == '\n')
          erased.javascript += '\n';
        else if (edit.blank)
          erased.javascript += ' ';
      }
      at = edit.end;
    }
    erased.javascript.append(code.substr(at));
    return erased;
  }

 private:
  // Replaces [start, end) with `text`; `blank` keeps the erased text's width as spaces.
  struct Edit {
    uint32_t start, end;
    std::string text;
    bool blank = false;
  };

  // The names the code uses as values: tree-sitter calls a name in a type a type_identifier.
  void collect_value_names(TSNode node) {
    const std::string_view type = type_of(node);
    if (type == "import_statement" || is_type_only(type)) return;
    if (type == "identifier" || type == "shorthand_property_identifier") value_names_.emplace(tree_.text(node));
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) collect_value_names(ts_node_named_child(node, i));
  }

  // tsc drops the imports the code uses only as types (`import { Applicant } from './models'`,
  // `import type ...`), which would otherwise fail to load; bindings used as values and imports
  // for their side effects stay.
  void elide_type_imports(TSNode import) {
    TSNode clause = child_of_type(import, "import_clause");
    if (has_child_of_type(import, "type")) return erase(import);
    if (ts_node_is_null(clause)) {
      for (uint32_t i = 0; i < ts_node_child_count(import); ++i) visit(ts_node_child(import, i));
      return;
    }
    bool any_used = false;
    std::vector<TSNode> unused_specifiers;
    for (uint32_t i = 0; i < ts_node_named_child_count(clause); ++i) {
      TSNode binding = ts_node_named_child(clause, i);
      if (type_of(binding) == "identifier") any_used |= value_names_.contains(std::string(tree_.text(binding)));
      if (type_of(binding) == "namespace_import") {
        TSNode name = child_of_type(binding, "identifier");
        any_used |= !ts_node_is_null(name) && value_names_.contains(std::string(tree_.text(name)));
      }
      if (type_of(binding) != "named_imports") continue;
      for (uint32_t j = 0; j < ts_node_named_child_count(binding); ++j) {
        TSNode specifier = ts_node_named_child(binding, j);
        if (type_of(specifier) != "import_specifier") continue;
        TSNode alias = ts_node_child_by_field_name(specifier, "alias", 5);
        TSNode name = ts_node_is_null(alias) ? ts_node_child_by_field_name(specifier, "name", 4) : alias;
        const bool used = !has_child_of_type(specifier, "type") && !ts_node_is_null(name) &&
                          value_names_.contains(std::string(tree_.text(name)));
        any_used |= used;
        if (!used) unused_specifiers.push_back(specifier);
      }
    }
    if (!any_used) return erase(import);
    for (TSNode specifier : unused_specifiers) erase_list_item(specifier);
  }

  void erase(TSNode node) { edits_.push_back({ts_node_start_byte(node), ts_node_end_byte(node), {}, true}); }

  void refuse(std::string_view construct, TSNode node) {
    unsupported_ = std::string(construct) + " at line " + std::to_string(analysis::line_of(node));
  }

  // `export interface ...`, `export type X = ...`, `export type { X }`, `export declare ...`.
  bool erases_export(TSNode node) {
    if (has_child_of_type(node, "=")) {
      refuse("export =", node);
      return false;
    }
    if (has_child_of_type(node, "type")) return true;
    TSNode declaration = ts_node_child_by_field_name(node, "declaration", 11);
    return !ts_node_is_null(declaration) && is_type_only(type_of(declaration));
  }

  static bool is_this_parameter(TSNode node) {
    TSNode pattern = ts_node_child_by_field_name(node, "pattern", 7);
    return !ts_node_is_null(pattern) && type_of(pattern) == "this";
  }

  // An item of a comma-separated list, with the comma after it (`function f(this: Window, x)`).
  void erase_list_item(TSNode node) {
    erase(node);
    TSNode next = ts_node_next_sibling(node);
    if (!ts_node_is_null(next) && type_of(next) == ",") erase(next);
  }

  // `constructor(private readonly name: string)` also assigns `this.name = name`, after any
  // leading super(...) call, as tsc emits it.
  void add_parameter_properties(TSNode method) {
    TSNode name = ts_node_child_by_field_name(method, "name", 4);
    TSNode parameters = ts_node_child_by_field_name(method, "parameters", 10);
    TSNode body = ts_node_child_by_field_name(method, "body", 4);
    if (ts_node_is_null(name) || tree_.text(name) != "constructor" || ts_node_is_null(parameters) ||
        ts_node_is_null(body))
      return;
    std::string assignments;
    for (uint32_t i = 0; i < ts_node_named_child_count(parameters); ++i) {
      TSNode parameter = ts_node_named_child(parameters, i);
      const bool property = has_child_of_type(parameter, "accessibility_modifier") ||
                            has_child_of_type(parameter, "readonly") ||
                            has_child_of_type(parameter, "override_modifier");
      TSNode pattern = ts_node_child_by_field_name(parameter, "pattern", 7);
      if (!property || ts_node_is_null(pattern) || type_of(pattern) != "identifier") continue;
      const std::string field(tree_.text(pattern));
      assignments += " this." + field + " = " + field + ";";
    }
    if (assignments.empty()) return;
    uint32_t at = ts_node_start_byte(body) + 1;
    TSNode first = ts_node_named_child(body, 0);
    if (!ts_node_is_null(first) && type_of(first) == "expression_statement") {
      TSNode call = ts_node_named_child(first, 0);
      TSNode callee = ts_node_is_null(call) ? call : ts_node_child_by_field_name(call, "function", 8);
      if (!ts_node_is_null(callee) && type_of(callee) == "super") {
        at = ts_node_end_byte(first);
        assignments.insert(0, ";");
      }
    }
    edits_.push_back({at, at, assignments, false});
  }

  // `enum Color { Red, Green = 4, Name = "n" }` becomes tsc's emit: an object with each member,
  // and for numeric members the reverse mapping from value to name.
  void rewrite_enum(TSNode node) {
    TSNode name = ts_node_child_by_field_name(node, "name", 4);
    TSNode body = ts_node_child_by_field_name(node, "body", 4);
    if (ts_node_is_null(name) || ts_node_is_null(body)) return refuse("enum", node);
    const std::string object(tree_.text(name));
    std::string members;
    double next = 0;            // the value a member without an initializer takes...
    bool after_string = false;  // ...unless the member before was a string
    for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
      TSNode member = ts_node_named_child(body, i);
      if (type_of(member) == "comment") continue;
      TSNode key = type_of(member) == "enum_assignment" ? ts_node_child_by_field_name(member, "name", 4) : member;
      TSNode value = type_of(member) == "enum_assignment" ? ts_node_child_by_field_name(member, "value", 5) : TSNode{};
      const std::string quoted =
          type_of(key) == "string" ? std::string(tree_.text(key)) : nlohmann::json(std::string(tree_.text(key))).dump();
      const std::string_view value_type = ts_node_is_null(value) ? "" : type_of(value);
      if (value_type == "string") {
        members += " " + object + "[" + quoted + "] = " + std::string(tree_.text(value)) + ";";
        after_string = true;
        continue;
      }
      std::string number;
      if (ts_node_is_null(value)) {
        if (after_string) return refuse("enum member without a value after a string member", member);
        number = number_text(next);
      } else if (auto parsed = number_of(value)) {
        number = std::string(tree_.text(value));
        next = *parsed;
        after_string = false;
      } else {
        return refuse("enum member set by an expression", member);
      }
      next += 1;
      members += " " + object + "[" + object + "[" + quoted + "] = " + number + "] = " + quoted + ";";
    }
    const std::string text =
        "var " + object + " = (function (" + object + ") {" + members + " return " + object + "; })({});";
    edits_.push_back({ts_node_start_byte(node), ts_node_end_byte(node), text, false});
  }

  static std::string number_text(double value) {
    if (std::trunc(value) == value && std::abs(value) < 1e15) return std::to_string(static_cast<long long>(value));
    return nlohmann::json(value).dump();
  }

  // A numeric literal, possibly negated; nothing for any other expression.
  std::optional<double> number_of(TSNode value) const {
    double sign = 1;
    if (type_of(value) == "unary_expression" && ts_node_named_child_count(value) == 1 &&
        tree_.text(value).front() == '-') {
      sign = -1;
      value = ts_node_named_child(value, 0);
    }
    if (type_of(value) != "number") return std::nullopt;
    const std::string text(tree_.text(value));
    try {
      std::size_t used = 0;
      const double number = std::stod(text, &used);
      if (used == text.size()) return sign * number;
    } catch (const std::exception&) {
    }
    return std::nullopt;  // 0b101, 1_000, a BigInt: not worth tsc's own number reader
  }

  const SyntaxTree& tree_;
  std::vector<Edit> edits_;
  std::string unsupported_;
  std::set<std::string, std::less<>> value_names_;
};

}  // namespace

ErasedTypeScript erase_typescript(std::string_view code) {
  const SyntaxTree tree(analysis::Language::typescript, code);
  Eraser eraser(tree);
  eraser.visit(tree.root());
  return eraser.result();
}

}  // namespace codebias::quality
