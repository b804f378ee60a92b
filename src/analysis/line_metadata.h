// Reading the prompt metadata of an input line, shared by the tasks whose lines carry it
// (test cases, ML pipelines): a key is looked up under "metadata" when that object has it, else
// at the top level, and a problem names the field as the line spelled it ("metadata.topic").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::analysis {

struct FieldFailure {
  std::string field;
  std::string message;
};

class LineMetadata {
 public:
  explicit LineMetadata(const nlohmann::json& doc);

  // The key's value (null counts as missing); `path` is set to where it was found, or to where
  // it belongs when it is missing.
  const nlohmann::json* find(const char* key, std::string& path) const;
  std::string path(const char* key) const;

 private:
  const nlohmann::json& doc_;
  const nlohmann::json* nested_ = nullptr;
};

// "expected <what>, got <the value's JSON type>"
std::string expected_type(const char* what, const nlohmann::json& value);

// The line's "id" (a string or an integer; the line number when it has none) and its "response"
// string. On a failure `id` is set when it was read.
std::optional<FieldFailure> read_id_and_response(const nlohmann::json& doc, long line_number, std::string& id,
                                                 std::string& response);

// A string key into `out`; a missing key is a failure when `required`.
std::optional<FieldFailure> read_string(const LineMetadata& meta, const char* key, bool required, std::string& out);
// An array of strings into `out`.
std::optional<FieldFailure> read_strings(const LineMetadata& meta, const char* key, bool required,
                                         std::vector<std::string>& out);

}  // namespace codebias::analysis
