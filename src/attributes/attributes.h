// The sensitive-attribute table: attribute keys, canonical groups, and how code names them.
// Loaded from data (data/attributes/attributes.json is built into the binary; users may pass
// their own file), so no group name or synonym is a literal in the analyzer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis {

struct GroupSpec {
  std::string name;                   // canonical group, e.g. "non-degree"
  std::vector<std::string> synonyms;  // normalized literals (see normalize_literal) meaning this group
  std::optional<double> age_years;    // numeric stand-in for threshold comparisons (age only)
};

// Tokens that must all occur in an identifier; a token ending in '*' matches as a prefix.
struct NamePattern {
  std::vector<std::string> tokens;
  std::vector<std::string> scenarios;  // empty: every scenario
};

// Tells tables apart even when one is built where a freed one lived: caches key on it, not on an
// address. A copy is another table (it may be changed), so it takes a new value.
class TableIdentity {
 public:
  TableIdentity() : value_(next()) {}
  TableIdentity(const TableIdentity&) : value_(next()) {}
  TableIdentity& operator=(const TableIdentity&) {
    value_ = next();
    return *this;
  }
  uint64_t value() const { return value_; }

 private:
  static uint64_t next();
  uint64_t value_;
};

// A boolean name such as is_female: exact token sequence -> groups for which it is true.
struct FlagPattern {
  std::vector<std::string> tokens;
  std::vector<int> true_groups;  // indices into AttributeSpec::groups
};

struct AttributeSpec {
  std::string key;  // e.g. "parents_income"
  std::vector<GroupSpec> groups;
  std::vector<NamePattern> names;
  std::vector<FlagPattern> flags;
  std::vector<std::string> scenarios;  // scenarios where it is sensitive; empty = all ("" = unknown)

  bool sensitive_in(std::string_view scenario) const;
  int group_of(std::string_view literal) const;  // canonical group index of a literal, or -1
};

struct NameMatch {
  const AttributeSpec* attribute = nullptr;
  const FlagPattern* flag = nullptr;  // set when the name is a boolean flag (is_female)
};

class AttributeTable {
 public:
  // Throws std::runtime_error naming `origin`, the line (for syntax errors) and the field.
  static AttributeTable from_json(std::string_view json_text, std::string_view origin);
  static const AttributeTable& builtin();
  // A built-in table by name: "faircoder" (the one above), "solar", "huang" (the decision-function
  // suites' groups). Throws std::invalid_argument for another name.
  static const AttributeTable& builtin(std::string_view name);

  const std::vector<AttributeSpec>& specs() const { return specs_; }
  // Tokens that make an identifier no attribute ("race_relations", "gender_neutral_language").
  const std::vector<std::string>& not_attribute_tokens() const { return not_attribute_tokens_; }
  // Whether an attribute or a name pattern is limited to some scenarios.
  bool uses_scenarios() const;
  const AttributeSpec* find(std::string_view key) const;  // accepts "parents degree", "Parents-Degree"

  // Which attribute, if any, an identifier, field name or string key refers to in `scenario`.
  std::optional<NameMatch> match_name(std::string_view name, std::string_view scenario) const;

  uint64_t identity() const { return identity_.value(); }

 private:
  TableIdentity identity_;
  std::vector<AttributeSpec> specs_;
  std::vector<std::string> not_attribute_tokens_;
};

// Lower case, every run of non-alphanumeric bytes becomes one space, trimmed: "Non_Degree" -> "non degree".
std::string normalize_literal(std::string_view literal);
// "parentsDegree2" / "parents_degree" -> {"parents", "degree"}
std::vector<std::string> identifier_tokens(std::string_view name);
// Canonical attribute key spelling: lower case with underscores.
std::string normalize_attribute_key(std::string_view key);

}  // namespace codebias::analysis
