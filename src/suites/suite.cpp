#include "suites/suite.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "base/builtin_data.h"
#include "suites/suite_reader.h"

namespace codebias::suites {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "codebias-suite/1";

Prompting parse_prompting(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"system", "testcase_system", "demo_intro"});
  return Prompting{reader.string_field(object, "system", path), reader.string_field(object, "testcase_system", path),
                   reader.string_field(object, "demo_intro", path)};
}

PromptStyle parse_style(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"name", "description", "source", "system", "instruction"});
  return PromptStyle{reader.string_field(object, "name", path), reader.optional_string(object, "description", path),
                     reader.optional_string(object, "source", path), reader.optional_string(object, "system", path),
                     reader.optional_string(object, "instruction", path)};
}

EntityList entity_list(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"name", "group", "entities"});
  EntityList list{reader.string_field(object, "name", path), reader.optional_string(object, "group", path), {}};
  const json& entities = reader.array_field(object, "entities", path);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < entities.size(); ++i) {
    std::string here = path + ".entities[" + std::to_string(i) + "]";
    Entity entity;
    if (entities[i].is_string()) {
      entity.name = reader.string_at(entities[i], here);
    } else {
      reader.check_object(entities[i], here, {"name", "attributes"});
      entity.name = reader.string_field(entities[i], "name", here);
      entity.attributes = reader.strings(entities[i], "attributes", here);
    }
    if (!seen.insert(entity.name).second) reader.fail(here, "duplicate entity '" + entity.name + "'");
    list.entities.push_back(std::move(entity));
  }
  return list;
}

Scenario parse_scenario(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path,
                      {"key", "title", "source", "demos", "request", "function", "entity_case",
                       "entity_attribute_style", "attributes", "sensitive_attributes", "entity_lists"});
  Scenario scenario;
  scenario.key = reader.string_field(object, "key", path);
  scenario.title = reader.optional_string(object, "title", path);
  scenario.source = reader.optional_string(object, "source", path);

  const json& demos = reader.array_field(object, "demos", path, /*allow_empty=*/true);
  for (std::size_t i = 0; i < demos.size(); ++i) {
    std::string here = path + ".demos[" + std::to_string(i) + "]";
    reader.check_object(demos[i], here, {"user", "assistant"});
    scenario.demos.push_back(
        Demo{reader.string_field(demos[i], "user", here), reader.string_field(demos[i], "assistant", here)});
  }

  scenario.request = reader.string_field(object, "request", path);
  reader.check_template(scenario.request, path + ".request",
                        {{"entity", ""}, {"entity_id", ""}, {"function", ""}, {"attributes", ""}});
  scenario.function = reader.string_field(object, "function", path);
  reader.check_template(scenario.function, path + ".function", {{"entity", ""}, {"entity_id", ""}});

  std::string entity_case = reader.optional_string(object, "entity_case", path);
  if (entity_case == "lower") {
    scenario.entity_case = TextCase::lower;
  } else if (!entity_case.empty() && entity_case != "verbatim") {
    reader.fail(path + ".entity_case", "expected \"verbatim\" or \"lower\", got \"" + entity_case + "\"");
  }
  std::string style = reader.optional_string(object, "entity_attribute_style", path);
  if (style == "lower_snake") {
    scenario.entity_attribute_style = AttributeStyle::lower_snake;
  } else if (!style.empty() && style != "verbatim") {
    reader.fail(path + ".entity_attribute_style", "expected \"verbatim\" or \"lower_snake\", got \"" + style + "\"");
  }

  scenario.attributes = reader.strings(object, "attributes", path);
  if (std::count(scenario.attributes.begin(), scenario.attributes.end(), kSensitiveSlot) != 1) {
    reader.fail(path + ".attributes", "must hold \"" + std::string(kSensitiveSlot) + "\" exactly once");
  }

  const json& lists = reader.array_field(object, "entity_lists", path);
  for (std::size_t i = 0; i < lists.size(); ++i) {
    std::string here = path + ".entity_lists[" + std::to_string(i) + "]";
    EntityList list = entity_list(reader, lists[i], here);
    if (scenario.find_list(list.name) != nullptr) reader.fail(here + ".name", "duplicate list '" + list.name + "'");
    scenario.entity_lists.push_back(std::move(list));
  }

  const json& attributes = reader.array_field(object, "sensitive_attributes", path);
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    std::string here = path + ".sensitive_attributes[" + std::to_string(i) + "]";
    SensitiveAttribute attribute = reader.sensitive_attribute(attributes[i], here, /*with_entities=*/true);
    if (scenario.find_attribute(attribute.key) != nullptr)
      reader.fail(here + ".key", "duplicate attribute '" + attribute.key + "'");
    for (std::size_t j = 0; j < attribute.entities.size(); ++j) {
      const auto& source = attribute.entities[j];
      std::string source_path = here + ".entities[" + std::to_string(j) + "]";
      const EntityList* list = scenario.find_list(source.list);
      if (list == nullptr) reader.fail(source_path + ".list", "no entity list named '" + source.list + "'");
      if (source.count && *source.count > list->entities.size()) {
        reader.fail(source_path + ".count",
                    "list '" + source.list + "' has only " + std::to_string(list->entities.size()) + " entities");
      }
    }
    scenario.sensitive_attributes.push_back(std::move(attribute));
  }
  return scenario;
}

SuiteDefaults parse_defaults(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"task", "temperature"});
  SuiteDefaults defaults;
  defaults.task = reader.optional_string(object, "task", path);
  if (const json* temperature = reader.find(object, "temperature")) {
    defaults.temperature = reader.number_at(*temperature, path + ".temperature");
    if (*defaults.temperature < 0 || *defaults.temperature > 2)
      reader.fail(path + ".temperature", "must be within 0..2");
  }
  return defaults;
}

}  // namespace

const EntityList* Scenario::find_list(std::string_view name) const {
  for (const auto& list : entity_lists) {
    if (list.name == name) return &list;
  }
  return nullptr;
}

const SensitiveAttribute* Scenario::find_attribute(std::string_view key) const {
  for (const auto& attribute : sensitive_attributes) {
    if (attribute.key == key) return &attribute;
  }
  return nullptr;
}


const Scenario* Suite::find_scenario(std::string_view key) const {
  for (const auto& scenario : scenarios) {
    if (scenario.key == key) return &scenario;
  }
  return nullptr;
}

const PromptStyle* Suite::find_style(std::string_view name) const {
  for (const auto& style : styles) {
    if (style.name == name) return &style;
  }
  return nullptr;
}

namespace {

// "a", "b" or "c", each quoted.
std::string quoted_choice(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + std::string(names[i]) + "\"");
  }
  return out;
}

}  // namespace

Suite parse_suite(std::string_view json_text, std::string_view origin, std::span<const TaskPartParser> task_parts) {
  SuiteReader reader(origin);
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& error) {
    // Turn the byte offset into a line number a user can jump to.
    std::size_t offset = std::min<std::size_t>(error.byte, json_text.size());
    long line = 1 + static_cast<long>(std::count(json_text.begin(), json_text.begin() + static_cast<long>(offset), '\n'));
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + error.what());
  }
  std::vector<std::string_view> top_level = {"format",   "name",      "title",  "source",  "about",
                                             "defaults", "prompting", "styles", "function"};
  std::vector<std::string_view> parts = {"function"};
  for (const auto& part : task_parts) {
    top_level.push_back(part.key);
    parts.push_back(part.key);
  }
  reader.check_object(document, "(top level)", top_level);

  Suite suite;
  std::string format = reader.string_field(document, "format", "(top level)");
  if (format != kFormat) {
    reader.fail("format", "expected \"" + std::string(kFormat) + "\", got \"" + format + "\"");
  }
  suite.name = reader.string_field(document, "name", "(top level)");
  suite.title = reader.optional_string(document, "title", "(top level)");
  suite.source = reader.string_field(document, "source", "(top level)");
  if (const json* about = reader.find(document, "about")) {
    reader.check_object(*about, "about", {"measures", "paper", "example"});
    suite.about = {reader.optional_string(*about, "measures", "about"), reader.optional_string(*about, "paper", "about"),
                   reader.optional_string(*about, "example", "about")};
  }
  if (const json* defaults = reader.find(document, "defaults"))
    suite.defaults = parse_defaults(reader, *defaults, "defaults");
  // The FairCoder parts place their prompts with these sentences; the pipelines part has its own.
  const bool faircoder_parts = reader.find(document, "function") != nullptr ||
                               std::any_of(task_parts.begin(), task_parts.end(), [&](const TaskPartParser& part) {
                                 return part.needs_prompting && reader.find(document, part.key);
                               });
  if (faircoder_parts || reader.find(document, "prompting") != nullptr) {
    suite.prompting = parse_prompting(reader, reader.require(document, "prompting", "(top level)"), "prompting");
  }
  const json& styles = reader.array_field(document, "styles", "(top level)");
  for (std::size_t i = 0; i < styles.size(); ++i) {
    std::string here = "styles[" + std::to_string(i) + "]";
    PromptStyle style = parse_style(reader, styles[i], here);
    if (suite.find_style(style.name) != nullptr) reader.fail(here + ".name", "duplicate style '" + style.name + "'");
    suite.styles.push_back(std::move(style));
  }

  if (const json* function = reader.find(document, "function")) {
    reader.check_object(*function, "function", {"scenarios"});
    const json& scenarios = reader.array_field(*function, "scenarios", "function");
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      std::string here = "function.scenarios[" + std::to_string(i) + "]";
      Scenario scenario = parse_scenario(reader, scenarios[i], here);
      if (suite.find_scenario(scenario.key) != nullptr) reader.fail(here + ".key", "duplicate scenario '" + scenario.key + "'");
      suite.scenarios.push_back(std::move(scenario));
    }
  }
  for (const auto& part : task_parts) {
    if (const json* raw = reader.find(document, part.key))
      suite.task_parts.emplace(part.key, part.parse(reader, *raw, suite));
  }
  if (suite.scenarios.empty() && suite.task_parts.empty()) {
    reader.fail("(top level)", "a suite needs " + quoted_choice(parts));
  }
  return suite;
}

Suite load_suite_file(const std::filesystem::path& path, std::span<const TaskPartParser> task_parts) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open suite file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error(path.string() + ": cannot read suite file");
  return parse_suite(text, path.string(), task_parts);
}

std::vector<std::string> builtin_suite_names() {
  std::vector<std::string> names;
  for (const data::BuiltinFile& file : data::builtin_suite_files()) names.emplace_back(file.name);
  return names;
}

BuiltinSuiteText builtin_suite_text(std::string_view name) {
  for (const data::BuiltinFile& file : data::builtin_suite_files())
    if (file.name == name) return {file.text, file.path};
  std::string known;
  for (const auto& known_name : builtin_suite_names()) known += (known.empty() ? "" : ", ") + known_name;
  throw std::invalid_argument("unknown suite '" + std::string(name) + "' (built-in suites: " + known +
                              "; use --suite-file for your own)");
}

std::vector<std::string> known_scenarios() {
  // Only the scenario keys are read (simdjson skips the rest): every command that reads response
  // lines checks their scenario, and parsing all six suites for it was most of its start-up.
  // The built-in suites are valid (tests/unit/suites), so no key needs checking here.
  simdjson::dom::parser parser;
  std::vector<std::string> keys;
  for (const auto& name : builtin_suite_names()) {
    const BuiltinSuiteText embedded = builtin_suite_text(name);
    simdjson::dom::array scenarios;
    if (parser.parse(embedded.json.data(), embedded.json.size()).at_pointer("/function/scenarios").get(scenarios) !=
        simdjson::SUCCESS)
      continue;  // a suite without a function task
    for (const auto scenario : scenarios) {
      std::string_view key;
      if (scenario["key"].get(key) != simdjson::SUCCESS) continue;
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.emplace_back(key);
    }
  }
  return keys;
}

}  // namespace codebias::suites
