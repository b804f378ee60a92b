#include "detectors/keyword_rules.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "base/builtin_data.h"
#include "detectors/text.h"

namespace codebias::detectors {
namespace {

using nlohmann::json;

[[noreturn]] void fail(std::string_view origin, const std::string& path, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": field " + path + ": " + what);
}

// "give * points" -> {"give", "*", "points"}; each word must be one token as text.h reads it.
Phrase parse_phrase(const json& value, std::string_view origin, const std::string& path) {
  if (!value.is_string()) fail(origin, path, "expected a string");
  const std::string text = value.get<std::string>();
  Phrase phrase;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    std::size_t end = pos;
    while (end < text.size() && text[end] != ' ') ++end;
    if (end == pos) break;
    std::string word = text.substr(pos, end - pos);
    const bool wildcard = word == "*" || word == "#";
    const bool prefix = !wildcard && word.back() == '*';
    const std::string_view stem = prefix ? std::string_view(word).substr(0, word.size() - 1) : std::string_view(word);
    if (!wildcard) {
      const std::vector<Token> tokens = tokenize(stem);
      if (tokens.size() != 1 || tokens[0].lower != stem)
        fail(origin, path, "\"" + word + "\" is not one lower-case word (phrases are words separated by spaces)");
    }
    phrase.push_back(std::move(word));
    pos = end;
  }
  if (phrase.empty()) fail(origin, path, "empty phrase");
  if (phrase.size() == 1 && (phrase[0] == "*" || phrase[0] == "#")) fail(origin, path, "a phrase needs a word besides '*' and '#'");
  if (phrase.front() == "*" || phrase.back() == "*") fail(origin, path, "a phrase cannot start or end with '*'");
  return phrase;
}

std::vector<Phrase> parse_phrases(const json& doc, const char* key, std::string_view origin, const std::string& prefix = "") {
  const std::string path = prefix + key;
  if (!doc.contains(key)) fail(origin, path, "missing");
  const json& list = doc[key];
  if (!list.is_array()) fail(origin, path, "expected an array of phrases");
  std::vector<Phrase> phrases;
  for (std::size_t i = 0; i < list.size(); ++i)
    phrases.push_back(parse_phrase(list[i], origin, path + "[" + std::to_string(i) + "]"));
  return phrases;
}

int parse_count(const json& doc, const char* key, std::string_view origin) {
  if (!doc.contains(key)) fail(origin, key, "missing");
  if (!doc[key].is_number_integer() || doc[key].get<long>() < 1 || doc[key].get<long>() > 1000)
    fail(origin, key, "expected an integer from 1 to 1000");
  return doc[key].get<int>();
}

bool word_matches(const std::string& pattern, const std::string& token) {
  if (pattern == "*") return true;
  if (pattern == "#") return is_number_token(token);
  if (pattern.back() == '*') return token.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return pattern == token;
}

}  // namespace

std::optional<std::size_t> match_phrase(const Phrase& phrase, const std::vector<Token>& tokens, std::size_t at,
                                        std::size_t limit) {
  if (at + phrase.size() > limit) return std::nullopt;
  for (std::size_t k = 0; k < phrase.size(); ++k)
    if (!word_matches(phrase[k], tokens[at + k].lower)) return std::nullopt;
  return at + phrase.size();
}

std::vector<PhraseMatch> find_phrases(const std::vector<Phrase>& phrases, const std::vector<Token>& tokens,
                                      std::size_t first, std::size_t last) {
  std::vector<PhraseMatch> found;
  for (std::size_t at = first; at < last; ++at) {
    std::size_t longest = 0;
    for (const Phrase& phrase : phrases)
      if (auto end = match_phrase(phrase, tokens, at, last)) longest = std::max(longest, *end);
    if (longest > 0) found.push_back({at, longest});
  }
  return found;
}

KeywordRules KeywordRules::from_json(std::string_view json_text, std::string_view origin) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(json_text.begin(),
                                                json_text.begin() + static_cast<std::ptrdiff_t>(std::min(e.byte, json_text.size())), '\n'));
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + e.what());
  }
  if (!doc.is_object()) fail(origin, "(top level)", "expected an object");
  KeywordRules rules;
  if (!doc.contains("attributes") || !doc["attributes"].is_object())
    fail(origin, "attributes", "expected an object of attribute keys");
  const analysis::AttributeTable& table = analysis::AttributeTable::builtin();
  for (const auto& [key, entry] : doc["attributes"].items()) {
    const std::string path = "attributes." + key + ".";
    const analysis::AttributeSpec* spec = table.find(key);
    if (spec == nullptr) fail(origin, "attributes." + key, "not an attribute of data/attributes/attributes.json");
    if (!entry.is_object()) fail(origin, "attributes." + key, "expected an object with words and proxies");
    AttributeWords words;
    words.attribute = spec->key;
    words.words = parse_phrases(entry, "words", origin, path);
    words.proxies = parse_phrases(entry, "proxies", origin, path);
    rules.attributes.push_back(std::move(words));
  }
  rules.decision_phrases = parse_phrases(doc, "decision_phrases", origin);
  rules.stereotype_phrases = parse_phrases(doc, "stereotype_phrases", origin);
  rules.negation_cues = parse_phrases(doc, "negation_cues", origin);
  rules.not_negations = parse_phrases(doc, "not_negations", origin);
  rules.exclusion_cues = parse_phrases(doc, "exclusion_cues", origin);
  rules.rejection_phrases = parse_phrases(doc, "rejection_phrases", origin);
  rules.retraction_phrases = parse_phrases(doc, "retraction_phrases", origin);
  rules.hypothetical_cues = parse_phrases(doc, "hypothetical_cues", origin);
  rules.clause_breaks = parse_phrases(doc, "clause_breaks", origin);
  if (!doc.contains("clinical_uses") || !doc["clinical_uses"].is_object())
    fail(origin, "clinical_uses", "expected an object of attribute keys");
  for (const auto& [key, phrases] : doc["clinical_uses"].items()) {
    const analysis::AttributeSpec* spec = table.find(key);
    if (spec == nullptr) fail(origin, "clinical_uses." + key, "not an attribute of data/attributes/attributes.json");
    rules.clinical_uses.push_back({spec->key, parse_phrases(doc["clinical_uses"], key.c_str(), origin, "clinical_uses.")});
  }
  rules.trailing_exclusion_cues = parse_phrases(doc, "trailing_exclusion_cues", origin);
  rules.causal_connectives = parse_phrases(doc, "causal_connectives", origin);
  rules.not_connectives = parse_phrases(doc, "not_connectives", origin);
  rules.consequence_phrases = parse_phrases(doc, "consequence_phrases", origin);
  rules.group_referents = parse_phrases(doc, "group_referents", origin);
  rules.keyed_cues = parse_phrases(doc, "keyed_cues", origin);
  rules.correction_phrases = parse_phrases(doc, "correction_phrases", origin);
  rules.anaphors = parse_phrases(doc, "anaphors", origin);
  rules.proximity_tokens = parse_count(doc, "proximity_tokens", origin);
  rules.negation_window_tokens = parse_count(doc, "negation_window_tokens", origin);
  rules.attribute_value_tokens = parse_count(doc, "attribute_value_tokens", origin);
  rules.causal_span_tokens = parse_count(doc, "causal_span_tokens", origin);
  rules.correction_reach_sentences = parse_count(doc, "correction_reach_sentences", origin);
  return rules;
}

const KeywordRules& KeywordRules::builtin() {
  static const KeywordRules rules = from_json(data::builtin_keyword_rules_json(), "data/detectors/keyword_rules.json");
  return rules;
}

}  // namespace codebias::detectors
