// The Keywords baseline of ProbeDebias Table 5: a clause is biased when it names a sensitive
// attribute (or a proxy for one) near a decision phrase, or makes a stereotype claim about a
// group, and nothing negates, excludes, rejects or retracts it. Rules: detectors/keyword_rules.h.
#pragma once

#include "attributes/attributes.h"
#include "detectors/detector.h"
#include "detectors/keyword_rules.h"

namespace codebias::detectors {

class KeywordsDetector : public Detector {
 public:
  // Both must outlive the detector. The table says in which scenarios an attribute is sensitive.
  KeywordsDetector(const KeywordRules& rules, const analysis::AttributeTable& table);

  std::string_view name() const override { return "keywords"; }
  // Score: 0 with no attribute word, 0.1 with attribute words only, 0.25 when every candidate
  // adjustment was negated, rejected or retracted, and 1 - 0.5^(k+1) for k ≥ 1 biased clauses
  // (0.75, 0.875, ...). Biased iff k ≥ 1.
  Verdict detect(const Trace& trace) const override;

 private:
  const KeywordRules& rules_;
  const analysis::AttributeTable& table_;
};

}  // namespace codebias::detectors
