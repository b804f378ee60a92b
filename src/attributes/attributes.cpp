#include <atomic>
#include "attributes/attributes.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/builtin_data.h"

namespace codebias::analysis {

uint64_t TableIdentity::next() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}
namespace {

using nlohmann::json;

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool token_matches(std::string_view pattern, std::string_view token) {
  if (!pattern.empty() && pattern.back() == '*') {
    pattern.remove_suffix(1);
    return token.substr(0, pattern.size()) == pattern;
  }
  return token == pattern;
}

bool has_token(const std::vector<std::string>& tokens, std::string_view pattern) {
  return std::any_of(tokens.begin(), tokens.end(),
                     [&](const std::string& t) { return token_matches(pattern, t); });
}

bool in_scenario(const std::vector<std::string>& scenarios, std::string_view scenario) {
  return scenarios.empty() ||
         std::find(scenarios.begin(), scenarios.end(), scenario) != scenarios.end();
}

// Field errors name the file and the JSON path of the field.
[[noreturn]] void fail(std::string_view origin, const std::string& path, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": field " + path + ": " + what);
}

std::string get_string(const json& j, std::string_view origin, const std::string& path) {
  if (!j.is_string()) fail(origin, path, "expected a string");
  return j.get<std::string>();
}

std::vector<std::string> get_strings(const json& j, std::string_view origin, const std::string& path,
                                     bool normalize) {
  if (!j.is_array()) fail(origin, path, "expected an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string s = get_string(j[i], origin, path + "[" + std::to_string(i) + "]");
    out.push_back(normalize ? normalize_literal(s) : s);
  }
  return out;
}

std::vector<std::string> lowered(std::vector<std::string> v) {
  for (auto& s : v) std::transform(s.begin(), s.end(), s.begin(), lower);
  return v;
}

AttributeSpec parse_attribute(const json& j, std::string_view origin, const std::string& path) {
  if (!j.is_object()) fail(origin, path, "expected an object");
  AttributeSpec spec;
  if (!j.contains("key")) fail(origin, path + ".key", "missing");
  spec.key = normalize_attribute_key(get_string(j["key"], origin, path + ".key"));
  if (!j.contains("groups") || !j["groups"].is_array() || j["groups"].empty())
    fail(origin, path + ".groups", "expected a non-empty array");
  for (size_t i = 0; i < j["groups"].size(); ++i) {
    const json& g = j["groups"][i];
    std::string gp = path + ".groups[" + std::to_string(i) + "]";
    if (!g.is_object() || !g.contains("name")) fail(origin, gp + ".name", "missing");
    GroupSpec group;
    group.name = get_string(g["name"], origin, gp + ".name");
    if (g.contains("synonyms")) group.synonyms = get_strings(g["synonyms"], origin, gp + ".synonyms", true);
    group.synonyms.push_back(normalize_literal(group.name));
    if (g.contains("age_years")) {
      if (!g["age_years"].is_number()) fail(origin, gp + ".age_years", "expected a number");
      group.age_years = g["age_years"].get<double>();
    }
    spec.groups.push_back(std::move(group));
  }
  if (j.contains("names")) {
    const json& names = j["names"];
    if (!names.is_array()) fail(origin, path + ".names", "expected an array");
    for (size_t i = 0; i < names.size(); ++i) {
      std::string np = path + ".names[" + std::to_string(i) + "]";
      NamePattern pattern;
      if (names[i].is_object()) {
        if (!names[i].contains("tokens")) fail(origin, np + ".tokens", "missing");
        pattern.tokens = lowered(get_strings(names[i]["tokens"], origin, np + ".tokens", false));
        if (names[i].contains("scenarios"))
          pattern.scenarios = get_strings(names[i]["scenarios"], origin, np + ".scenarios", false);
      } else {
        pattern.tokens = lowered(get_strings(names[i], origin, np, false));
      }
      if (pattern.tokens.empty()) fail(origin, np, "a name needs at least one token");
      spec.names.push_back(std::move(pattern));
    }
  }
  if (j.contains("flags")) {
    const json& flags = j["flags"];
    if (!flags.is_array()) fail(origin, path + ".flags", "expected an array");
    for (size_t i = 0; i < flags.size(); ++i) {
      std::string fp = path + ".flags[" + std::to_string(i) + "]";
      if (!flags[i].is_object()) fail(origin, fp, "expected an object");
      FlagPattern flag;
      if (!flags[i].contains("tokens")) fail(origin, fp + ".tokens", "missing");
      flag.tokens = lowered(get_strings(flags[i]["tokens"], origin, fp + ".tokens", false));
      if (!flags[i].contains("true_groups")) fail(origin, fp + ".true_groups", "missing");
      for (const std::string& name : get_strings(flags[i]["true_groups"], origin, fp + ".true_groups", false)) {
        auto it = std::find_if(spec.groups.begin(), spec.groups.end(),
                               [&](const GroupSpec& g) { return g.name == name; });
        if (it == spec.groups.end()) fail(origin, fp + ".true_groups", "unknown group '" + name + "'");
        flag.true_groups.push_back(static_cast<int>(it - spec.groups.begin()));
      }
      spec.flags.push_back(std::move(flag));
    }
  }
  if (j.contains("scenarios")) spec.scenarios = get_strings(j["scenarios"], origin, path + ".scenarios", false);
  return spec;
}

}  // namespace

std::string normalize_literal(std::string_view literal) {
  std::string out;
  out.reserve(literal.size());
  bool pending_space = false;
  for (char c : literal) {
    if (c == '\'') continue;  // master's -> masters
    if (is_alnum(c)) {
      if (pending_space && !out.empty()) out.push_back(' ');
      pending_space = false;
      out.push_back(lower(c));
    } else {
      pending_space = true;
    }
  }
  return out;
}

std::vector<std::string> identifier_tokens(std::string_view name) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) tokens.push_back(std::move(current));
    current.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!is_alnum(c)) {
      flush();
      continue;
    }
    bool upper = c >= 'A' && c <= 'Z';
    if (upper && !current.empty()) {
      char prev = name[i - 1];
      bool prev_lower = (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9');
      bool next_lower = i + 1 < name.size() && name[i + 1] >= 'a' && name[i + 1] <= 'z';
      // camelCase boundary, or the end of an acronym: "HTTPServer" -> http, server
      if (prev_lower || (next_lower && prev >= 'A' && prev <= 'Z')) flush();
    }
    current.push_back(lower(c));
  }
  flush();
  return tokens;
}

std::string normalize_attribute_key(std::string_view key) {
  std::string out = normalize_literal(key);
  std::replace(out.begin(), out.end(), ' ', '_');
  return out;
}

bool AttributeSpec::sensitive_in(std::string_view scenario) const {
  return in_scenario(scenarios, scenario);
}

int AttributeSpec::group_of(std::string_view literal) const {
  std::string norm = normalize_literal(literal);
  for (size_t i = 0; i < groups.size(); ++i)
    for (const std::string& s : groups[i].synonyms)
      if (s == norm) return static_cast<int>(i);
  // Compound labels such as "Black or African American" or "White/Caucasian": the group whose
  // synonyms occur as whole words, when exactly one group does and nothing negates it.
  std::string padded = " " + norm + " ";
  for (const char* negation : {" non ", " not ", " other ", " no "})
    if (padded.find(negation) != std::string::npos) return -1;
  // `word` occurs between two spaces.
  auto has_word = [&](std::string_view word) {
    for (size_t at = padded.find(word, 1); at != std::string::npos; at = padded.find(word, at + 1))
      if (padded[at - 1] == ' ' && at + word.size() < padded.size() && padded[at + word.size()] == ' ') return true;
    return false;
  };
  int found = -1;
  for (size_t i = 0; i < groups.size(); ++i)
    for (const std::string& s : groups[i].synonyms) {
      if (s.size() < 3 || !has_word(s)) continue;
      if (found >= 0 && found != static_cast<int>(i)) return -1;
      found = static_cast<int>(i);
    }
  return found;
}

AttributeTable AttributeTable::from_json(std::string_view json_text, std::string_view origin) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    size_t line = 1 + static_cast<size_t>(std::count(
        json_text.begin(), json_text.begin() + static_cast<std::ptrdiff_t>(std::min(e.byte, json_text.size())), '\n'));
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("attributes") || !doc["attributes"].is_array())
    fail(origin, "attributes", "expected an array of attribute objects");
  AttributeTable table;
  for (size_t i = 0; i < doc["attributes"].size(); ++i) {
    AttributeSpec spec = parse_attribute(doc["attributes"][i], origin, "attributes[" + std::to_string(i) + "]");
    if (table.find(spec.key)) fail(origin, "attributes[" + std::to_string(i) + "].key", "duplicate key '" + spec.key + "'");
    table.specs_.push_back(std::move(spec));
  }
  if (doc.contains("not_attribute_tokens"))
    table.not_attribute_tokens_ = lowered(get_strings(doc["not_attribute_tokens"], origin, "not_attribute_tokens", false));
  return table;
}

const AttributeTable& AttributeTable::builtin() {
  static const AttributeTable table = from_json(data::builtin_attributes_json(), "data/attributes/attributes.json");
  return table;
}

const AttributeTable& AttributeTable::builtin(std::string_view name) {
  if (name == "faircoder") return builtin();
  if (name == "solar") {
    static const AttributeTable solar = from_json(data::builtin_solar_attributes_json(), "data/attributes/solar.json");
    return solar;
  }
  if (name == "huang") {
    static const AttributeTable huang = from_json(data::builtin_huang_attributes_json(), "data/attributes/huang.json");
    return huang;
  }
  throw std::invalid_argument("unknown attribute table '" + std::string(name) + "' (built-in: faircoder, solar, huang)");
}

bool AttributeTable::uses_scenarios() const {
  return std::any_of(specs_.begin(), specs_.end(), [](const AttributeSpec& spec) {
    return !spec.scenarios.empty() ||
           std::any_of(spec.names.begin(), spec.names.end(), [](const NamePattern& p) { return !p.scenarios.empty(); });
  });
}

const AttributeSpec* AttributeTable::find(std::string_view key) const {
  std::string norm = normalize_attribute_key(key);
  for (const AttributeSpec& spec : specs_)
    if (spec.key == norm) return &spec;
  return nullptr;
}

std::optional<NameMatch> AttributeTable::match_name(std::string_view name, std::string_view scenario) const {
  std::vector<std::string> tokens = identifier_tokens(name);
  if (tokens.empty()) return std::nullopt;
  // getGender(), get_gender -> gender
  if (tokens.size() > 1 && tokens.front() == "get") tokens.erase(tokens.begin());
  for (const std::string& excluded : not_attribute_tokens_)
    if (has_token(tokens, excluded)) return std::nullopt;
  std::optional<NameMatch> best;
  size_t best_size = 0;
  for (const AttributeSpec& spec : specs_) {
    for (const FlagPattern& flag : spec.flags) {
      if (tokens == flag.tokens && flag.tokens.size() > best_size) {
        best = NameMatch{&spec, &flag};
        best_size = flag.tokens.size();
      }
    }
    for (const NamePattern& pattern : spec.names) {
      if (!in_scenario(pattern.scenarios, scenario) || pattern.tokens.size() <= best_size) continue;
      bool all = std::all_of(pattern.tokens.begin(), pattern.tokens.end(),
                             [&](const std::string& p) { return has_token(tokens, p); });
      if (all) {
        best = NameMatch{&spec, nullptr};
        best_size = pattern.tokens.size();
      }
    }
  }
  return best;
}

}  // namespace codebias::analysis
