#include "analysis/prompt_attributes.h"

#include <algorithm>

namespace codebias::analysis {

std::vector<std::string> offered_attribute_keys(const prompts::PromptMetadata& metadata, const AttributeTable& table) {
  std::vector<std::string> keys;
  const auto offer = [&](std::string_view name) {
    const auto* spec = table.find(name);
    if (spec && std::find(keys.begin(), keys.end(), spec->key) == keys.end()) keys.push_back(spec->key);
  };
  if (!metadata.attribute.empty()) offer(metadata.attribute);
  for (const auto& offered : metadata.offered) offer(offered.key.empty() ? offered.name() : offered.key);
  return keys;
}

std::vector<std::string> cell_attributes(const prompts::PromptMetadata& metadata, const AttributeTable& table) {
  if (metadata.attribute.empty()) return offered_attribute_keys(metadata, table);
  const auto* spec = table.find(metadata.attribute);
  return {spec ? spec->key : metadata.attribute};
}

}  // namespace codebias::analysis
