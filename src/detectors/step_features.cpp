#include "detectors/step_features.h"

#include <algorithm>
#include <array>
#include <set>

#include "detectors/text.h"

namespace codebias::detectors {
namespace {

// What one sentence does; the order is the order of feature_names().
enum Fact : std::size_t {
  kMention,            // names a group sensitive in the scenario
  kProxy,              // names a proxy for one
  kExcluded,           // an exclusion cue just before a group word
  kTrailingExclusion,  // an exclusion cue after it ("gender is left out")
  kDecision,           // a decision phrase
  kConsequence,        // a consequence phrase (rank, priority, ahead, ...)
  kStereotype,         // a stereotype phrase
  kChange,             // a signed number or an assignment ("+1", "-= 2", "score =")
  kNear,               // a decision or stereotype phrase within proximity of a group word
  kConnective,         // a causal connective
  kDecisionAfterConnective,
  kKeyed,  // a keyed cue right before a group word ("by race")
  kNegation,
  kNegatedDecision,  // a negation cue just before a decision phrase
  kRejection,
  kCorrection,  // a retraction or correction phrase in this sentence or the next two
  kHypothetical,
  kQuestion,
  kClinical,  // a clinical phrase of an attribute the sentence names
  kGroupBeforeConnective,
  // The absence of what cancels, which pooling over sentences could not learn by itself: a group
  // near a decision, or a group before a connective and a decision after it, in a sentence with
  // no negation, exclusion, rejection, correction, question or clinical use.
  kPlainNear,
  kPlainCausal,
  kFactCount
};

constexpr std::array<const char*, kFactCount> kFactNames = {"mention",
                                                            "proxy",
                                                            "excluded",
                                                            "trailing_exclusion",
                                                            "decision",
                                                            "consequence",
                                                            "stereotype",
                                                            "change",
                                                            "near",
                                                            "connective",
                                                            "decision_after_connective",
                                                            "keyed",
                                                            "negation",
                                                            "negated_decision",
                                                            "rejection",
                                                            "correction",
                                                            "hypothetical",
                                                            "question",
                                                            "clinical",
                                                            "group_before_connective",
                                                            "plain_near",
                                                            "plain_causal"};

constexpr std::size_t kCorrectionReach = 2;

using Facts = std::array<bool, kFactCount>;

bool any_in(const std::vector<Phrase>& phrases, const std::vector<Token>& tokens, std::size_t first, std::size_t last) {
  return !find_phrases(phrases, tokens, first, last).empty();
}

// Index of the pair (a, b), a < b, among the pairs after the single facts.
std::size_t pair_index(std::size_t a, std::size_t b) {
  std::size_t index = kFactCount;
  for (std::size_t i = 0; i < a; ++i) index += kFactCount - 1 - i;
  return index + (b - a - 1);
}

}  // namespace

StepFeaturizer::StepFeaturizer(const KeywordRules& rules, const analysis::AttributeTable& table)
    : rules_(rules), table_(table) {}

const std::vector<std::string>& StepFeaturizer::feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out(kFactNames.begin(), kFactNames.end());
    for (std::size_t a = 0; a < kFactCount; ++a)
      for (std::size_t b = a + 1; b < kFactCount; ++b)
        out.push_back(std::string("mention&") + kFactNames[a] + "&" + kFactNames[b]);
    return out;
  }();
  return names;
}

SparseVector StepFeaturizer::transform(const Trace& trace) const {
  const std::string_view text = trace.reasoning;
  const std::vector<Token> tokens = tokenize(text);
  const auto window = static_cast<std::size_t>(rules_.negation_window_tokens);
  const auto proximity = static_cast<std::size_t>(rules_.proximity_tokens);
  std::vector<Facts> sentences;
  std::size_t next = 0;
  for (const TextSpan& span : split_sentences(text)) {
    while (next < tokens.size() && tokens[next].begin < span.begin) ++next;
    const std::size_t first = next;
    while (next < tokens.size() && tokens[next].end <= span.end) ++next;
    const std::size_t last = next;
    if (first == last) continue;
    Facts facts{};
    std::vector<PhraseMatch> groups;
    std::set<std::string> attributes;
    for (const AttributeWords& words : rules_.attributes) {
      const analysis::AttributeSpec* spec = table_.find(words.attribute);
      if (!trace.scenario.empty() && (spec == nullptr || !spec->sensitive_in(trace.scenario))) continue;
      const std::vector<PhraseMatch> word_hits = find_phrases(words.words, tokens, first, last);
      const std::vector<PhraseMatch> proxy_hits = find_phrases(words.proxies, tokens, first, last);
      facts[kMention] = facts[kMention] || !word_hits.empty();
      facts[kProxy] = facts[kProxy] || !proxy_hits.empty();
      groups.insert(groups.end(), word_hits.begin(), word_hits.end());
      groups.insert(groups.end(), proxy_hits.begin(), proxy_hits.end());
      if (!word_hits.empty() || !proxy_hits.empty()) attributes.insert(words.attribute);
    }
    const std::vector<PhraseMatch> decisions = find_phrases(rules_.decision_phrases, tokens, first, last);
    const std::vector<PhraseMatch> stereotypes = find_phrases(rules_.stereotype_phrases, tokens, first, last);
    const std::vector<PhraseMatch> negations = find_phrases(rules_.negation_cues, tokens, first, last);
    const std::vector<PhraseMatch> connectives = find_phrases(rules_.causal_connectives, tokens, first, last);
    auto before = [&](const std::vector<PhraseMatch>& cues, const PhraseMatch& target, std::size_t gap) {
      return std::any_of(cues.begin(), cues.end(),
                         [&](const PhraseMatch& c) { return c.last <= target.first && target.first - c.last <= gap; });
    };
    auto after = [&](const std::vector<PhraseMatch>& cues, const PhraseMatch& target) {
      return std::any_of(cues.begin(), cues.end(), [&](const PhraseMatch& c) {
        return c.first >= target.last && c.first - target.last <= proximity;
      });
    };
    const std::vector<PhraseMatch> exclusions = find_phrases(rules_.exclusion_cues, tokens, first, last);
    const std::vector<PhraseMatch> trailing = find_phrases(rules_.trailing_exclusion_cues, tokens, first, last);
    const std::vector<PhraseMatch> keys = find_phrases(rules_.keyed_cues, tokens, first, last);
    std::vector<PhraseMatch> deciding = decisions;
    deciding.insert(deciding.end(), stereotypes.begin(), stereotypes.end());
    for (const PhraseMatch& group : groups) {
      facts[kExcluded] = facts[kExcluded] || before(exclusions, group, window);
      facts[kTrailingExclusion] = facts[kTrailingExclusion] || after(trailing, group);
      facts[kKeyed] = facts[kKeyed] || before(keys, group, 2);
      facts[kNear] = facts[kNear] || after(deciding, group) || before(deciding, group, proximity);
    }
    facts[kDecision] = !decisions.empty();
    facts[kConsequence] = any_in(rules_.consequence_phrases, tokens, first, last);
    facts[kStereotype] = !stereotypes.empty();
    const std::string_view sentence_text = text.substr(tokens[first].begin, tokens[last - 1].end - tokens[first].begin);
    facts[kChange] = sentence_text.find_first_of("+=") != std::string_view::npos;
    facts[kConnective] = !connectives.empty();
    for (const PhraseMatch& group : groups)
      facts[kGroupBeforeConnective] = facts[kGroupBeforeConnective] || after(connectives, group);
    for (const PhraseMatch& connective : connectives)
      facts[kDecisionAfterConnective] = facts[kDecisionAfterConnective] ||
                                        any_in(rules_.consequence_phrases, tokens, connective.last, last) ||
                                        any_in(rules_.decision_phrases, tokens, connective.last, last);
    facts[kNegation] = !negations.empty();
    for (const PhraseMatch& decision : decisions)
      facts[kNegatedDecision] = facts[kNegatedDecision] || before(negations, decision, window);
    facts[kRejection] = any_in(rules_.rejection_phrases, tokens, first, last);
    facts[kCorrection] = any_in(rules_.retraction_phrases, tokens, first, last) ||
                         any_in(rules_.correction_phrases, tokens, first, last);
    facts[kHypothetical] = any_in(rules_.hypothetical_cues, tokens, first, last);
    facts[kQuestion] = text[span.end - 1] == '?';
    for (const ClinicalUse& use : rules_.clinical_uses)
      facts[kClinical] =
          facts[kClinical] || (attributes.count(use.attribute) > 0 && any_in(use.phrases, tokens, first, last));
    sentences.push_back(facts);
  }
  // A correction reaches back over the sentences before it.
  for (std::size_t s = 0; s < sentences.size(); ++s)
    for (std::size_t t = s + 1; t < sentences.size() && t <= s + kCorrectionReach; ++t)
      sentences[s][kCorrection] = sentences[s][kCorrection] || sentences[t][kCorrection];
  for (Facts& facts : sentences) {
    const bool cancelled = facts[kNegation] || facts[kExcluded] || facts[kTrailingExclusion] || facts[kRejection] ||
                           facts[kCorrection] || facts[kQuestion] || facts[kClinical];
    facts[kPlainNear] = facts[kNear] && !cancelled;
    facts[kPlainCausal] = facts[kGroupBeforeConnective] && facts[kDecisionAfterConnective] && !cancelled;
  }
  std::set<std::uint32_t> active;
  for (const Facts& facts : sentences) {
    for (std::size_t a = 0; a < kFactCount; ++a)
      if (facts[a]) active.insert(static_cast<std::uint32_t>(a));
    if (!facts[kMention] && !facts[kProxy]) continue;
    for (std::size_t a = 0; a < kFactCount; ++a)
      for (std::size_t b = a + 1; b < kFactCount; ++b)
        if (facts[a] && facts[b]) active.insert(static_cast<std::uint32_t>(pair_index(a, b)));
  }
  SparseVector row;
  for (std::uint32_t index : active) row.emplace_back(index, 1.0);
  return row;
}

}  // namespace codebias::detectors
