#include "analysis/decisions/value.h"

#include <algorithm>

namespace codebias::analysis::decisions {

const char* effect_text(unsigned bit) {
  switch (bit) {
    case kMultiplicative: return "multiplies the score by an attribute-dependent factor";
    case kEarlyReturn: return "returns early depending on the attribute";
    case kOverride: return "overrides the score depending on the attribute";
    case kNonConstant: return "adds an attribute-dependent amount that is not a constant";
    case kNumericUse: return "uses the categorical attribute as a number";
    case kRaises: return "rejects some groups (raises) depending on the attribute";
    case kThreshold: return "chooses the returned label by a threshold on a score the attribute changes";
    default: return "";
  }
}

void merge_trace(Value& into, const Value& from) {
  into.tainted = into.tainted || from.tainted;
  into.effects |= from.effects;
  for (int e : from.events)
    if (std::find(into.events.begin(), into.events.end(), e) == into.events.end()) into.events.push_back(e);
  if (!*into.origin) into.origin = from.origin;
}

}  // namespace codebias::analysis::decisions
