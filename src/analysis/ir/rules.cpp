// The table of rule parts (see rules.h) and the parsing of a rule id into them.
#include "analysis/ir/rules.h"

#include <array>

namespace codebias::analysis::rules {
namespace {

constexpr std::array kRules = {
    Rule{kIfChain, Part::construct, "an if / elif / else chain"},
    Rule{kSwitchCase, Part::construct, "a C, C++, Java or JavaScript switch, lowered to an if-chain"},
    Rule{kMatchCase, Part::construct, "a Python match statement, lowered to an if-chain"},
    Rule{kConditional, Part::construct, "a conditional expression (a if c else b, c ? a : b) chose the value"},
    Rule{kLookup, Part::construct, "a table (dict, map, object) indexed by the attribute gave the value"},
    Rule{kBoolean, Part::construct,
         "a boolean expression the attribute decides, used as a value (returned, assigned, or a number): True "
         "counts 1 for the groups it holds for"},
    Rule{kAny, Part::construct,
         "a quantifier that holds when some item passes the attribute's test (any(...), some, anyMatch, any_of), "
         "used as a value: True counts 1 for the groups it holds for"},
    Rule{kAll, Part::construct,
         "a quantifier that holds when every item passes the attribute's test (all(...), every, allMatch, all_of), "
         "used as a value: True counts 1 for the groups it holds for"},
    Rule{kNone, Part::construct,
         "a quantifier that holds when no item passes the attribute's test (noneMatch, none_of), used as a value: "
         "True counts 1 for the groups it holds for"},
    Rule{kSelection, Part::construct,
         "a comprehension or filter (a for b in v if c, v.filter(f), stream().filter(f)) keeps the people the "
         "attribute's test passes: a kept person counts 1 for the groups it holds for"},
    Rule{kElse, Part::step, "the else branch, reached because the attribute ruled out the earlier conditions"},
    Rule{kAfter, Part::step,
         "a later branch, on other inputs, or the rest of a loop's run after a branch that continues, reached "
         "because the attribute ruled out an earlier condition"},
    Rule{kCompareEq, Part::condition, "the attribute compared equal to a literal (==, equals, strcmp, case label)"},
    Rule{kCompareNe, Part::condition, "the attribute compared not equal to a literal"},
    Rule{kMembership, Part::condition, "the attribute found in a list, tuple, set or table's keys"},
    Rule{kNotIn, Part::condition, "the attribute not found in a list, tuple or set"},
    Rule{kContains, Part::condition, "a literal found inside the attribute's text"},
    Rule{kAgeThreshold, Part::condition, "the age compared with a number"},
    Rule{kNumericUse, Part::condition, "a categorical attribute compared with a number (the effect reports it)", false},
    Rule{kRankCompare, Part::condition, "a number read from a table by the attribute compared (a rank)"},
    Rule{kCompareDerived, Part::condition, "a value derived from the attribute compared"},
    Rule{kThreshold, Part::condition,
         "a score the attribute changes, with other inputs unknown, compared with a threshold that chose a "
         "returned label (the effect reports it)"},
    Rule{kFlag, Part::condition, "a boolean flag naming a group (is_female) tested"},
    Rule{kTable, Part::condition, "the table entry of the attribute's value"},
    Rule{kDefault, Part::condition,
         "the default of a table lookup (dict.get(k, d), getOrDefault) for values not in the table"},
    Rule{kLookup, Part::condition, "a value read from a table by the attribute tested or used"},
    Rule{kRank, Part::condition, "the attribute's position in a list (index, indexOf) tested or used"},
    Rule{kAgeValue, Part::condition, "the age used as a number in the score"},
    Rule{kAttributeDependent, Part::whole, "the score depends on the attribute in a way no other rule names"},
};

const Rule* find(std::string_view id, Part part) {
  for (const Rule& rule : kRules)
    if (rule.part == part && id == rule.id) return &rule;
  return nullptr;
}

}  // namespace

std::span<const Rule> table() { return kRules; }

std::vector<const Rule*> parts_of(std::string_view id) {
  if (const Rule* whole = find(id, Part::whole)) return {whole};
  size_t slash = id.find('/');
  if (slash == std::string_view::npos) {
    const Rule* condition = find(id, Part::condition);
    return condition ? std::vector<const Rule*>{condition} : std::vector<const Rule*>{};
  }
  const Rule* construct = find(id.substr(0, slash), Part::construct);
  if (!construct) return {};
  std::string_view rest = id.substr(slash + 1);
  std::vector<const Rule*> out{construct};
  size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    const Rule* step = find(rest.substr(0, colon + 1), Part::step);
    if (!step) return {};
    out.push_back(step);
    rest = rest.substr(colon + 1);
  }
  const Rule* condition = find(rest, Part::condition);
  if (!condition) return {};
  out.push_back(condition);
  return out;
}

}  // namespace codebias::analysis::rules
