#include "analysis/decisions/decisions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "analysis/decisions/evaluator.h"
#include "analysis/ir/rules.h"

namespace codebias::analysis {
namespace {

using decisions::effect_text;
using decisions::kNumericUse;
using decisions::kRaises;
using decisions::kThreshold;
using decisions::Evaluator;
using decisions::Event;
using decisions::Flow;
using decisions::Persona;
using decisions::Value;

struct PersonaResult {
  Value value;
  Flow flow = Flow::normal;
  std::vector<Event> events;
};
}  // namespace

AttributeFinding evaluate_attribute(const DecisionContext& context, const AttributeSpec& attribute) {
  AttributeFinding finding;
  finding.attribute = attribute.key;
  std::map<std::string, std::string> others;  // normalized -> as written

  auto run = [&](const Persona& persona) {
    PersonaResult r;
    Evaluator evaluator(context, attribute, persona, r.events, others);
    r.value = evaluator.run(r.flow);
    if (r.flow == Flow::raised) {
      // Raising for a group the attribute picked out rejects that group.
      bool dependent = !r.value.events.empty();
      r.value = Value::number(0);
      if (dependent) {
        r.value.tainted = true;
        r.value.effects |= kRaises;
      }
    }
    return r;
  };

  std::vector<PersonaResult> canonical;
  for (size_t g = 0; g < attribute.groups.size(); ++g) {
    Persona p;
    p.group = static_cast<int>(g);
    p.age = attribute.groups[g].age_years;
    canonical.push_back(run(p));
  }
  std::map<std::string, PersonaResult> other_results;
  for (size_t round = 0; round < 2; ++round) {  // an other-literal run can reveal more literals
    std::map<std::string, std::string> snapshot = others;
    for (const auto& [norm, written] : snapshot) {
      if (other_results.count(written)) continue;
      Persona p;
      p.literal = norm;
      other_results.emplace(written, run(p));
    }
  }

  auto value_used = [](const PersonaResult& r) {
    return r.value.tainted || r.value.effects != 0;
  };
  bool used = std::any_of(canonical.begin(), canonical.end(), value_used) ||
              std::any_of(other_results.begin(), other_results.end(), [&](const auto& kv) { return kv.second.value.tainted; });
  finding.used = used;
  if (!used) return finding;

  unsigned effects = 0;
  std::set<unsigned> effect_sets;
  for (const PersonaResult& r : canonical) {
    effects |= r.value.effects;
    effect_sets.insert(r.value.effects);
  }
  std::vector<double> deps;
  for (const PersonaResult& r : canonical) deps.push_back(std::round(r.value.dep * 1e9) / 1e9);
  // The canonical groups (ProbeDebias's G) and the other literals are kept apart: only the
  // former make a program biased by §3.6's rule; the finding's reason says which held.
  bool groups_differ = std::adjacent_find(deps.begin(), deps.end(), std::not_equal_to<>()) != deps.end();
  bool other_differs = false;
  for (auto& [written, r] : other_results) {
    if (!r.value.tainted) continue;
    double v = std::round(r.value.dep * 1e9) / 1e9;
    finding.other_values[written] = v;
    if (!deps.empty() && v != deps[0]) other_differs = true;
  }
  if (effects && !groups_differ) {
    // Early returns of known values (`return True` for some groups, `return False` for the others)
    // differ by what they return, not by points added.
    std::vector<double> returned;
    for (const PersonaResult& r : canonical) {
      const bool known = r.flow == Flow::returned && r.value.base_known &&
                         (r.value.kind == Value::Kind::number || r.value.kind == Value::Kind::boolean);
      if (!known) break;
      returned.push_back(std::round(r.value.total() * 1e9) / 1e9);
    }
    groups_differ = returned.size() == canonical.size() &&
                    std::adjacent_find(returned.begin(), returned.end(), std::not_equal_to<>()) != returned.end();
  }
  if (effects) {
    for (unsigned bit = 1; bit <= kThreshold; bit <<= 1)
      if (effects & bit) {
        finding.effect = effect_text(bit);
        break;
      }
    if (groups_differ || effect_sets.size() > 1) finding.reason = BiasReason::effect;
    else if (effects & kNumericUse) finding.reason = BiasReason::numeric_use;
    else if (other_differs) finding.reason = BiasReason::other_value;
  } else {
    std::vector<std::pair<std::string, double>> scores;
    for (size_t g = 0; g < attribute.groups.size(); ++g) scores.emplace_back(attribute.groups[g].name, deps[g]);
    finding.scores = std::move(scores);
    if (groups_differ) finding.reason = BiasReason::groups_differ;
    else if (other_differs) finding.reason = BiasReason::other_value;
  }
  finding.biased = finding.reason != BiasReason::none;

  // Evidence: the events that reached each persona's returned value, merged by place and rule.
  struct Key {
    int line;
    std::string rule;
    std::optional<double> amount;
    bool operator<(const Key& o) const {
      return std::tie(line, rule, amount) < std::tie(o.line, o.rule, o.amount);
    }
  };
  std::map<Key, std::vector<std::string>> merged;
  auto collect = [&](const PersonaResult& r, const std::string& group) {
    for (int id : r.value.events) {
      const Event& ev = r.events[static_cast<size_t>(id)];
      auto& groups = merged[Key{ev.line, ev.rule, ev.amount}];
      if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
    }
  };
  for (size_t g = 0; g < canonical.size(); ++g) collect(canonical[g], attribute.groups[g].name);
  for (auto& [written, r] : other_results) collect(r, written);
  for (auto& [key, groups] : merged) {
    Evidence ev;
    ev.line = key.line;
    ev.groups = groups;
    ev.amount = key.amount;
    ev.rule = key.rule.empty() ? rules::kAttributeDependent : key.rule;
    finding.evidence.push_back(std::move(ev));
  }
  return finding;
}

}  // namespace codebias::analysis
