// Optional fields of JSON the project writes itself (prompt metadata, provenance, analyses):
// absent, null or of another type reads as empty. Input from users is read by checked readers
// that name the file, line and field instead (suites/, run/run_options.cpp, base/jsonl.h).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace codebias::base {

// object[key] when it is a string, else "" (also when `object` is not an object).
inline std::string string_or_empty(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace codebias::base
