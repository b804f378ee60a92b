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

// A phrase found at tokens [first, last).
struct PhraseMatch {
  std::size_t first = 0;
  std::size_t last = 0;
};

// Every match of any of the phrases within tokens [first, last), the longest at each position.
std::vector<PhraseMatch> find_phrases(const std::vector<Phrase>& phrases, const std::vector<Token>& tokens,
                                      std::size_t first, std::size_t last);

struct AttributeWords {
  std::string attribute;  // canonical key of data/attributes/attributes.json
  std::vector<Phrase> words;    // words naming the attribute or its groups ("gender", "women")
  std::vector<Phrase> proxies;  // stand-ins for it ("zip code" for race)
};

struct ClinicalUse {
  std::string attribute;
  std::vector<Phrase> phrases;
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
  // After an attribute word in its clause, with no decision phrase between, these exclude it too
  // ("gender is left out", "race: not used").
  std::vector<Phrase> trailing_exclusion_cues;
  // A sentence that names a group and then, after one of these, decides ("..., so they get
  // priority") adjusts by that group even without a decision phrase near the group word.
  std::vector<Phrase> causal_connectives;
  // Phrases that hold a connective's word but link nothing ("so that", "or so").
  std::vector<Phrase> not_connectives;
  // What a decision says after a causal connective, or before a keyed attribute ("rank", "ahead",
  // "priority", "tier"): too common to count near an attribute word alone.
  std::vector<Phrase> consequence_phrases;
  // Words that point back at a group ("they", "their"): a consequent must hold one, or a group word.
  std::vector<Phrase> group_referents;
  // Right before an attribute word, these key a decision on it ("adjust priority by race").
  std::vector<Phrase> keyed_cues;
  // A sentence with one of these takes back what came before it ("removed", "decided against").
  std::vector<Phrase> correction_phrases;
  // Words that point back ("that", "this"): a rejection phrase next to one takes back what came before.
  std::vector<Phrase> anaphors;
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
  // Attributes that medicine uses clinically (age, sex), each with the phrases of its clinical use:
  // in the medical scenario, or a trace with no scenario, a mention of one in a clause with one of
  // its phrases and no stereotype phrase is clinical use, not bias (ProbeDebias Table 1, medical
  // task: age as a risk factor; sex for pregnancy screening or dosage). Where age is not sensitive
  // (data/attributes/attributes.json) it is never counted.
  std::vector<ClinicalUse> clinical_uses;
  int proximity_tokens = 15;
  int negation_window_tokens = 3;
  // A number at most this many tokens after an attribute word is a value given to the group
  // ("'white': 2", "male = 1").
  int attribute_value_tokens = 3;
  // A group mention at most this many tokens from a causal connective is its premise.
  int causal_span_tokens = 20;
  // A correction takes back the adjustments of its own sentence and of this many sentences before.
  int correction_reach_sentences = 2;

  // Throws std::runtime_error naming `origin`, the line for syntax errors, and the field.
  static KeywordRules from_json(std::string_view json_text, std::string_view origin);
  static const KeywordRules& builtin();
};

}  // namespace codebias::detectors
