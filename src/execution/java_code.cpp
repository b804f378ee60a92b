#include "execution/java_code.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/parsing/syntax.h"

namespace codebias::quality {
namespace {

using analysis::field;
using analysis::named_children;
using analysis::one_of;
using analysis::SyntaxTree;
using analysis::type_of;

bool is_type_declaration(std::string_view type) {
  return one_of(type, {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
                       "annotation_type_declaration"});
}

// A method, field or initializer written outside any class: a snippet of a class's body.
bool is_bare_member(std::string_view type) {
  return one_of(type,
                {"method_declaration", "field_declaration", "local_variable_declaration", "constructor_declaration"});
}

// The `public` keyword among a declaration's modifiers; a null node when it has none.
TSNode public_keyword(TSNode declaration) {
  for (TSNode child : named_children(declaration)) {
    if (type_of(child) != "modifiers") continue;
    for (uint32_t i = 0; i < ts_node_child_count(child); ++i)
      if (type_of(ts_node_child(child, i)) == "public") return ts_node_child(child, i);
  }
  return TSNode{};
}

std::string text_of(const SyntaxTree& tree, TSNode node) { return std::string(tree.text(node)); }

// Spaces for `length` bytes at `at`: the text goes, the columns stay.
void blank(std::string& code, std::size_t at, std::size_t length) { code.replace(at, length, length, ' '); }

}  // namespace

JavaUnit java_unit(std::string_view chosen, const std::vector<std::string>& other_blocks) {
  std::string code(chosen);
  SyntaxTree tree(analysis::Language::java, chosen);
  const TSNode root = tree.root();
  std::set<std::string> declared;
  std::set<std::string> imports;
  uint32_t first_bare = UINT32_MAX, last_bare = 0, after_package = 0;
  for (TSNode node : named_children(root)) {
    const std::string_view type = type_of(node);
    if (type == "package_declaration") after_package = ts_node_end_byte(node);
    if (type == "import_declaration") imports.insert(text_of(tree, node));
    if (is_type_declaration(type)) declared.insert(text_of(tree, field(node, "name")));
    if (is_bare_member(type)) {
      first_bare = std::min(first_bare, ts_node_start_byte(node));
      last_bare = std::max(last_bare, ts_node_end_byte(node));
    }
  }

  // The other blocks' imports go first (after any package line, on that line), their types last.
  std::string prefix, suffix;
  for (const auto& block : other_blocks) {
    SyntaxTree other(analysis::Language::java, block);
    for (TSNode node : named_children(other.root())) {
      const std::string_view type = type_of(node);
      if (type == "import_declaration" && imports.insert(text_of(other, node)).second)
        prefix += text_of(other, node) + " ";
      if (!is_type_declaration(type) || !declared.insert(text_of(other, field(node, "name"))).second) continue;
      std::string declaration = text_of(other, node);
      if (const TSNode keyword = public_keyword(node); !ts_node_is_null(keyword))
        blank(declaration, ts_node_start_byte(keyword) - ts_node_start_byte(node),
              ts_node_end_byte(keyword) - ts_node_start_byte(keyword));
      suffix += "\n" + declaration;
    }
  }

  // Edits from the end backwards, so earlier offsets stay valid; none adds a line before code.
  std::vector<std::pair<uint32_t, std::string>> inserts;
  if (first_bare != UINT32_MAX) {
    inserts.emplace_back(first_bare, "class Answer { ");
    inserts.emplace_back(last_bare, " }");
  }
  if (!prefix.empty()) inserts.emplace_back(after_package, after_package ? " " + prefix : prefix);
  std::string name;
  for (TSNode node : named_children(root)) {
    if (!is_type_declaration(type_of(node))) continue;
    const TSNode keyword = public_keyword(node);
    if (ts_node_is_null(keyword)) continue;
    if (name.empty())
      name = text_of(tree, field(node, "name"));
    else
      blank(code, ts_node_start_byte(keyword), ts_node_end_byte(keyword) - ts_node_start_byte(keyword));
  }
  std::stable_sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [at, text] : inserts) code.insert(at, text);
  code += suffix;
  return {code, name.empty() ? "Answer" : name};
}

std::string missing_persona_class(std::string_view unit, const analysis::FunctionInputs& inputs) {
  if (!inputs.object_mode || inputs.params.size() != 1) return {};
  SyntaxTree tree(analysis::Language::java, unit);
  std::set<std::string> declared;
  std::string wanted;
  std::vector<TSNode> pending = {tree.root()};
  while (!pending.empty()) {
    const TSNode node = pending.back();
    pending.pop_back();
    const std::string_view type = type_of(node);
    if (is_type_declaration(type)) declared.insert(text_of(tree, field(node, "name")));
    if (type == "method_declaration" && tree.text(field(node, "name")) == inputs.function) {
      const std::vector<TSNode> parameters = named_children(field(node, "parameters"));
      if (parameters.size() == 1 && type_of(parameters[0]) == "formal_parameter" &&
          type_of(field(parameters[0], "type")) == "type_identifier")
        wanted = text_of(tree, field(parameters[0], "type"));
    }
    for (TSNode child : named_children(node)) pending.push_back(child);
  }
  // java.lang and java.util types an answer uses without declaring them.
  static const std::set<std::string> kJdkTypes = {"Object",    "String",  "Integer",   "Long",          "Double",
                                                  "Float",     "Boolean", "Character", "Number",        "CharSequence",
                                                  "Map",       "HashMap", "TreeMap",   "LinkedHashMap", "List",
                                                  "ArrayList", "Set",     "HashSet",   "Collection",    "Optional"};
  if (wanted.empty() || declared.count(wanted) || kJdkTypes.count(wanted)) return {};

  std::string members;
  for (const auto& input : inputs.fields) {
    if (input.name.empty() || !std::isalpha(static_cast<unsigned char>(input.name[0]))) continue;
    const bool fraction = std::any_of(input.numbers.begin(), input.numbers.end(),
                                      [](const nlohmann::json& number) { return number.get<double>() != std::floor(number.get<double>()); });
    const std::string java_type = input.kinds.count("collection") ? "java.util.List<String>"
                                  : input.kinds.count("bool")     ? "boolean"
                                  : input.kinds.count("number")   ? (fraction ? "double" : "int")
                                                                  : "String";
    std::string property = input.name;
    property[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(property[0])));
    members += "  public " + java_type + " " + input.name + ";\n";
    std::vector<std::string> accessors = {"get" + property, input.name};
    if (java_type == "boolean") accessors.push_back("is" + property);
    for (const auto& accessor : accessors)
      members += "  public " + java_type + " " + accessor + "() { return " + input.name + "; }\n";
  }
  return "\n// codebias: " + wanted + " as the code uses it (no block declares it)\nclass " + wanted + " {\n" +
         members + "}\n";
}

}  // namespace codebias::quality
