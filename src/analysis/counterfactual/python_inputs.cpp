// Reading a Python function's inputs (python_inputs.h): a walk of the code's ast that visits what
// ast.NodeVisitor visits, in its order, so that the fields come in the order the personas'
// dimensions take (counterfactual_driver.py).
#include "analysis/counterfactual/python_inputs.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <deque>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/counterfactual/input_field_table.h"
#include "analysis/counterfactual/python_ast.h"

namespace codebias::analysis {
namespace {

using nlohmann::json;
using python_ast::Kind;
using python_ast::Node;

const std::set<std::string> kStringMethods = {"lower",   "upper",      "strip",      "lstrip",   "rstrip", "title",
                                              "casefold", "capitalize", "startswith", "endswith", "split",  "replace",
                                              "find",     "isdigit",    "isalpha"};
const std::set<std::string> kCollectionMethods = {"append", "extend", "count", "index", "items", "keys", "values"};
const std::set<std::string> kRecordMethods = {"get", "keys", "values", "items"};
const std::set<std::string> kConversions = {"str", "int", "float", "bool", "len", "round", "abs"};
// `60 < age` is `age > 60`.
const std::map<std::string, std::string> kMirrored = {{"Lt", "Gt"}, {"LtE", "GtE"}, {"Gt", "Lt"}, {"GtE", "LtE"}};

using LiteralDicts = std::map<std::string, std::vector<json>>;

// Every node of `root`, breadth first, as ast.walk gives them.
std::vector<const Node*> walk(const Node& root) {
  std::vector<const Node*> order = {&root};
  for (std::size_t at = 0; at < order.size(); ++at)
    for (const Node& kid : order[at]->kids) order.push_back(&kid);
  return order;
}

// Constants in a literal or a container of literals (a dict's keys).
std::vector<json> literals(const Node& node) {
  std::vector<json> found;
  switch (node.kind) {
    case Kind::constant: return {node.value};
    case Kind::list:
      for (const Node& item : node.kids)
        if (item.kind == Kind::constant) found.push_back(item.value);
      return found;
    case Kind::dict:
      for (std::size_t at = 0; at < node.split; ++at)
        if (node.kids[at].kind == Kind::constant) found.push_back(node.kids[at].value);
      return found;
    case Kind::unary_op:
      if (node.text == "-" && node.kids[0].kind == Kind::constant) {
        const json& value = node.kids[0].value;
        if (value.is_boolean()) return {-static_cast<int>(value.get<bool>())};
        if (value.is_number_integer()) return {-value.get<long long>()};
        if (value.is_number_float()) return {-value.get<double>()};
      }
      return {};
    default: return {};
  }
}

template <typename List>
void append_new(List& list, const json& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

void add(InputField& field, const json& value) {
  if (value.is_boolean()) {
    field.kinds.insert("bool");
  } else if (value.is_number()) {  // json keeps bools apart from numbers
    field.numbers.push_back(value);
    field.kinds.insert("number");
  } else if (value.is_string()) {
    if (std::find(field.strings.begin(), field.strings.end(), value.get<std::string>()) == field.strings.end())
      field.strings.push_back(value.get<std::string>());
    field.kinds.insert("string");
  }
}

bool is_name_in(const Node& node, const std::set<std::string>& names) {
  return node.kind == Kind::name && names.count(node.text);
}

bool is_string(const Node& node) { return node.kind == Kind::constant && node.value.is_string(); }

// How the code uses each field of the input: what it is compared with, what it is used as.
class Usage : public InputFieldTable {
 public:
  Usage(std::set<std::string> holders, std::set<std::string> bare_names, const LiteralDicts& dicts)
      : holders_(std::move(holders)), bare_names_(std::move(bare_names)), dicts_(dicts) {}

  // (field, function name, argument index): a field handed to a function by name.
  const std::vector<std::tuple<InputField*, std::string, std::size_t>>& passed_on() const { return passed_on_; }

  void visit(const Node& node) {
    switch (node.kind) {
      case Kind::attribute:
        if (!kRecordMethods.count(node.text)) field_of(node);
        break;
      case Kind::name: field_of(node); return;
      case Kind::compare: compare(node); break;
      case Kind::bin_op: arithmetic(node); break;
      case Kind::assign: assign(node); break;
      case Kind::aug_assign:
        if (InputField* found = field_of(node.kids[1])) found->kinds.insert("number");
        break;
      case Kind::if_statement:
      case Kind::if_expression:
      case Kind::while_loop: truth_test(node.kids[0]); break;
      case Kind::bool_op:
        for (const Node& value : node.kids) truth_test(value);
        break;
      case Kind::unary_op:
        if (node.text == "not") truth_test(node.kids[0]);
        break;
      case Kind::for_loop:
        if (InputField* found = field_of(node.kids[1])) found->kinds.insert("collection");
        break;
      case Kind::subscript: subscript(node); break;
      case Kind::call: call(node); break;
      default: break;
    }
    for (const Node& kid : node.kids)
      if (kid.kind != Kind::absent) visit(kid);
  }

 private:
  // The field an expression reads, looking through conversions and string methods.
  InputField* field_of(const Node& node) {
    switch (node.kind) {
      case Kind::attribute: return is_name_in(node.kids[0], holders_) ? &field(node.text) : nullptr;
      case Kind::subscript:
        return is_name_in(node.kids[0], holders_) && is_string(node.kids[1]) ? &field(node.kids[1].value.get<std::string>()) : nullptr;
      case Kind::name:
        if (bare_names_.count(node.text)) return &field(node.text);
        if (const auto alias = aliases_.find(node.text); alias != aliases_.end()) return find(alias->second);
        return nullptr;
      case Kind::call: return field_of_call(node);
      default: return nullptr;
    }
  }

  InputField* field_of_call(const Node& call) {
    const Node& func = call.kids[0];
    const std::size_t args = call.split;
    const Node* first = args > 0 ? &call.kids[1] : nullptr;
    if (func.kind == Kind::attribute) {
      if (func.text == "get" && is_name_in(func.kids[0], holders_) && first && is_string(*first)) {
        InputField& found = field(first->value.get<std::string>());
        if (args > 1)
          for (const json& value : literals(call.kids[2])) add(found, value);
        return &found;
      }
      if (kStringMethods.count(func.text)) {
        InputField* inner = field_of(func.kids[0]);
        if (inner) inner->kinds.insert("string");
        return inner;
      }
    }
    if (func.kind != Kind::name) return nullptr;
    if (func.text == "getattr" && args >= 2 && is_name_in(call.kids[1], holders_) && is_string(call.kids[2]))
      return &field(call.kids[2].value.get<std::string>());
    if (kConversions.count(func.text) && first) {
      InputField* inner = field_of(*first);
      if (inner && (func.text == "int" || func.text == "float" || func.text == "round" || func.text == "abs"))
        inner->kinds.insert("number");
      if (inner && func.text == "len") inner->kinds.insert("collection");
      return func.text == "len" ? nullptr : inner;
    }
    return nullptr;
  }

  void compare(const Node& node) {
    for (std::size_t at = 0; at < node.ops.size() && at + 1 < node.kids.size(); ++at) {
      const Node& left = node.kids[at];
      const Node& right = node.kids[at + 1];
      const std::string& op = node.ops[at];
      InputField* left_field = field_of(left);
      InputField* right_field = field_of(right);
      if (op == "In" || op == "NotIn") {
        if (right_field && !left_field) {
          right_field->kinds.insert("collection");
          for (const json& value : literals(left)) append_new(right_field->members, value);
        } else if (left_field) {
          const std::vector<json> values = literals(right);
          for (const json& value : values) add(*left_field, value);
          left_field->conditions.emplace_back(op, json(values));
        }
        continue;
      }
      if (left_field) {
        const std::vector<json> values = literals(right);
        for (const json& value : values) add(*left_field, value);
        if (!values.empty()) left_field->conditions.emplace_back(op, values[0]);
      }
      if (right_field) {
        const std::vector<json> values = literals(left);
        for (const json& value : values) add(*right_field, value);
        const auto mirrored = kMirrored.find(op);
        if (!values.empty()) right_field->conditions.emplace_back(mirrored == kMirrored.end() ? op : mirrored->second, values[0]);
      }
    }
  }

  void arithmetic(const Node& node) {
    for (std::size_t side = 0; side < 2; ++side) {
      InputField* found = field_of(node.kids[side]);
      if (!found) continue;
      found->kinds.insert("number");
      for (const json& value : literals(node.kids[1 - side]))
        if (value.is_number()) found->numbers.push_back(value);
    }
  }

  void assign(const Node& node) {
    InputField* found = field_of(node.kids.back());
    for (std::size_t at = 0; at < node.split; ++at) {
      const Node& target = node.kids[at];
      if (target.kind != Kind::name) continue;
      if (found) aliases_[target.text] = found->name;  // age = candidate.age
      else aliases_.erase(target.text);
    }
  }

  void truth_test(const Node& node) {
    if (InputField* found = field_of(node)) found->kinds.insert("bool");
  }

  // data[candidate.degree]: the keys of a literal dict are values.
  void subscript(const Node& node) {
    field_of(node);
    InputField* found = field_of(node.kids[1]);
    if (found && node.kids[0].kind == Kind::name) add_keys(*found, node.kids[0].text);
  }

  void add_keys(InputField& found, const std::string& dict) {
    if (const auto keys = dicts_.find(dict); keys != dicts_.end())
      for (const json& value : keys->second) add(found, value);
  }

  void call(const Node& node) {
    field_of(node);
    const Node& func = node.kids[0];
    if (func.kind == Kind::name) {
      for (std::size_t at = 0; at < node.split; ++at)
        if (InputField* found = field_of(node.kids[1 + at])) passed_on_.emplace_back(found, func.text, at);
    }
    if (func.kind == Kind::attribute) {
      InputField* found = field_of(func.kids[0]);
      if (found && kCollectionMethods.count(func.text)) found->kinds.insert("collection");
      // weights.get(candidate.degree, 0): the dict's keys are the values to try.
      if (func.text == "get" && node.split > 0 && func.kids[0].kind == Kind::name)
        if (InputField* key_field = field_of(node.kids[1])) add_keys(*key_field, func.kids[0].text);
    }
  }

  std::set<std::string> holders_;     // names bound to the input object
  std::set<std::string> bare_names_;  // parameters that are fields themselves
  const LiteralDicts& dicts_;
  std::map<std::string, std::string> aliases_;  // local names a field was assigned to
  std::vector<std::tuple<InputField*, std::string, std::size_t>> passed_on_;
};

// name -> keys of every `name = {literal: ...}` in the code (the last in ast.walk's order), for
// lookups keyed by a field.
LiteralDicts literal_dicts(const Node& module) {
  LiteralDicts found;
  for (const Node* node : walk(module)) {
    if (node->kind != Kind::assign || node->kids.back().kind != Kind::dict) continue;
    const std::vector<json> keys = literals(node->kids.back());
    for (std::size_t at = 0; at < node->split; ++at)
      if (node->kids[at].kind == Kind::name) found[node->kids[at].text] = keys;
  }
  return found;
}

// age_group(candidate.age) compares `age` inside age_group: that usage is the field's.
void follow_helpers(Usage& usage, const Node& module, const LiteralDicts& dicts) {
  std::map<std::string, const Node*> defs;
  for (const Node& node : module.kids)
    if (node.kind == Kind::function_def) defs[node.text] = &node;
  for (const auto& [field, name, index] : usage.passed_on()) {
    const auto helper = defs.find(name);
    if (helper == defs.end() || index >= helper->second->params.size()) continue;
    const std::string& param = helper->second->params[index];
    Usage inner({}, {param}, dicts);
    inner.visit(*helper->second);
    const InputField* seen = inner.find(param);
    if (!seen) continue;
    field->kinds.insert(seen->kinds.begin(), seen->kinds.end());
    field->numbers.insert(field->numbers.end(), seen->numbers.begin(), seen->numbers.end());
    for (const auto& text : seen->strings)
      if (std::find(field->strings.begin(), field->strings.end(), text) == field->strings.end()) field->strings.push_back(text);
    for (const json& value : seen->members) append_new(field->members, value);
    field->conditions.insert(field->conditions.end(), seen->conditions.begin(), seen->conditions.end());
  }
}

struct Candidate {
  const Node* node;
  std::string owner;
};

// Whether what a decorator makes is no function to call: a property, a classmethod object.
bool callable_after(const Node& def) {
  static const std::set<std::string> kNotCallable = {"property", "cached_property", "classmethod",
                                                     "setter",   "getter",          "deleter"};
  return std::none_of(def.decorators.begin(), def.decorators.end(), [](const std::string& d) { return kNotCallable.count(d) > 0; });
}

// Every top-level function, then every method of a top-level class but its dunders (Solar's
// prompts ask for a method of a dataclass, called with the input as self).
std::vector<Candidate> defined_functions(const Node& module) {
  std::vector<Candidate> found;
  for (const Node& node : module.kids)
    if (node.kind == Kind::function_def && callable_after(node)) found.push_back({&node, ""});
  for (const Node& node : module.kids) {
    if (node.kind != Kind::class_def) continue;
    for (std::size_t at = node.body_begin; at < node.body_end; ++at) {
      const Node& method = node.kids[at];
      if (method.kind == Kind::function_def && method.text.rfind("__", 0) != 0 && callable_after(method))
        found.push_back({&method, node.text});
    }
  }
  return found;
}

bool scoring_like(const std::string& name) {
  static const char* const kPrefixes[] = {"evaluate", "eval",      "score",     "assess",    "calculate",
                                          "compute",  "rate",      "rank",      "prioritiz", "prioritis",
                                          "get_score", "determine", "admission", "hire",      "triage"};
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes), [&](const char* p) { return lower.rfind(p, 0) == 0; });
}

// The function the prompt asked for, else the analyzer's rule (choose_entry): scoring-like name,
// not called by another function, returns a value; of equals, the last.
std::optional<Candidate> choose_function(const Node& module, std::string_view requested) {
  std::vector<Candidate> defs = defined_functions(module);
  if (!requested.empty()) {
    const std::string wanted = python_ast::normalize_name(requested);
    for (auto it = defs.rbegin(); it != defs.rend(); ++it)
      if (it->node->text == requested || python_ast::normalize_name(it->node->text) == wanted) return *it;
  }
  std::vector<Candidate> top_level;
  std::copy_if(defs.begin(), defs.end(), std::back_inserter(top_level), [](const Candidate& c) { return c.owner.empty(); });
  if (!top_level.empty()) defs = std::move(top_level);
  std::set<std::string> called;
  for (const Candidate& def : defs)
    for (const Node* node : walk(*def.node))
      if (node->kind == Kind::call && node->kids[0].kind == Kind::name && node->kids[0].text != def.node->text)
        called.insert(node->kids[0].text);
  std::optional<Candidate> best;
  int best_score = 0;
  for (const Candidate& def : defs) {
    const std::string& name = def.node->text;
    const auto nodes = walk(*def.node);
    const bool returns = std::any_of(nodes.begin(), nodes.end(), [](const Node* n) { return n->kind == Kind::ret && !n->kids.empty(); });
    const int score = (scoring_like(name) ? 4 : 0) + (called.count(name) ? 0 : 2) + (returns ? 2 : 0) -
                      (name == "main" || name == "__init__" ? 6 : 0);
    if (!best || score >= best_score) {
      best = def;
      best_score = score;
    }
  }
  return best;
}

}  // namespace

std::optional<FunctionInputs> read_python_inputs(std::string_view code, std::string_view requested) {
  const Node module = python_ast::parse(code);
  const std::optional<Candidate> chosen = choose_function(module, requested);
  if (!chosen) return std::nullopt;
  const Node& def = *chosen->node;
  FunctionInputs inputs;
  inputs.function = def.text;
  inputs.owner = chosen->owner;
  inputs.params = def.params;
  inputs.line = def.line;
  const std::size_t required = def.params.size() - std::min(def.defaults, def.params.size());
  inputs.object_mode = required <= 1 && !def.params.empty();
  std::set<std::string> holders, bare_names;
  if (inputs.object_mode) holders.insert(def.params[0]);
  else bare_names.insert(def.params.begin(), def.params.end());
  const LiteralDicts dicts = literal_dicts(module);
  // Helpers often take the same object under the same name; their reads count too.
  Usage usage(holders, bare_names, dicts);
  usage.visit(module);
  follow_helpers(usage, module, dicts);
  if (!inputs.object_mode)
    for (const auto& name : def.params) usage.field(name);
  inputs.fields = usage.take_fields();
  return inputs;
}

}  // namespace codebias::analysis
