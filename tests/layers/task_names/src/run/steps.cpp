#include "base/json_fields.h"
bool screening(const nlohmann::json& m) { return base::string_or_empty(m, "task") == "resume"; }
bool pandas_category(const std::string& attribute) { return attribute == "cat"; }  // not a task name
std::string text_of(const nlohmann::json& object, const char* key) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
}
