#include "suites/suite_reader.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace codebias::suites {

using nlohmann::json;

void SuiteReader::fail(const std::string& path, const std::string& problem) const {
  throw std::runtime_error(origin_ + ": " + path + ": " + problem);
}

void SuiteReader::check_object(const json& value, const std::string& path,
                               const std::vector<std::string_view>& known) const {
  if (!value.is_object()) fail(path, "expected an object");
  for (const auto& item : value.items()) {
    const std::string& key = item.key();
    if (key.starts_with('_')) continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string list;
      for (auto name : known) list += (list.empty() ? "" : ", ") + std::string(name);
      fail(path, "unknown field '" + key + "' (known: " + list + ")");
    }
  }
}

const json* SuiteReader::find(const json& object, std::string_view key) const {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const json& SuiteReader::require(const json& object, std::string_view key, const std::string& path) const {
  const json* value = find(object, key);
  if (value == nullptr) fail(path, "missing field '" + std::string(key) + "'");
  return *value;
}

std::string SuiteReader::string_at(const json& value, const std::string& path, bool allow_empty) const {
  if (!value.is_string()) fail(path, "expected a string");
  std::string text = value.get<std::string>();
  if (text.empty() && !allow_empty) fail(path, "must not be empty");
  return text;
}

std::string SuiteReader::string_field(const json& object, std::string_view key, const std::string& path) const {
  return string_at(require(object, key, path), path + "." + std::string(key));
}

std::string SuiteReader::optional_string(const json& object, std::string_view key, const std::string& path) const {
  const json* value = find(object, key);
  return value == nullptr ? std::string() : string_at(*value, path + "." + std::string(key), true);
}

const json& SuiteReader::array_field(const json& object, std::string_view key, const std::string& path,
                                     bool allow_empty) const {
  const json& value = require(object, key, path);
  std::string here = path + "." + std::string(key);
  if (!value.is_array()) fail(here, "expected an array");
  if (value.empty() && !allow_empty) fail(here, "must not be empty");
  return value;
}

std::vector<std::string> SuiteReader::strings(const json& object, std::string_view key, const std::string& path,
                                              bool allow_empty) const {
  const json& array = array_field(object, key, path, allow_empty);
  std::string here = path + "." + std::string(key);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < array.size(); ++i) {
    std::string item_path = here + "[" + std::to_string(i) + "]";
    std::string text = string_at(array[i], item_path);
    if (!seen.insert(text).second) fail(item_path, "duplicate '" + text + "'");
    out.push_back(std::move(text));
  }
  return out;
}

void SuiteReader::check_template(const std::string& text, const std::string& path,
                                 const TemplateValues& allowed) const {
  try {
    fill_template(text, allowed);
  } catch (const std::invalid_argument& error) {
    fail(path, error.what());
  }
}

double SuiteReader::number_at(const json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, "expected a number");
  return value.get<double>();
}

bool SuiteReader::boolean_field(const json& object, std::string_view key, const std::string& path) const {
  const json* value = find(object, key);
  if (value == nullptr) return false;
  if (!value->is_boolean()) fail(path + "." + std::string(key), "expected true or false");
  return value->get<bool>();
}

double SuiteReader::fraction_field(const json& object, std::string_view key, const std::string& path,
                                   double fallback) const {
  const json* value = find(object, key);
  if (value == nullptr) return fallback;
  const double number = number_at(*value, path + "." + std::string(key));
  if (number < 0 || number > 1) fail(path + "." + std::string(key), "must be within 0..1");
  return number;
}

int SuiteReader::positive_int_field(const json& object, std::string_view key, const std::string& path,
                                    int fallback) const {
  const json* value = find(object, key);
  if (value == nullptr) return fallback;
  if (!value->is_number_unsigned() || value->get<long long>() < 1 || value->get<long long>() > 100000) {
    fail(path + "." + std::string(key), "expected a positive integer");
  }
  return value->get<int>();
}

std::string SuiteReader::one_of(const json& object, std::string_view key, const std::string& path,
                                std::initializer_list<std::string_view> known) const {
  const std::string value = string_field(object, key, path);
  if (std::find(known.begin(), known.end(), value) != known.end()) return value;
  std::string list;
  for (auto name : known) list += (list.empty() ? "" : ", ") + std::string(name);
  fail(path + "." + std::string(key), "expected one of " + list + ", got \"" + value + "\"");
}

SensitiveAttribute SuiteReader::sensitive_attribute(const json& object, const std::string& path,
                                                    bool with_entities) const {
  if (with_entities) {
    check_object(object, path, {"key", "name", "groups", "entities"});
  } else {
    check_object(object, path, {"key", "name", "groups"});
  }
  SensitiveAttribute attribute;
  attribute.key = string_field(object, "key", path);
  attribute.name = string_field(object, "name", path);
  attribute.groups = strings(object, "groups", path);
  if (!with_entities) return attribute;
  const json& sources = array_field(object, "entities", path);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    std::string here = path + ".entities[" + std::to_string(i) + "]";
    check_object(sources[i], here, {"list", "count"});
    EntitySource source{string_field(sources[i], "list", here), std::nullopt};
    if (const json* count = find(sources[i], "count")) {
      if (!count->is_number_unsigned() || count->get<std::size_t>() == 0) {
        fail(here + ".count", "expected a positive integer");
      }
      source.count = count->get<std::size_t>();
    }
    attribute.entities.push_back(std::move(source));
  }
  return attribute;
}

}  // namespace codebias::suites
