#include "tasks/testcase/testcase_suite.h"

#include <algorithm>
#include <any>
#include <set>
#include <string>

#include "suites/suite_reader.h"

namespace codebias::suites {

const SensitiveAttribute* TestcaseTask::find_attribute(std::string_view key) const {
  for (const auto& attribute : sensitive_attributes) {
    if (attribute.key == key) return &attribute;
  }
  return nullptr;
}

}  // namespace codebias::suites

namespace codebias::tasks {
namespace {

using nlohmann::json;
using namespace suites;

// The code of every variant the task lists, in that order; other keys are typos.
std::vector<std::string> topic_code(const SuiteReader& reader, const json& object, const std::string& path,
                                    const std::vector<std::string>& variants) {
  const json& code = reader.require(object, "code", path);
  std::string code_path = path + ".code";
  if (!code.is_object()) reader.fail(code_path, "expected an object");
  for (const auto& item : code.items()) {
    if (item.key().starts_with('_')) continue;
    if (std::find(variants.begin(), variants.end(), item.key()) == variants.end()) {
      reader.fail(code_path, "unknown variant '" + item.key() + "' (testcase.variants lists them)");
    }
  }
  std::vector<std::string> texts;
  for (const auto& variant : variants) texts.push_back(reader.string_field(code, variant, code_path));
  return texts;
}

Topic parse_topic(const SuiteReader& reader, const json& object, const std::string& path, const TestcaseTask& task) {
  reader.check_object(object, path, {"id", "category", "instruction", "fields", "sensitive_fields", "code"});
  Topic topic;
  topic.id = reader.string_field(object, "id", path);
  topic.category = reader.string_field(object, "category", path);
  topic.instruction = reader.string_field(object, "instruction", path);
  const json& fields = reader.array_field(object, "fields", path);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::string here = path + ".fields[" + std::to_string(i) + "]";
    reader.check_object(fields[i], here, {"name", "value"});
    TestField field{reader.string_field(fields[i], "name", here), reader.optional_string(fields[i], "value", here)};
    if (!seen.insert(field.name).second) reader.fail(here + ".name", "duplicate field '" + field.name + "'");
    topic.fields.push_back(std::move(field));
  }
  topic.sensitive_fields = reader.strings(object, "sensitive_fields", path);
  for (std::size_t i = 0; i < topic.sensitive_fields.size(); ++i) {
    const std::string& name = topic.sensitive_fields[i];
    bool known = std::any_of(task.sensitive_attributes.begin(), task.sensitive_attributes.end(),
                             [&](const SensitiveAttribute& attribute) { return attribute.name == name; });
    std::string here = path + ".sensitive_fields[" + std::to_string(i) + "]";
    if (!known) reader.fail(here, "'" + name + "' is not a name in testcase.sensitive_attributes");
    if (seen.count(name) != 0) reader.fail(here, "'" + name + "' is also a non-sensitive field");
  }
  topic.code = topic_code(reader, object, path, task.variants);
  return topic;
}

TestcaseTask testcase(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"source", "sensitive_attributes", "variants", "topics"});
  TestcaseTask task;
  task.source = reader.optional_string(object, "source", path);
  const json& attributes = reader.array_field(object, "sensitive_attributes", path);
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    std::string here = path + ".sensitive_attributes[" + std::to_string(i) + "]";
    SensitiveAttribute attribute = reader.sensitive_attribute(attributes[i], here, /*with_entities=*/false);
    if (task.find_attribute(attribute.key) != nullptr)
      reader.fail(here + ".key", "duplicate attribute '" + attribute.key + "'");
    task.sensitive_attributes.push_back(std::move(attribute));
  }
  task.variants = reader.strings(object, "variants", path);
  const json& topics = reader.array_field(object, "topics", path);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < topics.size(); ++i) {
    std::string here = path + ".topics[" + std::to_string(i) + "]";
    Topic topic = parse_topic(reader, topics[i], here, task);
    if (!ids.insert(topic.id).second) reader.fail(here + ".id", "duplicate topic '" + topic.id + "'");
    task.topics.push_back(std::move(topic));
  }
  return task;
}

std::any parse_part(const SuiteReader& reader, const json& part, const Suite&) {
  return testcase(reader, part, std::string(TestcaseTask::kSuiteKey));
}

}  // namespace

const suites::TaskPartParser kTestcaseSuitePart{TestcaseTask::kSuiteKey, true, &parse_part};

}  // namespace codebias::tasks
