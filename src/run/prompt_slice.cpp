#include "run/prompt_slice.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "base/json_fields.h"

namespace codebias::run {
namespace {

// The metadata fields the prompt builders group prompts by; a slice's note says how many of
// each field's values it keeps.
constexpr const char* kStrataFields[] = {"scenario", "attribute", "topic", "category", "dataset", "path", "domain"};

std::string coverage(const std::vector<prompts::Prompt>& all, const std::vector<prompts::Prompt>& kept) {
  std::string out;
  for (const char* field : kStrataFields) {
    std::set<std::string> in_all, in_kept;
    for (const auto& prompt : all) in_all.insert(base::string_or_empty(prompt.metadata, field));
    for (const auto& prompt : kept) in_kept.insert(base::string_or_empty(prompt.metadata, field));
    in_all.erase("");
    in_kept.erase("");
    if (in_all.size() < 2) continue;
    out += std::string(out.empty() ? "" : ", ") + field + " " + std::to_string(in_kept.size()) + " of " +
           std::to_string(in_all.size());
  }
  return out;
}

}  // namespace

std::vector<prompts::Prompt> first_entities_per_group(std::vector<prompts::Prompt> all, int k) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::string>> seen;
  std::vector<prompts::Prompt> kept;
  for (auto& prompt : all) {
    const auto& m = prompt.metadata;
    auto& entities = seen[{base::string_or_empty(m, "scenario"), base::string_or_empty(m, "attribute"),
                           base::string_or_empty(m, "group")}];
    const std::string entity = base::string_or_empty(m, "entity");
    const bool known = std::find(entities.begin(), entities.end(), entity) != entities.end();
    if (!known) {
      if (static_cast<int>(entities.size()) >= k) continue;
      entities.push_back(entity);
    }
    kept.push_back(std::move(prompt));
  }
  return kept;
}

LimitedPrompts spread_limit(std::vector<prompts::Prompt> all, std::size_t limit) {
  if (all.size() <= limit) return {std::move(all), ""};
  LimitedPrompts limited;
  for (std::size_t i = 0; i < limit; ++i) limited.kept.push_back(all[(2 * i + 1) * all.size() / (2 * limit)]);
  const std::string covered = coverage(all, limited.kept);
  limited.note = "--limit " + std::to_string(limit) + " keeps " + std::to_string(limit) + " of " +
                 std::to_string(all.size()) + " prompts, spread evenly over the suite" +
                 (covered.empty() ? "" : ": " + covered);
  return limited;
}

}  // namespace codebias::run
