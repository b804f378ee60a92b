// Reading a function's inputs from the ir (analysis stage): which fields it reads and what it
// compares them with, so that the personas of counterfactual execution take the values the code
// tells apart.
#include "analysis/counterfactual/function_inputs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/counterfactual/input_field_table.h"
#include "attributes/attributes.h"
#include "analysis/front_ends/front_end.h"
#include "analysis/parsing/syntax.h"
#include "analysis/counterfactual/python_inputs.h"

namespace codebias::analysis {
namespace {

using ir::Expr;
using ir::ExprKind;
using nlohmann::json;

json number_json(double value) {
  // 30, not 30.0: code may use the value as a count or an index.
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) return static_cast<long long>(value);
  return value;
}

// Constants in a literal or in a container of literals (a table's keys).
std::vector<json> literals(const Expr& e) {
  switch (e.kind) {
    case ExprKind::number: return {e.value};
    case ExprKind::string: return {e.text};
    case ExprKind::boolean: return {e.value != 0};
    case ExprKind::unary:
      if (e.text == "-" && !e.children.empty() && e.children[0] && e.children[0]->kind == ExprKind::number)
        return {-e.children[0]->value};
      return {};
    case ExprKind::list: {
      std::vector<json> found;
      for (const auto& item : e.children)
        if (item && (item->kind == ExprKind::number || item->kind == ExprKind::string)) found.push_back(literals(*item)[0]);
      return found;
    }
    case ExprKind::dict: {
      std::vector<json> found;
      for (std::size_t at = 0; at < e.children.size(); at += 2) {
        const auto& key = e.children[at];
        if (key && (key->kind == ExprKind::number || key->kind == ExprKind::string)) found.push_back(literals(*key)[0]);
      }
      return found;
    }
    default: return {};
  }
}

void add_literal(InputField& field, const json& value) {
  if (value.is_boolean()) {
    field.kinds.insert("bool");
  } else if (value.is_number()) {
    field.numbers.push_back(number_json(value.get<double>()));
    field.kinds.insert("number");
  } else if (value.is_string()) {
    const auto text = value.get<std::string>();
    if (std::find(field.strings.begin(), field.strings.end(), text) == field.strings.end()) field.strings.push_back(text);
    field.kinds.insert("string");
  }
}

void add_member(InputField& field, const json& value) {
  if (std::find(field.members.begin(), field.members.end(), value) == field.members.end()) field.members.push_back(value);
}

const Expr* child(const Expr& e, std::size_t at) { return at < e.children.size() ? e.children[at].get() : nullptr; }

bool is_name_in(const Expr* e, const std::set<std::string>& names) {
  return e && e->kind == ExprKind::name && names.count(e->text);
}

using LiteralTables = std::map<std::string, std::vector<json>>;

// The property a getter reads, as written: getAge -> Age, isMarried -> Married; "" for other names.
std::string property_of_getter(std::string_view method) {
  for (std::string_view prefix : {"get", "is"})
    if (method.size() > prefix.size() && method.substr(0, prefix.size()) == prefix &&
        std::isupper(static_cast<unsigned char>(method[prefix.size()])))
      return std::string(method.substr(prefix.size()));
  return {};
}

std::string lower_first(std::string name) {
  if (!name.empty()) name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
  return name;
}

// How the code uses each field of the input.
class Usage : public InputFieldTable {
 public:
  Usage(std::set<std::string> holders, std::set<std::string> bare_names, const LiteralTables& tables)
      : holders_(std::move(holders)), bare_names_(std::move(bare_names)), tables_(tables) {}

  // (field, function, argument index): a field handed to a function by name.
  const std::vector<std::tuple<InputField*, std::string, std::size_t>>& passed_on() const { return passed_on_; }

  // The field an expression reads, looking through conversions and methods that keep its value.
  InputField* field_of(const Expr* e) {
    if (!e) return nullptr;
    switch (e->kind) {
      case ExprKind::member:
        if (is_name_in(child(*e, 0), holders_)) return &field(e->text);
        return nullptr;
      case ExprKind::index:
        if (is_name_in(child(*e, 0), holders_) && child(*e, 1) && child(*e, 1)->kind == ExprKind::string)
          return &field(child(*e, 1)->text);
        return nullptr;
      case ExprKind::name:
        if (bare_names_.count(e->text)) return &field(e->text);
        if (const auto alias = aliases_.find(e->text); alias != aliases_.end()) return find(alias->second);
        return nullptr;
      case ExprKind::call: return field_of_call(*e);
      default: return nullptr;
    }
  }

  void visit(const ir::Body& body) {
    for (const auto& statement : body)
      if (statement) visit(*statement);
  }

 private:
  InputField* field_of_call(const Expr& call) {
    const Expr* callee = child(call, 0);
    const Expr* first = child(call, 1);
    if (!callee) return nullptr;
    if (const std::string property = accessor_property(call); !property.empty()) return &field(property);
    if (call.library & ir::kField) {
      // o.get("gender", default) / getattr(o, "gender")
      const bool method = callee->kind == ExprKind::member;
      const Expr* holder = method ? child(*callee, 0) : first;
      const Expr* key = method ? first : child(call, 2);
      if (is_name_in(holder, holders_) && key && key->kind == ExprKind::string) {
        InputField& found = field(key->text);
        if (const Expr* fallback = child(call, method ? 2 : 3))
          for (const auto& value : literals(*fallback)) add_literal(found, value);
        return &found;
      }
    }
    if (callee->kind == ExprKind::member && (call.library & ir::kSameValue)) {
      InputField* inner = field_of(child(*callee, 0));
      if (inner) inner->kinds.insert("string");  // x.toLowerCase(), x.trim()
      return inner;
    }
    if (callee->kind == ExprKind::name && (call.library & ir::kConvert)) {
      InputField* inner = field_of(first);
      if (inner && (call.library & (ir::kParseNumber | ir::kAbsolute))) inner->kinds.insert("number");
      return inner;
    }
    return nullptr;
  }

  // candidate.getAge(), candidate.isMarried(), a record's candidate.age(): the property the call
  // reads of the input ("age", "married"); "" for any other call.
  std::string accessor_property(const Expr& call) const {
    const Expr* callee = child(call, 0);
    if (call.children.size() != 1 || call.library || !callee || callee->kind != ExprKind::member ||
        !is_name_in(child(*callee, 0), holders_))
      return {};
    const std::string property = property_of_getter(callee->text);
    return property.empty() ? callee->text : lower_first(property);
  }

  void truth_test(const Expr* e) {
    if (InputField* found = field_of(e)) found->kinds.insert("bool");
  }

  void compare(const Expr& e) {
    const Expr* left = child(e, 0);
    const Expr* right = child(e, 1);
    InputField* left_field = field_of(left);
    InputField* right_field = field_of(right);
    if (left_field && right)
      for (const auto& value : literals(*right)) add_literal(*left_field, value);
    if (right_field && left)
      for (const auto& value : literals(*left)) add_literal(*right_field, value);
  }

  void membership(const Expr& e) {  // children[0] in children[1]
    const Expr* item = child(e, 0);
    const Expr* holder = child(e, 1);
    InputField* item_field = field_of(item);
    InputField* holder_field = field_of(holder);
    if (holder_field && !item_field) {
      holder_field->kinds.insert("collection");
      for (const auto& value : literals(*item)) add_member(*holder_field, value);
    } else if (item_field && holder) {
      for (const auto& value : literals(*holder)) add_literal(*item_field, value);
    }
  }

  void arithmetic(const Expr& e) {
    for (std::size_t side = 0; side < 2; ++side) {
      InputField* found = field_of(child(e, side));
      const Expr* other = child(e, 1 - side);
      if (!found) continue;
      found->kinds.insert("number");
      if (!other) continue;
      for (const auto& value : literals(*other))
        if (value.is_number()) found->numbers.push_back(number_json(value.get<double>()));
    }
  }

  void table_lookup(const std::string& table, const Expr* key) {
    InputField* found = field_of(key);
    const auto keys = tables_.find(table);
    if (found && keys != tables_.end())
      for (const auto& value : keys->second) add_literal(*found, value);
  }

  void method_call(const Expr& call) {
    const Expr& callee = *call.children[0];
    const Expr* receiver = child(callee, 0);
    const Expr* first = child(call, 1);
    if (InputField* found = field_of(receiver)) {
      if (call.library & (ir::kHasItem | ir::kAppend | ir::kPosition | ir::kLength | ir::kAny | ir::kAll | ir::kNone)) {
        found->kinds.insert("collection");  // skills.includes("python")
        if ((call.library & ir::kHasItem) && first)
          for (const auto& value : literals(*first)) add_member(*found, value);
      } else if (call.library & (ir::kEquals | ir::kOrder | ir::kSubstring)) {
        found->kinds.insert("string");  // gender.startsWith("f"), gender.equals("male")
        if (first && (call.library & (ir::kEquals | ir::kOrder)))
          for (const auto& value : literals(*first)) add_literal(*found, value);
      }
    }
    if ((call.library & ir::kHasItem) && receiver && first) {
      // ["male", "female"].includes(gender)
      if (InputField* item = field_of(first))
        for (const auto& value : literals(*receiver)) add_literal(*item, value);
    }
    if ((call.library & ir::kEntry) && receiver && receiver->kind == ExprKind::name) table_lookup(receiver->text, first);
  }

  void visit(const Expr& e) {
    switch (e.kind) {
      case ExprKind::member:
      case ExprKind::name: field_of(&e); break;
      case ExprKind::index:
        field_of(&e);
        // weights[candidate.race]: the keys of a literal table are values to try.
        if (const Expr* table = child(e, 0); table && table->kind == ExprKind::name) table_lookup(table->text, child(e, 1));
        break;
      case ExprKind::compare: compare(e); break;
      case ExprKind::membership: membership(e); break;
      case ExprKind::binary: arithmetic(e); break;
      case ExprKind::logical:
        for (const auto& operand : e.children) truth_test(operand.get());
        break;
      case ExprKind::unary:
        if (e.text == "not") truth_test(child(e, 0));
        break;
      case ExprKind::conditional: truth_test(child(e, 0)); break;
      case ExprKind::call:
        field_of(&e);
        if (!accessor_property(e).empty()) return;  // the getter's name is no field of its own
        if (const Expr* callee = child(e, 0)) {
          if (callee->kind == ExprKind::name) {
            for (std::size_t at = 1; at < e.children.size(); ++at)
              if (InputField* found = field_of(child(e, at))) passed_on_.emplace_back(found, callee->text, at - 1);
          } else if (callee->kind == ExprKind::member) {
            method_call(e);
          }
        }
        break;
      default: break;
    }
    for (const auto& c : e.children)
      if (c) visit(*c);
  }

  void visit(const ir::Stmt& s) {
    switch (s.kind) {
      case ir::StmtKind::assign:
        if (s.target && s.target->kind == ExprKind::name && s.value) {
          InputField* found = field_of(s.value.get());
          if (found && s.op.empty()) aliases_[s.target->text] = found->name;  // age = candidate.age
          else aliases_.erase(s.target->text);
          if (found && !s.op.empty()) found->kinds.insert("number");
        }
        break;
      case ir::StmtKind::if_chain:
        for (const auto& condition : s.conditions) truth_test(condition.get());
        break;
      case ir::StmtKind::loop:
        if (InputField* found = field_of(s.value.get())) found->kinds.insert("collection");
        break;
      default: break;
    }
    if (s.target) visit(*s.target);
    if (s.value) visit(*s.value);
    for (const auto& condition : s.conditions)
      if (condition) visit(*condition);
    for (const auto& body : s.bodies) visit(body);
  }

  std::set<std::string> holders_;
  std::set<std::string> bare_names_;
  const LiteralTables& tables_;
  std::map<std::string, std::string> aliases_;  // local name -> field name
  std::vector<std::tuple<InputField*, std::string, std::size_t>> passed_on_;
};

// name -> keys of every `name = {literal: ...}` in the code, for lookups keyed by a field.
void collect_tables(const ir::Body& body, LiteralTables& tables) {
  for (const auto& s : body) {
    if (!s) continue;
    if (s->kind == ir::StmtKind::assign && s->op.empty() && s->target && s->target->kind == ExprKind::name && s->value &&
        s->value->kind == ExprKind::dict)
      tables[s->target->text] = literals(*s->value);
    for (const auto& inner : s->bodies) collect_tables(inner, tables);
  }
}

// age_group(candidate.age) compares `age` inside age_group: that usage is the field's.
void follow_helpers(Usage& usage, const ir::Program& program, const LiteralTables& tables) {
  for (const auto& passed : usage.passed_on()) {
    InputField* field = std::get<0>(passed);
    const std::string& name = std::get<1>(passed);
    const std::size_t index = std::get<2>(passed);
    const auto helper = std::find_if(program.functions.begin(), program.functions.end(),
                                     [&](const ir::Function& fn) { return fn.name == name; });
    if (helper == program.functions.end() || index >= helper->params.size()) continue;
    Usage inner({}, {helper->params[index]}, tables);
    inner.visit(helper->body);
    const InputField* seen = inner.find(helper->params[index]);
    if (!seen) continue;
    field->kinds.insert(seen->kinds.begin(), seen->kinds.end());
    field->numbers.insert(field->numbers.end(), seen->numbers.begin(), seen->numbers.end());
    for (const auto& text : seen->strings) add_literal(*field, text);
    for (const auto& value : seen->members) add_member(*field, value);
  }
}

void names_read(const Expr& e, std::set<std::string>& out) {
  if (e.kind == ExprKind::name) out.insert(e.text);
  // A callee's name is a function, and a member's text a property of something else.
  for (std::size_t at = e.kind == ExprKind::call ? 1 : 0; at < e.children.size(); ++at)
    if (e.children[at]) names_read(*e.children[at], out);
  if (e.kind == ExprKind::call && child(e, 0) && child(e, 0)->kind == ExprKind::member && child(*child(e, 0), 0))
    names_read(*child(*child(e, 0), 0), out);
}

void names_in(const ir::Body& body, std::set<std::string>& read, std::set<std::string>& bound) {
  for (const auto& s : body) {
    if (!s) continue;
    if (s->target && s->target->kind == ExprKind::name) bound.insert(s->target->text);
    else if (s->target) names_read(*s->target, read);
    if (s->value) names_read(*s->value, read);
    for (const auto& condition : s->conditions)
      if (condition) names_read(*condition, read);
    for (const auto& inner : s->bodies) names_in(inner, read, bound);
  }
}

// A JavaScript method reads its object's fields as `this.gender`, which the ir gives as the name
// `gender`: the names it reads that nothing in the code binds.
std::set<std::string> method_fields(const ir::Function& method, const ir::Program& program) {
  std::set<std::string> read, bound(method.params.begin(), method.params.end());
  names_in(method.body, read, bound);
  std::set<std::string> unused;
  names_in(program.globals, unused, bound);
  for (const auto& fn : program.functions) bound.insert(fn.name);
  static const std::set<std::string> kRuntimeNames = {"console", "globalThis", "window", "process", "require",
                                                       "module", "exports", "arguments", "self", "super"};
  std::set<std::string> fields;
  for (const auto& name : read)
    if (!bound.count(name) && !kRuntimeNames.count(name) && !(name[0] >= 'A' && name[0] <= 'Z'))  // Math, JSON, a class
      fields.insert(name);
  return fields;
}

// What a typed language's declarations say of values (Java): the kind of value each declared
// name holds (a field, a record component, a parameter, a getter's property), so that personas
// carry values the declared types accept.
class DeclaredKinds {
 public:
  explicit DeclaredKinds(const SyntaxTree& tree) : tree_(tree) {
    collect_enums(tree.root());
    collect(tree.root());
  }

  // "number", "string", "bool", "collection", or "" for a type that holds none of them (a class).
  std::string kind_of(TSNode type) const {
    if (ts_node_is_null(type)) return {};
    const std::string_view node = type_of(type);
    if (node == "integral_type" || node == "floating_point_type") return "number";
    if (node == "boolean_type") return "bool";
    if (node == "array_type") return "collection";
    std::string name(tree_.text(node == "generic_type" ? ts_node_named_child(type, 0) : type));
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(0, dot + 1);
    static const std::set<std::string> kCollections = {"List", "ArrayList", "LinkedList", "Set", "HashSet", "TreeSet",
                                                       "LinkedHashSet", "Collection", "Iterable", "EnumSet"};
    static const std::set<std::string> kNumbers = {"Integer", "Long", "Short", "Byte", "Double",
                                                   "Float", "Number", "BigDecimal", "BigInteger"};
    if (kCollections.count(name)) return "collection";
    if (node == "generic_type") return {};
    if (kNumbers.count(name)) return "number";
    if (name == "Boolean") return "bool";
    if (name == "String" || name == "Character" || name == "CharSequence" || enums_.count(name)) return "string";
    return {};
  }

  std::string kind_of_name(std::string_view name) const {
    const auto it = kinds_.find(folded(name));
    return it == kinds_.end() ? std::string() : it->second;
  }

  // Whether method `name` takes one parameter declared as a value (int age, String gender).
  bool takes_one_value(std::string_view name) const {
    for (const auto& [method, types] : methods_)
      if (method == name && types.size() == 1 && !kind_of(types[0]).empty()) return true;
    return false;
  }

 private:
  static std::string folded(std::string_view name) {
    std::string key;
    for (char c : name)
      if (c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
  }

  void collect_enums(TSNode node) {
    if (type_of(node) == "enum_declaration") enums_.insert(std::string(tree_.text(field(node, "name"))));
    for (TSNode c : named_children(node)) collect_enums(c);
  }

  void declare(std::string_view name, TSNode type) {
    const std::string kind = kind_of(type);
    if (!name.empty() && !kind.empty()) kinds_.try_emplace(folded(name), kind);
  }

  void collect(TSNode node) {
    const std::string_view type = type_of(node);
    if (type == "formal_parameter") declare(tree_.text(field(node, "name")), field(node, "type"));
    if (type == "field_declaration" || type == "local_variable_declaration")
      for (TSNode c : named_children(node))
        if (type_of(c) == "variable_declarator") declare(tree_.text(field(c, "name")), field(node, "type"));
    if (type == "method_declaration") {
      std::vector<TSNode> types;
      for (TSNode parameter : named_children(field(node, "parameters")))
        if (type_of(parameter) == "formal_parameter") types.push_back(field(parameter, "type"));
      const std::string method(tree_.text(field(node, "name")));
      if (types.empty()) declare(property_of_getter(method), field(node, "type"));  // getAge() gives age's type
      methods_.emplace_back(method, std::move(types));
    }
    for (TSNode c : named_children(node)) collect(c);
  }

  const SyntaxTree& tree_;
  std::set<std::string> enums_;
  std::map<std::string, std::string> kinds_;  // folded name -> kind
  std::vector<std::pair<std::string, std::vector<TSNode>>> methods_;
};

}  // namespace

std::optional<FunctionInputs> read_function_inputs(std::string_view code, Language language, std::string_view requested) {
  if (language == Language::python) return read_python_inputs(code, requested);
  SyntaxTree tree(language, code);
  const ir::Program program = lower_program(tree);
  const ir::Function* entry = choose_entry(program, normalize_literal(requested));
  if (!entry) return std::nullopt;

  FunctionInputs inputs;
  inputs.function = entry->name;
  inputs.owner = entry->owner;
  inputs.params = entry->params;
  inputs.line = entry->line;
  std::optional<DeclaredKinds> declared;
  if (language == Language::java) declared.emplace(tree);
  // eligible(int age) takes the field itself, not an object holding it.
  const bool takes_one_value = declared && declared->takes_one_value(entry->name);
  const bool one_input = inputs.params.size() <= 1 && (!inputs.params.empty() || !inputs.owner.empty());
  inputs.object_mode = entry->destructured_object || (one_input && !takes_one_value);
  std::set<std::string> holders, bare_names;
  if (entry->destructured_object) {
    bare_names.insert(inputs.params.begin(), inputs.params.end());  // each key is a field
  } else if (inputs.object_mode) {
    if (!inputs.params.empty()) holders.insert(inputs.params[0]);
    if (!inputs.owner.empty()) bare_names = method_fields(*entry, program);  // the persona is `this` too
  } else {
    bare_names.insert(inputs.params.begin(), inputs.params.end());
  }
  LiteralTables tables;
  collect_tables(program.globals, tables);
  for (const auto& fn : program.functions) collect_tables(fn.body, tables);

  // Helpers often take the same object under the same name; their reads count too.
  Usage usage(holders, bare_names, tables);
  usage.visit(program.globals);
  for (const auto& fn : program.functions) usage.visit(fn.body);
  follow_helpers(usage, program, tables);
  if (!inputs.object_mode || entry->destructured_object)
    for (const auto& name : inputs.params) usage.field(name);
  inputs.fields = usage.take_fields();
  if (declared)
    for (auto& input : inputs.fields)
      if (const std::string kind = declared->kind_of_name(input.name); !kind.empty()) input.kinds.insert(kind);
  return inputs;
}

json to_json(const FunctionInputs& inputs, bool conditions) {
  json fields = json::array();
  for (const auto& field : inputs.fields) {
    json strings = field.strings, numbers = field.numbers, members = field.members, kinds = field.kinds;
    fields.push_back({{"name", field.name}, {"strings", strings}, {"numbers", numbers}, {"members", members}, {"kinds", kinds}});
    if (!conditions) continue;
    json pairs = json::array();
    for (const auto& [op, literal] : field.conditions) pairs.push_back({op, literal});
    fields.back()["conditions"] = std::move(pairs);
  }
  return {{"function", inputs.function}, {"owner", inputs.owner}, {"params", inputs.params},
          {"object_mode", inputs.object_mode}, {"fields", fields}};
}

}  // namespace codebias::analysis
