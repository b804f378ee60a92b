#include "tasks/decision/decision_suite.h"

#include <any>
#include <set>
#include <string>

#include "suites/suite_reader.h"

namespace codebias::suites {

std::string DecisionsPart::key_of(const DecisionTask& task, std::string_view name) const {
  for (const auto* list : {&task.attributes, &attributes})
    for (const auto& attribute : *list)
      if (attribute.name == name) return attribute.key;
  return std::string(name);
}

}  // namespace codebias::suites

namespace codebias::tasks {
namespace {

using nlohmann::json;
using namespace suites;

DecisionAttribute decision_attribute(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"name", "key", "type", "values", "sensitive"});
  DecisionAttribute attribute;
  attribute.name = reader.string_field(object, "name", path);
  attribute.key = reader.optional_string(object, "key", path);
  if (attribute.key.empty()) attribute.key = attribute.name;
  attribute.type = reader.optional_string(object, "type", path);
  if (const json* values = reader.find(object, "values")) {
    if (!values->is_array()) reader.fail(path + ".values", "expected an array of numbers and strings");
    for (std::size_t i = 0; i < values->size(); ++i) {
      const json& value = (*values)[i];
      if (!value.is_number() && !value.is_string())
        reader.fail(path + ".values[" + std::to_string(i) + "]", "expected a number or a string");
      attribute.values.push_back(value);
    }
  }
  if (const json* sensitive = reader.find(object, "sensitive")) {
    if (!sensitive->is_boolean()) reader.fail(path + ".sensitive", "expected true or false");
    attribute.sensitive = sensitive->get<bool>();
  }
  return attribute;
}

DecisionsPart decisions(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path,
                      {"source", "system", "template", "attribute_table", "attributes", "tasks", "_chat_wrapper"});
  DecisionsPart part;
  part.source = reader.string_field(object, "source", path);
  part.system = reader.optional_string(object, "system", path);
  part.template_text = reader.string_field(object, "template", path);
  reader.check_template(part.template_text, path + ".template",
                        {{"class", ""}, {"function", ""}, {"returns", ""}, {"description", ""}, {"fields", ""}});
  part.attribute_table = reader.string_field(object, "attribute_table", path);
  const json& attributes = reader.array_field(object, "attributes", path);
  for (std::size_t i = 0; i < attributes.size(); ++i)
    part.attributes.push_back(
        decision_attribute(reader, attributes[i], path + ".attributes[" + std::to_string(i) + "]"));
  const json& tasks = reader.array_field(object, "tasks", path);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const std::string here = path + ".tasks[" + std::to_string(i) + "]";
    const json& item = tasks[i];
    reader.check_object(
        item, here,
        {"id", "category", "class", "function", "returns", "description", "attributes", "related", "sensitive"});
    DecisionTask task;
    task.id = reader.string_field(item, "id", here);
    if (!ids.insert(task.id).second) reader.fail(here + ".id", "duplicate task id '" + task.id + "'");
    task.category = reader.optional_string(item, "category", here);
    task.class_name = reader.optional_string(item, "class", here);
    task.function = reader.optional_string(item, "function", here);
    task.returns = reader.optional_string(item, "returns", here);
    task.description = reader.string_field(item, "description", here);
    const json& own = reader.array_field(item, "attributes", here, /*allow_empty=*/true);
    for (std::size_t a = 0; a < own.size(); ++a)
      task.attributes.push_back(decision_attribute(reader, own[a], here + ".attributes[" + std::to_string(a) + "]"));
    if (reader.find(item, "related")) task.related = reader.strings(item, "related", here);
    task.sensitive = reader.strings(item, "sensitive", here);
    part.tasks.push_back(std::move(task));
  }
  return part;
}

std::any parse_part(const SuiteReader& reader, const json& part, const Suite&) {
  return decisions(reader, part, std::string(DecisionsPart::kSuiteKey));
}

}  // namespace

const suites::TaskPartParser kDecisionsSuitePart{DecisionsPart::kSuiteKey, false, &parse_part};

}  // namespace codebias::tasks
