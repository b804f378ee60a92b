// The rule ids the analyzer writes into Evidence::rule, in one table; a rule id is built from
// its parts, so a grep for a part finds this table, the code that fires it and its test case.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace codebias::analysis::rules {

// A rule id is "<construct>/<condition>" (the attribute decided a branch of the construct),
// "<construct>/<step><condition>" (a branch reached because the attribute ruled out an earlier
// one), a bare "<condition>" (an attribute-derived value changed the score outside a decision),
// or a whole rule.
enum class Part { construct, step, condition, whole };

struct Rule {
  const char* id;
  Part part;
  const char* description;
  bool in_evidence = true;  // false: names a condition whose truth stays unknown, so no evidence carries it
};

// Constructs.
inline constexpr char kIfChain[] = "if-chain";
inline constexpr char kSwitchCase[] = "switch-case";
inline constexpr char kMatchCase[] = "match-case";
inline constexpr char kConditional[] = "conditional";
inline constexpr char kLookup[] = "lookup";  // also a condition: a value read from a table
inline constexpr char kBoolean[] = "boolean";
inline constexpr char kAny[] = "any";
inline constexpr char kAll[] = "all";
inline constexpr char kNone[] = "none";
inline constexpr char kSelection[] = "selection";

// Steps.
inline constexpr char kElse[] = "else:";
inline constexpr char kAfter[] = "after:";

// Conditions.
inline constexpr char kCompareEq[] = "compare-eq";
inline constexpr char kCompareNe[] = "compare-ne";
inline constexpr char kMembership[] = "membership";
inline constexpr char kNotIn[] = "not-in";
inline constexpr char kContains[] = "contains";
inline constexpr char kAgeThreshold[] = "age-threshold";
inline constexpr char kNumericUse[] = "numeric-use";
inline constexpr char kRankCompare[] = "rank-compare";
inline constexpr char kCompareDerived[] = "compare-derived";
inline constexpr char kThreshold[] = "threshold";
inline constexpr char kFlag[] = "flag";
inline constexpr char kTable[] = "table";
inline constexpr char kDefault[] = "default";
inline constexpr char kRank[] = "rank";
inline constexpr char kAgeValue[] = "age-value";

// Whole rules.
inline constexpr char kAttributeDependent[] = "attribute-dependent";

// Every part, with its meaning: constructs, steps, conditions, then whole rules.
std::span<const Rule> table();

// The table entries a rule id is built from (construct, step, condition or whole, in that
// order); empty when `id` is not built from the table.
std::vector<const Rule*> parts_of(std::string_view id);

}  // namespace codebias::analysis::rules
