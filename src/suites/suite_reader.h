// Reading a suite document (suites/suite.h): the checks every part shares, each failing with
// "<origin>: <field path>: <problem>". The suite's own parts are read in suites/suite.cpp, each
// task's part by its task (tasks/<task>/<task>_suite.cpp).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "suites/suite.h"
#include "suites/template_text.h"

namespace codebias::suites {

class SuiteReader {
 public:
  explicit SuiteReader(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;

  // Keys beginning with '_' are comments; any other key must be known, so typos surface.
  void check_object(const nlohmann::json& value, const std::string& path,
                    const std::vector<std::string_view>& known) const;
  const nlohmann::json* find(const nlohmann::json& object, std::string_view key) const;
  const nlohmann::json& require(const nlohmann::json& object, std::string_view key, const std::string& path) const;
  std::string string_at(const nlohmann::json& value, const std::string& path, bool allow_empty = false) const;
  std::string string_field(const nlohmann::json& object, std::string_view key, const std::string& path) const;
  std::string optional_string(const nlohmann::json& object, std::string_view key, const std::string& path) const;
  const nlohmann::json& array_field(const nlohmann::json& object, std::string_view key, const std::string& path,
                                    bool allow_empty = false) const;
  // Distinct non-empty strings.
  std::vector<std::string> strings(const nlohmann::json& object, std::string_view key, const std::string& path,
                                   bool allow_empty = false) const;
  void check_template(const std::string& text, const std::string& path, const TemplateValues& allowed) const;
  double number_at(const nlohmann::json& value, const std::string& path) const;
  // False when absent.
  bool boolean_field(const nlohmann::json& object, std::string_view key, const std::string& path) const;
  // Within 0..1; `fallback` when absent.
  double fraction_field(const nlohmann::json& object, std::string_view key, const std::string& path,
                        double fallback) const;
  // 1..100000; `fallback` when absent.
  int positive_int_field(const nlohmann::json& object, std::string_view key, const std::string& path,
                         int fallback) const;
  std::string one_of(const nlohmann::json& object, std::string_view key, const std::string& path,
                     std::initializer_list<std::string_view> known) const;
  // A sensitive attribute of the function part's scenarios (with the entity lists its prompts ask
  // about) or of the test-case part (without).
  SensitiveAttribute sensitive_attribute(const nlohmann::json& object, const std::string& path,
                                         bool with_entities) const;

 private:
  std::string origin_;
};

}  // namespace codebias::suites
