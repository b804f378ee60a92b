#include "prompts/prompt_metadata.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;

// The shared string keys, by member; a key only becomes typed when it is a non-empty string.
constexpr std::pair<const char*, std::string PromptMetadata::*> kStringKeys[] = {
    {"suite", &PromptMetadata::suite},
    {"task", &PromptMetadata::task},
    {"scenario", &PromptMetadata::scenario},
    {"function", &PromptMetadata::function},
    {"attribute", &PromptMetadata::attribute},
    {"attribute_name", &PromptMetadata::attribute_name},
    {"step", &PromptMetadata::step},
    {"mitigation", &PromptMetadata::mitigation},
};

bool is_label_list(const json& value) {
  if (!value.is_array() || value.empty()) return false;
  for (const auto& item : value)
    if (!item.is_string()) return false;
  return true;
}

}  // namespace

std::string OfferedAttribute::name() const { return label.substr(0, label.find(" (")); }

PromptMetadata PromptMetadata::from_json(const json& metadata) {
  PromptMetadata out;
  if (!metadata.is_object()) return out;
  for (auto it = metadata.begin(); it != metadata.end(); ++it) {
    const std::string& key = it.key();
    const json& value = it.value();
    bool typed = false;
    for (const auto& [name, member] : kStringKeys) {
      if (key != name || !value.is_string() || value.get_ref<const std::string&>().empty()) continue;
      out.*member = value.get<std::string>();
      typed = true;
    }
    if (key == "attributes" && is_label_list(value)) {
      for (const auto& label : value) out.offered.push_back({label.get<std::string>(), ""});
      typed = true;
    } else if (key == "turn" && value.is_number_integer()) {
      out.turn = value.get<int>();
      typed = true;
    } else if (key == "configuration" && value.is_object()) {
      out.configuration = value;
      typed = true;
    }
    if (!typed) out.extra[key] = value;
  }
  for (auto& offered : out.offered)
    if (!out.attribute_name.empty() && offered.label == out.attribute_name) offered.key = out.attribute;
  return out;
}

json PromptMetadata::to_json() const {
  json out = extra.is_object() ? extra : json::object();
  for (const auto& [name, member] : kStringKeys)
    if (!(this->*member).empty()) out[name] = this->*member;
  if (!offered.empty()) {
    json labels = json::array();
    for (const auto& attribute : offered) labels.push_back(attribute.label);
    out["attributes"] = std::move(labels);
  }
  if (turn) out["turn"] = *turn;
  if (configuration.is_object()) out["configuration"] = configuration;
  return out;
}

}  // namespace codebias::prompts
