#include "prompts/mitigation_prompts.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/builtin_data.h"
#include "suites/template_text.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;

constexpr const char* kOrigin = "data/mitigations/strategies.json";

std::string text(const json& object, const char* key, const std::string& where, bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (required) throw std::runtime_error(std::string(kOrigin) + ": " + where + "." + key + ": missing");
    return "";
  }
  if (!it->is_string()) throw std::runtime_error(std::string(kOrigin) + ": " + where + "." + key + ": expected a string");
  return it->get<std::string>();
}

std::vector<MitigationStrategy> load() {
  const json doc = json::parse(data::builtin_mitigation_strategies_json());
  std::vector<MitigationStrategy> out;
  const json& list = doc.at("strategies");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& entry = list[i];
    const std::string where = "strategies[" + std::to_string(i) + "]";
    MitigationStrategy s;
    s.name = text(entry, "name", where, true);
    const std::string kind = text(entry, "kind", where, true);
    if (kind == "none") s.kind = MitigationStrategy::Kind::none;
    else if (kind == "prompt") s.kind = MitigationStrategy::Kind::prompt;
    else if (kind == "rewrite") s.kind = MitigationStrategy::Kind::rewrite;
    else if (kind == "repair") s.kind = MitigationStrategy::Kind::repair;
    else throw std::runtime_error(std::string(kOrigin) + ": " + where + ".kind: none, prompt, rewrite or repair, not " + kind);
    s.description = text(entry, "description", where, true);
    s.source = text(entry, "source", where, true);
    s.system = text(entry, "system", where, false);
    s.instruction = text(entry, "instruction", where, false);
    s.rewrite = text(entry, "rewrite", where, s.kind == MitigationStrategy::Kind::rewrite);
    s.repair = text(entry, "repair", where, s.kind == MitigationStrategy::Kind::repair);
    if (s.kind == MitigationStrategy::Kind::repair) {
      const auto rounds = entry.find("rounds");
      if (rounds == entry.end() || !rounds->is_number_integer() || rounds->get<int>() < 1)
        throw std::runtime_error(std::string(kOrigin) + ": " + where + ".rounds: expected a whole number of at least 1");
      s.rounds = rounds->get<int>();
    }
    if (const auto examples = entry.find("examples"); examples != entry.end()) {
      for (std::size_t e = 0; e < examples->size(); ++e) {
        const std::string at = where + ".examples[" + std::to_string(e) + "]";
        s.examples.push_back({text((*examples)[e], "user", at, true), text((*examples)[e], "assistant", at, true)});
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

const std::vector<MitigationStrategy>& mitigation_strategies() {
  static const std::vector<MitigationStrategy> strategies = load();
  return strategies;
}

const MitigationStrategy* find_mitigation_strategy(std::string_view name) {
  for (const MitigationStrategy& s : mitigation_strategies())
    if (s.name == name) return &s;
  return nullptr;
}

std::string mitigation_strategy_names() {
  std::string names;
  for (const MitigationStrategy& s : mitigation_strategies()) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

std::vector<ChatMessage> apply_mitigation(const MitigationStrategy& strategy,
                                                      std::vector<ChatMessage> messages) {
  if (strategy.kind != MitigationStrategy::Kind::prompt) return messages;
  std::vector<ChatMessage> out;
  std::size_t first = 0;
  if (!strategy.system.empty()) {
    std::string system = strategy.system;
    if (!messages.empty() && messages[0].role == "system") {
      system += "\n\n" + messages[0].content;
      first = 1;
    }
    out.push_back({"system", system});
  }
  for (const FewShotExample& example : strategy.examples) {
    out.push_back({"user", example.user});
    out.push_back({"assistant", example.assistant});
  }
  for (std::size_t i = first; i < messages.size(); ++i) out.push_back(messages[i]);
  if (!strategy.instruction.empty()) {
    for (auto it = out.rbegin(); it != out.rend(); ++it) {
      if (it->role == "user") {
        it->content += "\n\n" + strategy.instruction;
        break;
      }
    }
  }
  return out;
}

std::string rewrite_request(const MitigationStrategy& strategy, std::string_view trace) {
  return suites::fill_template(strategy.rewrite, {{"trace", trace}});
}

std::string repair_request(const MitigationStrategy& strategy, std::string_view attributes, std::string_view findings) {
  return suites::fill_template(strategy.repair, {{"attributes", attributes}, {"findings", findings}});
}

}  // namespace codebias::prompts
