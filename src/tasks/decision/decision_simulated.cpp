// Decision functions of the simulated model: a Python function returning a boolean from one
// condition on a non-sensitive attribute, with each tested attribute's planted bias added as a
// condition, an early return or a score multiplier (docs/simulated-model.md, "Decision functions").
#include "tasks/decision/decision_simulated.h"

#include <algorithm>
#include <cmath>

#include "attributes/attributes.h"
#include "base/strings.h"
#include "prompts/prompt_metadata.h"
#include "generation/simulated/simulated_model_random.h"

namespace codebias::serve::sim {
namespace {

using nlohmann::json;

std::string literal(const json& value) {
  return value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump();
}

std::vector<std::string> strings_of(const json& metadata, const char* key) {
  std::vector<std::string> out;
  if (const auto it = metadata.find(key); it != metadata.end() && it->is_array())
    for (const auto& item : *it)
      if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

// The condition on a non-sensitive attribute the decision rests on: true for about half of its
// values, so that persona bases meet both outcomes.
std::string related_condition(const json& metadata, const std::vector<std::string>& tested, const std::string& self) {
  if (const auto domains = metadata.find("domains"); domains != metadata.end() && domains->is_object()) {
    for (const auto& [field, values] : domains->items()) {
      if (std::find(tested.begin(), tested.end(), field) != tested.end() || !values.is_array() || values.size() < 2)
        continue;
      std::vector<json> sorted(values.begin(), values.end());
      if (sorted.front().is_number()) {
        std::sort(sorted.begin(), sorted.end(), [](const json& a, const json& b) { return a.get<double>() < b.get<double>(); });
        return self + "." + field + " <= " + sorted[(sorted.size() - 1) / 2].dump();
      }
      std::string list;
      for (std::size_t i = 0; i < (sorted.size() + 1) / 2; ++i) list += (i ? ", " : "") + literal(sorted[i]);
      return self + "." + field + " in [" + list + "]";
    }
  }
  return self + ".experience >= 5";
}

struct Rejection {
  std::string key;
  std::string test;      // true for the rejected groups: "self.race in ['black']", "self.age > 52.5"
  std::string style;
};

// The groups one biased attribute rejects (at least one group is kept), and the test that picks
// them out; fills plan.planted.
Rejection reject_groups(const analysis::AttributeSpec& spec, const std::string& self, Stream& stream, AnswerPlan& plan) {
  Rejection r;
  r.key = spec.key;
  auto& planted = plan.planted[spec.key];
  for (const auto& group : spec.groups) planted[group.name] = 1;
  const std::size_t n = spec.groups.size();
  if (n >= 2 && spec.groups.front().age_years && spec.groups.back().age_years) {
    // Ages: the oldest or the youngest group is rejected by a threshold between it and its neighbour.
    const bool oldest = stream.chance(0.5);
    const auto& edge = oldest ? spec.groups[n - 1] : spec.groups[0];
    const auto& next = oldest ? spec.groups[n - 2] : spec.groups[1];
    const double threshold = (*edge.age_years + *next.age_years) / 2;
    r.test = self + ".age " + (oldest ? "> " : "< ") + base::short_number(threshold);
    planted[edge.name] = 0;
    return r;
  }
  const std::size_t rejected = std::max<std::size_t>(1, std::min<std::size_t>(n - 1, 1 + stream.below(2)));
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[stream.below(i)]);
  std::string list;
  for (std::size_t i = 0; i < rejected; ++i) {
    list += (i ? ", " : "") + literal(spec.groups[order[i]].name);
    planted[spec.groups[order[i]].name] = 0;
  }
  r.test = self + "." + spec.key + " in [" + list + "]";
  return r;
}

}  // namespace

SimulatedAnswer decision_answer(const AnswerRequest& request) {
  const DecisionProfile& profile = request.profile.decisions;
  const std::uint64_t seed = request.seed;
  SimulatedAnswer answer;
  answer.plan.language = "python";
  const json metadata = request.metadata->to_json();
  std::string function = request.metadata->function;
  const bool method = !function.empty();  // Solar asks for a method of its dataclass
  if (function.empty()) function = "decide";
  const std::string self = method ? "self" : "person";
  const std::vector<std::string> tested = strings_of(metadata, "sensitive");
  const std::string related = related_condition(metadata, tested, self);

  std::string code = "def " + function + "(" + self + ") -> bool:\n";
  if (Stream(seed, "decision:crash").chance(profile.crash_rate)) {
    answer.plan.crashes = true;
    answer.plan.style = "crash";
    // A helper the answer never defines: NameError on every call, whatever the persona.
    code += "    return meets_income_threshold(" + self + ") and " + related + "\n";
    answer.content = "```python\n" + code + "```";
    return answer;
  }

  const std::string table_name = metadata.value("attribute_table", "faircoder");
  const analysis::AttributeTable& table = analysis::AttributeTable::builtin(table_name);
  std::vector<Rejection> rejections;
  for (const auto& key : tested) {
    const analysis::AttributeSpec* spec = table.find(key);
    if (spec == nullptr || spec->groups.size() < 2) continue;
    Stream stream(seed, "decision:" + key);
    if (!stream.chance(profile.bias_for(key))) continue;
    Rejection r = reject_groups(*spec, self, stream, answer.plan);
    r.style = profile.styles[stream.pick(profile.styles, [](const WeightedName& w) { return w.weight; })].name;
    rejections.push_back(std::move(r));
  }

  std::string returned = related;
  bool scored = false;
  for (const auto& r : rejections) {
    if (r.style == "early_return") {
      code += "    if " + r.test + ":\n        return False\n";
    } else if (r.style == "multiplier") {
      if (!scored) code += "    score = 1.0\n";
      scored = true;
      code += "    if " + r.test + ":\n        score *= 0.5\n";
    } else {
      returned += " and not (" + r.test + ")";
    }
  }
  if (scored) returned += " and score >= 1.0";
  code += "    return " + returned + "\n";
  answer.plan.style = rejections.empty() ? "fair" : "biased";
  answer.content = "```python\n" + code + "```";
  return answer;
}

}  // namespace codebias::serve::sim
