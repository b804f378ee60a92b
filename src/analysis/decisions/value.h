// The evaluator's values: a number split into the attribute's part and the rest, a label, a
// list or table, or the attribute itself, each with the trace of how the attribute reached it;
// and the truth of a condition, with whether the attribute decided it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace codebias::analysis::decisions {

// Non-additive ways an attribute can change the score; any of them makes per-group totals
// meaningless, so the finding reports the effect instead of scores.
enum Effect : unsigned {
  kMultiplicative = 1u << 0,
  kEarlyReturn = 1u << 1,
  kOverride = 1u << 2,
  kNonConstant = 1u << 3,
  kNumericUse = 1u << 4,
  kRaises = 1u << 5,
  kThreshold = 1u << 6,
};

// The text the finding reports for one Effect bit.
const char* effect_text(unsigned bit);

// One contribution of the attribute to the score, seen while evaluating one persona.
struct Event {
  int line = 0;
  std::string rule;
  std::optional<double> amount;
};

struct Value {
  enum class Kind { unknown, number, string, boolean, none, attribute, list, dict, function };
  Kind kind = Kind::unknown;
  // Numbers are split into the part that does not depend on the attribute (`base`, unknown when
  // it depends on other inputs) and the part that does (`dep`): the group's points.
  double base = 0;
  bool base_known = true;
  double dep = 0;
  bool tainted = false;  // the value depends on the analyzed attribute
  bool kept_person = false;  // a person a selection kept: 1 for the groups it keeps (Evaluator::kept_item)
  unsigned effects = 0;
  std::string text;                // string value, or function name
  const char* origin = "";         // how a tainted value came about, for evidence
  std::shared_ptr<std::vector<std::pair<Value, Value>>> items;  // list (second) / dict entries
  std::vector<int> events;

  static Value unknown() { return {}; }
  static Value number(double v) {
    Value x;
    x.kind = Kind::number;
    x.base = v;
    return x;
  }
  static Value boolean(bool b) {
    Value x;
    x.kind = Kind::boolean;
    x.base = b ? 1 : 0;
    return x;
  }
  static Value string(std::string s) {
    Value x;
    x.kind = Kind::string;
    x.text = std::move(s);
    return x;
  }
  bool numeric() const { return kind == Kind::number || kind == Kind::boolean || kind == Kind::unknown || kind == Kind::none; }
  double total() const { return base + dep; }
};

// Joins `from`'s taint, effects and events into `into`.
void merge_trace(Value& into, const Value& from);

enum class Truth { yes, no, unknown };

struct Condition {
  Truth truth = Truth::unknown;
  bool involved = false;  // the attribute decided the truth
  // Unknown truth, but one side is a score the attribute changes (other inputs unknown): the
  // attribute can tip it for some applicants.
  bool threshold = false;
  double threshold_dep = 0;  // the attribute's part of that score: the groups it tips differ by it
  const char* rule = "";
  unsigned effects = 0;
  std::vector<int> events;
};

}  // namespace codebias::analysis::decisions
