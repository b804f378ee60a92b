#include "analysis/line_metadata.h"

namespace codebias::analysis {

using nlohmann::json;

LineMetadata::LineMetadata(const json& doc) : doc_(doc) {
  auto it = doc.find("metadata");
  if (it != doc.end() && it->is_object()) nested_ = &*it;
}

const json* LineMetadata::find(const char* key, std::string& path) const {
  if (nested_ != nullptr) {
    auto it = nested_->find(key);
    if (it != nested_->end() && !it->is_null()) {
      path = std::string("metadata.") + key;
      return &*it;
    }
  }
  auto it = doc_.find(key);
  if (it != doc_.end() && !it->is_null()) {
    path = key;
    return &*it;
  }
  path = nested_ != nullptr ? std::string("metadata.") + key : std::string(key);  // where it belongs
  return nullptr;
}

std::string LineMetadata::path(const char* key) const {
  std::string out;
  find(key, out);
  return out;
}

std::string expected_type(const char* what, const json& value) {
  return std::string("expected ") + what + ", got " + value.type_name();
}

std::optional<FieldFailure> read_id_and_response(const json& doc, long line_number, std::string& id,
                                                 std::string& response) {
  auto it = doc.find("id");
  if (it == doc.end() || it->is_null()) id = std::to_string(line_number);
  else if (it->is_string()) id = it->get<std::string>();
  else if (it->is_number_integer()) id = std::to_string(it->get<long long>());
  else return FieldFailure{"id", expected_type("a string", *it)};
  auto text = doc.find("response");
  if (text == doc.end()) return FieldFailure{"response", "missing"};
  if (!text->is_string()) return FieldFailure{"response", expected_type("a string", *text)};
  response = text->get<std::string>();
  return std::nullopt;
}

std::optional<FieldFailure> read_string(const LineMetadata& meta, const char* key, bool required, std::string& out) {
  std::string path;
  const json* value = meta.find(key, path);
  if (value == nullptr) return required ? std::optional<FieldFailure>(FieldFailure{path, "missing"}) : std::nullopt;
  if (!value->is_string()) return FieldFailure{path, expected_type("a string", *value)};
  out = value->get<std::string>();
  return std::nullopt;
}

std::optional<FieldFailure> read_strings(const LineMetadata& meta, const char* key, bool required,
                                         std::vector<std::string>& out) {
  std::string path;
  const json* value = meta.find(key, path);
  if (value == nullptr) return required ? std::optional<FieldFailure>(FieldFailure{path, "missing"}) : std::nullopt;
  if (!value->is_array()) return FieldFailure{path, expected_type("an array of strings", *value)};
  for (std::size_t i = 0; i < value->size(); ++i) {
    if (!(*value)[i].is_string()) {
      return FieldFailure{path + "[" + std::to_string(i) + "]", expected_type("a string", (*value)[i])};
    }
    out.push_back((*value)[i].get<std::string>());
  }
  return std::nullopt;
}

}  // namespace codebias::analysis
