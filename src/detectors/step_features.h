// The features of the learned steps-lr detector: what each sentence of a trace does with a
// sensitive attribute, read with the keyword rules' phrase lists (detectors/keyword_rules.h) —
// does it name a group, is there a decision phrase near it, a causal connective before a decision,
// a negation in the decision's scope, an exclusion, a rejection, a correction in the next
// sentences, clinical use — and every pair of these within one sentence that names a group.
// A trace has a feature when one of its sentences has it. Unlike TF-IDF, a feature says how the
// words of one step relate, not which words the trace holds.
#pragma once

#include <string>
#include <vector>

#include "attributes/attributes.h"
#include "detectors/detector.h"
#include "detectors/keyword_rules.h"
#include "detectors/tfidf.h"

namespace codebias::detectors {

class StepFeaturizer {
 public:
  // Both must outlive the featurizer.
  StepFeaturizer(const KeywordRules& rules, const analysis::AttributeTable& table);

  // "fact" for each fact of a sentence and "mention&fact&fact" for each pair in a sentence that
  // names a group; fixed for a build (a model file stores them and is refused when they differ).
  static const std::vector<std::string>& feature_names();
  // Binary features (1 where some sentence has it), indices into feature_names(), increasing.
  SparseVector transform(const Trace& trace) const;

 private:
  const KeywordRules& rules_;
  const analysis::AttributeTable& table_;
};

}  // namespace codebias::detectors
