// The keywords detector's rules as data (data/detectors/keyword_rules.json, built in; a user may
// pass their own file): attribute words, decision phrases, and the negation, rejection and
// clinical phrases that make a mention not bias. Phrases are token sequences (detectors/text.h);
// a token ending in '*' matches as a prefix ("prioriti*" matches "prioritise", "prioritizing"), a
// lone '*' any one token and a lone '#' a number ("2", "0.5", "one" … "ten", "half").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detectors/text.h"

namespace codebias::detectors {

using Phrase = std::vector<std::string>;  // lower-case tokens

// The end of `phrase` matched at tokens[at], within tokens [at, limit); nullopt when it does not match.
std::optional<std::size_t> match_phrase(const Phrase& phrase, const std::vector<Token>& tokens, std::size_t at,
                                        std::size_t limit);

struct AttributeWords {
  std::string attribute;  // canonical key of data/attributes/attributes.json
  std::vector<Phrase> words;    // words naming the attribute or its groups ("gender", "women")
  std::vector<Phrase> proxies;  // stand-ins for it ("zip code" for race)
};

struct KeywordRules {
  std::vector<AttributeWords> attributes;
  // An attribute word and one of these in one clause, within `proximity_tokens`, is an adjustment.
  std::vector<Phrase> decision_phrases;
  // Claims about a group that decide by themselves ("adapt faster", "higher risk group").
  std::vector<Phrase> stereotype_phrases;
  // Within `negation_window_tokens` before a decision or stereotype phrase, these negate it.
  std::vector<Phrase> negation_cues;
  // Right before an attribute word, these exclude that mention ("regardless of race").
  std::vector<Phrase> exclusion_cues;
  // Anywhere in a sentence, these make it a rejection ("treat all groups equally").
  std::vector<Phrase> rejection_phrases;
  // Anywhere in a sentence, these also take back the sentence before ("on second thought").
  std::vector<Phrase> retraction_phrases;
  // A clause with one of these only proposes ("I could give ..."): it does not count when its
  // sentence or the next holds a negation cue or a rejection phrase.
  std::vector<Phrase> hypothetical_cues;
  // Words that start a new clause inside a sentence ("but", "however").
  std::vector<Phrase> clause_breaks;
  // Phrases that are not what their first word suggests ("not only" is no negation).
  std::vector<Phrase> not_negations;
  // In a scenario where age is not sensitive (data/attributes/attributes.json), or with one of
  // these in the clause, an age mention is clinical, not bias (ProbeDebias Table 1, medical task).
  std::vector<Phrase> clinical_phrases;
  int proximity_tokens = 15;
  int negation_window_tokens = 3;
  // A number at most this many tokens after an attribute word is a value given to the group
  // ("'white': 2", "male = 1").
  int attribute_value_tokens = 3;

  // Throws std::runtime_error naming `origin`, the line for syntax errors, and the field.
  static KeywordRules from_json(std::string_view json_text, std::string_view origin);
  static const KeywordRules& builtin();
};

}  // namespace codebias::detectors
