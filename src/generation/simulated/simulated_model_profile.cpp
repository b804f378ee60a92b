// Bias profile JSON -> BiasProfile (format: docs/simulated-model.md).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "attributes/attributes.h"
#include "base/builtin_data.h"
#include "generation/simulated/simulated_model.h"
#include "generation/simulated/simulated_model_request.h"
#include "suites/template_text.h"

namespace codebias::serve {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(std::string_view origin, const std::string& field, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": " + field + ": " + what);
}

double probability(const json& object, const char* key, double fallback, std::string_view origin,
                   const std::string& field) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  const std::string where = field + "." + key;
  if (!value.is_number()) fail(origin, where, "expected a number between 0 and 1");
  const double p = value.get<double>();
  if (!(p >= 0 && p <= 1)) fail(origin, where, "expected a number between 0 and 1, got " + value.dump());
  return p;
}

const json* object_member(const json& doc, const char* key, std::string_view origin, const std::string& field) {
  if (!doc.contains(key)) return nullptr;
  if (!doc.at(key).is_object()) fail(origin, field + key, "expected an object");
  return &doc.at(key);
}

// {"name": weight, ...}; `allowed` empty accepts any name.
std::vector<WeightedName> weights(const json& object, std::string_view origin, const std::string& field,
                                  const std::vector<std::string>& allowed) {
  std::vector<WeightedName> out;
  for (const auto& [name, value] : object.items()) {
    const std::string where = field + "." + name;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(origin, where, "unknown name (expected one of " + list + ")");
    }
    if (!value.is_number() || value.get<double>() < 0) fail(origin, where, "expected a weight >= 0");
    if (value.get<double>() > 0) out.push_back({name, value.get<double>()});
  }
  if (out.empty()) fail(origin, field, "expected at least one positive weight");
  return out;
}

std::vector<std::string> canonical_groups(const analysis::AttributeSpec& spec) {
  std::vector<std::string> out;
  for (const analysis::GroupSpec& g : spec.groups) out.push_back(g.name);
  return out;
}

std::string checked_group(const json& value, const analysis::AttributeSpec& spec, std::string_view origin,
                          const std::string& field) {
  if (!value.is_string()) fail(origin, field, "expected a group name");
  const int group = spec.group_of(value.get<std::string>());
  if (group < 0) fail(origin, field, "'" + value.get<std::string>() + "' is not a group of " + spec.key);
  return spec.groups[static_cast<size_t>(group)].name;
}

// "young" | ["black", "hispanic"] | [{"groups": [...], "weight": w}, ...]
std::vector<FavouredGroups> favoured(const json& value, const analysis::AttributeSpec& spec, std::string_view origin,
                                     const std::string& field) {
  if (value.is_string()) return {{{checked_group(value, spec, origin, field)}, 1}};
  if (!value.is_array() || value.empty())
    fail(origin, field, "expected a group, a list of groups or a list of {groups, weight}");
  if (value.front().is_string()) {
    FavouredGroups one;
    for (size_t i = 0; i < value.size(); ++i)
      one.groups.push_back(checked_group(value[i], spec, origin, field + "[" + std::to_string(i) + "]"));
    return {one};
  }
  std::vector<FavouredGroups> out;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string where = field + "[" + std::to_string(i) + "]";
    const json& option = value[i];
    if (!option.is_object() || !option.contains("groups") || !option["groups"].is_array() || option["groups"].empty())
      fail(origin, where + ".groups", "expected a non-empty list of groups");
    FavouredGroups f;
    for (size_t j = 0; j < option["groups"].size(); ++j)
      f.groups.push_back(
          checked_group(option["groups"][j], spec, origin, where + ".groups[" + std::to_string(j) + "]"));
    if (option.contains("weight")) {
      if (!option["weight"].is_number() || option["weight"].get<double>() <= 0)
        fail(origin, where + ".weight", "expected a weight > 0");
      f.weight = option["weight"].get<double>();
    }
    if (f.groups.size() >= spec.groups.size())
      fail(origin, where + ".groups", "favouring every group of " + spec.key + " is no preference");
    out.push_back(std::move(f));
  }
  return out;
}

AttributeBias attribute_bias(const std::string& key, const json& value, std::string_view origin,
                             const std::string& field) {
  const analysis::AttributeSpec* spec = analysis::AttributeTable::builtin().find(key);
  if (!spec) fail(origin, field, "unknown attribute (not in data/attributes/attributes.json)");
  if (!value.is_object()) fail(origin, field, "expected an object");
  AttributeBias bias;
  bias.attribute = spec->key;
  bias.bias_probability = probability(value, "bias_probability", 0, origin, field);
  if (value.contains("bias_probability_reasoning"))
    bias.bias_probability_reasoning = probability(value, "bias_probability_reasoning", 0, origin, field);
  if (value.contains("reasoning")) {
    const json& reasoning = value["reasoning"];
    const std::string where = field + ".reasoning";
    if (!reasoning.is_object()) fail(origin, where, "expected an object");
    if (bias.bias_probability_reasoning)
      fail(origin, where, "bias_probability_reasoning is implied by reasoning; give one of them");
    AttributeBias::TraceRelation relation;
    relation.trace_bias = probability(reasoning, "trace_bias", 0, origin, where);
    relation.code_given_biased_trace = probability(reasoning, "code_given_biased_trace", 0, origin, where);
    relation.code_given_unbiased_trace = probability(reasoning, "code_given_unbiased_trace", 0, origin, where);
    bias.trace_relation = relation;
    bias.bias_probability_reasoning = relation.trace_bias * relation.code_given_biased_trace +
                                      (1 - relation.trace_bias) * relation.code_given_unbiased_trace;
  }
  if (value.contains("points")) {
    const json& points = value["points"];
    if (!points.is_number_integer() || points.get<int>() < 1 || points.get<int>() > 100)
      fail(origin, field + ".points", "expected a whole number from 1 to 100");
    bias.points = points.get<int>();
  }
  const bool can_be_biased = bias.bias_probability > 0 || bias.bias_probability_reasoning.value_or(0) > 0 ||
                             (bias.trace_relation && bias.trace_relation->trace_bias > 0);
  if (value.contains("favoured"))
    bias.favoured = favoured(value["favoured"], *spec, origin, field + ".favoured");
  else if (can_be_biased)
    fail(origin, field + ".favoured", "required when a bias probability is above 0");
  return bias;
}

TestcaseFill testcase_fill(const std::string& key, const json& value, std::string_view origin,
                           const std::string& field) {
  const analysis::AttributeSpec* spec = analysis::AttributeTable::builtin().find(key);
  if (!spec) fail(origin, field, "unknown attribute (not in data/attributes/attributes.json)");
  if (!value.is_object()) fail(origin, field, "expected an object");
  TestcaseFill fill;
  fill.attribute = spec->key;
  fill.fill_probability = probability(value, "fill_probability", 0, origin, field);
  if (!value.contains("groups") || !value["groups"].is_object())
    fail(origin, field + ".groups", "expected {group: weight}");
  fill.groups = weights(value["groups"], origin, field + ".groups", canonical_groups(*spec));
  return fill;
}

std::vector<std::string> refusal_templates(const json& value, std::string_view origin) {
  if (!value.is_array() || value.empty()) fail(origin, "refusals", "expected a non-empty list of texts");
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string where = "refusals[" + std::to_string(i) + "]";
    if (!value[i].is_string() || value[i].get<std::string>().empty()) fail(origin, where, "expected a text");
    try {
      suites::fill_template(value[i].get<std::string>(), {{"attributes", ""}, {"entity", ""}});
    } catch (const std::invalid_argument& error) {
      fail(origin, where, error.what());
    }
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

std::vector<std::string> reasoning_cues(const json& value, std::string_view origin) {
  if (!value.is_array() || value.empty()) fail(origin, "reasoning.cues", "expected a non-empty list of texts");
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string() || value[i].get<std::string>().empty())
      fail(origin, "reasoning.cues[" + std::to_string(i) + "]", "expected a text");
    out.push_back(sim::lower_text(value[i].get<std::string>()));
  }
  return out;
}

FeatureRetention feature_retention(const json* object, std::string_view origin, const std::string& field) {
  FeatureRetention out;
  if (object == nullptr) return out;
  out.sensitive = probability(*object, "sensitive", 0, origin, field);
  out.irrelevant = probability(*object, "irrelevant", 0, origin, field);
  out.normal = probability(*object, "normal", 1, origin, field);
  return out;
}

PipelineProfile pipeline_profile(const json* doc, std::string_view origin) {
  PipelineProfile out;
  out.styles = {{"column_list", 1}};
  if (doc == nullptr) return out;
  out.conditional = feature_retention(object_member(*doc, "conditional", origin, "pipelines."), origin,
                                      "pipelines.conditional");
  out.pipeline = feature_retention(object_member(*doc, "pipeline", origin, "pipelines."), origin, "pipelines.pipeline");
  if (const json* factors = object_member(*doc, "mitigation_factor", origin, "pipelines.")) {
    for (const auto& [name, value] : factors->items()) {
      out.mitigation_factor[name] = probability(*factors, name.c_str(), 1, origin, "pipelines.mitigation_factor");
    }
  }
  if (const json* styles = object_member(*doc, "styles", origin, "pipelines.")) {
    out.styles = weights(*styles, origin, "pipelines.styles",
                         {"drop_columns", "column_list", "all_but_target", "column_transformer", "comprehension",
                          "positional", "dummies"});
  }
  return out;
}

DecisionProfile decision_profile(const json* doc, std::string_view origin) {
  DecisionProfile out;
  out.styles = {{"condition", 1}};
  if (doc == nullptr) return out;
  out.default_bias = probability(*doc, "default_bias", 0, origin, "decisions");
  out.crash_rate = probability(*doc, "crash_rate", 0, origin, "decisions");
  if (const json* rates = object_member(*doc, "bias_probability", origin, "decisions."))
    for (const auto& [key, value] : rates->items())
      out.bias_probability[key] = probability(*rates, key.c_str(), 0, origin, "decisions.bias_probability");
  if (const json* styles = object_member(*doc, "styles", origin, "decisions."))
    out.styles = weights(*styles, origin, "decisions.styles", {"condition", "early_return", "multiplier"});
  return out;
}

const std::vector<std::string> kJobAreas = {"Software Engineering", "Marketing",     "Project Management",
                                            "Finance",              "Sales",         "Nursing",
                                            "Mechanical Engineering", "Data Science", "Human Resources",
                                            "Education"};
const std::vector<std::string> kCatLabels = {"stereotype", "anti-stereotype", "neutral"};

// {"default": {...}, "API/Male": {...}, ...}: weights per group ("<ethnicity>/<gender>").
std::map<std::string, std::vector<WeightedName>> group_weights(const json& object, std::string_view origin,
                                                               const std::string& field,
                                                               const std::vector<std::string>& allowed) {
  static const std::vector<std::string> kEthnicities = {"White", "Black", "API", "Hispanic"};
  static const std::vector<std::string> kGenders = {"Male", "Female"};
  std::map<std::string, std::vector<WeightedName>> out;
  for (const auto& [key, value] : object.items()) {
    if (key.starts_with('_')) continue;
    const auto slash = key.find('/');
    const bool group = slash != std::string::npos &&
                       std::find(kEthnicities.begin(), kEthnicities.end(), key.substr(0, slash)) != kEthnicities.end() &&
                       std::find(kGenders.begin(), kGenders.end(), key.substr(slash + 1)) != kGenders.end();
    if (key != "default" && !group) {
      fail(origin, field + "." + key, "expected \"default\" or <White|Black|API|Hispanic>/<Male|Female>");
    }
    if (!value.is_object()) fail(origin, field + "." + key, "expected an object of weights");
    out[key] = weights(value, origin, field + "." + key, allowed);
  }
  return out;
}

ScreeningProfile screening_profile(const json* doc, std::string_view origin) {
  ScreeningProfile out;
  out.resume.formats = {{"markdown_json", 1}};
  out.resume.areas["default"] = {{"Software Engineering", 1}};
  out.cat.labels = {{"stereotype", 1}, {"anti-stereotype", 1}, {"neutral", 1}};
  out.cat.formats = {{"number", 1}};
  if (doc == nullptr) return out;
  if (const json* resume = object_member(*doc, "resume", origin, "screening.")) {
    const std::string field = "screening.resume";
    out.resume.refusal_rate = probability(*resume, "refusal_rate", 0, origin, field);
    out.resume.placeholder_rate = probability(*resume, "placeholder_rate", 0, origin, field);
    out.resume.missing_field_rate = probability(*resume, "missing_field_rate", 0, origin, field);
    out.resume.follow_up_answer_rate = probability(*resume, "follow_up_answer_rate", 1, origin, field);
    if (const json* formats = object_member(*resume, "formats", origin, field + ".")) {
      out.resume.formats = weights(*formats, origin, field + ".formats", {"markdown_json", "text_only", "json_only", "prose"});
    }
    if (const json* areas = object_member(*resume, "areas", origin, field + ".")) {
      out.resume.areas = group_weights(*areas, origin, field + ".areas", kJobAreas);
      if (out.resume.areas.count("default") == 0) fail(origin, field + ".areas", "needs a \"default\" entry");
    }
  }
  if (const json* cat = object_member(*doc, "cat", origin, "screening.")) {
    const std::string field = "screening.cat";
    out.cat.refusal_rate = probability(*cat, "refusal_rate", 0, origin, field);
    out.cat.position_rate = probability(*cat, "position_rate", 0, origin, field);
    if (cat->contains("preferred_position")) {
      const json& position = (*cat)["preferred_position"];
      if (!position.is_number_integer() || position.get<int>() < 1 || position.get<int>() > 3) {
        fail(origin, field + ".preferred_position", "expected 1, 2 or 3");
      }
      out.cat.preferred_position = position.get<int>();
    }
    if (const json* labels = object_member(*cat, "labels", origin, field + ".")) {
      out.cat.labels = weights(*labels, origin, field + ".labels", kCatLabels);
    }
    if (const json* by_group = object_member(*cat, "labels_by_group", origin, field + ".")) {
      out.cat.labels_by_group = group_weights(*by_group, origin, field + ".labels_by_group", kCatLabels);
      if (out.cat.labels_by_group.count("default") != 0) {
        fail(origin, field + ".labels_by_group.default", "the default is \"labels\"");
      }
    }
    if (const json* formats = object_member(*cat, "formats", origin, field + ".")) {
      out.cat.formats = weights(*formats, origin, field + ".formats", {"number", "option", "option_text", "sentence"});
    }
  }
  return out;
}

}  // namespace

const std::vector<WeightedName>& ResumeProfile::areas_for(std::string_view ethnicity, std::string_view gender) const {
  const auto it = areas.find(std::string(ethnicity) + "/" + std::string(gender));
  return it != areas.end() ? it->second : areas.at("default");
}

const std::vector<WeightedName>& CatProfile::labels_for(std::string_view ethnicity, std::string_view gender) const {
  const auto it = labels_by_group.find(std::string(ethnicity) + "/" + std::string(gender));
  return it != labels_by_group.end() ? it->second : labels;
}

const AttributeBias* BiasProfile::find_attribute(std::string_view key) const {
  for (const AttributeBias& a : attributes)
    if (a.attribute == key) return &a;
  return nullptr;
}

BiasProfile parse_bias_profile(std::string_view text, std::string_view origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(e.byte, text.size()));
    const auto line = 1 + std::count(text.begin(), end, '\n');
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + e.what());
  }
  if (!doc.is_object()) fail(origin, "(top level)", "expected an object");

  BiasProfile profile;
  if (doc.contains("model")) {
    if (!doc["model"].is_string() || doc["model"].get<std::string>().empty())
      fail(origin, "model", "expected a non-empty string");
    profile.model = doc["model"].get<std::string>();
  }
  if (doc.contains("source")) {
    if (!doc["source"].is_string()) fail(origin, "source", "expected a string");
    profile.source = doc["source"].get<std::string>();
  }
  if (const json* answers = object_member(doc, "answers", origin, "")) {
    profile.refusal_rate = probability(*answers, "refusal_rate", 0, origin, "answers");
    profile.truncation_rate = probability(*answers, "truncation_rate", 0, origin, "answers");
    profile.malformed_rate = probability(*answers, "malformed_rate", 0, origin, "answers");
    profile.prose_rate = probability(*answers, "prose_rate", 0, origin, "answers");
    if (profile.refusal_rate + profile.truncation_rate + profile.malformed_rate > 1)
      fail(origin, "answers", "refusal_rate + truncation_rate + malformed_rate must not exceed 1");
  }
  if (const json* repair = object_member(doc, "repair", origin, ""))
    profile.repair_remaining_bias = probability(*repair, "remaining_bias", 0.3, origin, "repair");
  if (const json* reasoning = object_member(doc, "reasoning", origin, "")) {
    profile.reasoning_when_asked = probability(*reasoning, "when_asked", 1, origin, "reasoning");
    profile.reasoning_unasked = probability(*reasoning, "unasked", 0, origin, "reasoning");
    if (reasoning->contains("cues")) profile.reasoning_cues = reasoning_cues((*reasoning)["cues"], origin);
    if (reasoning->contains("placement")) {
      const json& placement = (*reasoning)["placement"];
      if (placement == "reasoning_content")
        profile.reasoning_placement = ReasoningPlacement::reasoning_content;
      else if (placement == "think_tags")
        profile.reasoning_placement = ReasoningPlacement::think_tags;
      else
        fail(origin, "reasoning.placement", "expected \"reasoning_content\" or \"think_tags\"");
    }
  }
  const json* languages = object_member(doc, "languages", origin, "");
  profile.languages = languages ? weights(*languages, origin, "languages", {"python", "javascript", "java", "cpp"})
                                : std::vector<WeightedName>{{"python", 1}};
  const json* styles = object_member(doc, "styles", origin, "");
  profile.styles =
      styles ? weights(*styles, origin, "styles",
                       {"if_chain", "weight_table", "membership", "conditional", "helper_function", "early_return"})
             : std::vector<WeightedName>{{"if_chain", 1}};
  if (const json* attributes = object_member(doc, "attributes", origin, ""))
    for (const auto& [key, value] : attributes->items())
      profile.attributes.push_back(attribute_bias(key, value, origin, "attributes." + key));
  if (const json* testcase = object_member(doc, "testcase", origin, ""))
    for (const auto& [key, value] : testcase->items())
      profile.testcase.push_back(testcase_fill(key, value, origin, "testcase." + key));
  if (doc.contains("refusals")) profile.refusals = refusal_templates(doc["refusals"], origin);
  profile.pipelines = pipeline_profile(object_member(doc, "pipelines", origin, ""), origin);
  profile.screening = screening_profile(object_member(doc, "screening", origin, ""), origin);
  profile.decisions = decision_profile(object_member(doc, "decisions", origin, ""), origin);
  return profile;
}

double DecisionProfile::bias_for(const std::string& key) const {
  const auto it = bias_probability.find(key);
  return it == bias_probability.end() ? default_bias : it->second;
}

const BiasProfile& default_bias_profile() {
  static const BiasProfile profile =
      parse_bias_profile(data::builtin_simulated_profile_json(), "data/models/simulated-default.json");
  return profile;
}

}  // namespace codebias::serve
