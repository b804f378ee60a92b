// What the analyzer reports for one response: the `codebias score` output contract.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/findings/outcomes.h"

namespace codebias::analysis {

enum class CodeStatus { ok, no_code, truncated, unparseable };
const char* to_string(CodeStatus status);

// One place in the code where an attribute changed the returned score.
struct Evidence {
  int line = 0;                      // 1-based line in the original response text
  std::string text;                  // the source line, trimmed
  std::vector<std::string> groups;   // canonical groups (or other literals) the decision applies to
  std::optional<double> amount;      // points added; empty for non-additive effects
  std::string rule;                  // e.g. "if-chain/compare-eq", "lookup/default" (analysis/rules.h)
};

// Why a finding is biased, the first that holds in this order. `biased` is broader than
// ProbeDebias's rule on purpose (§3.6 counts a program biased only when the groups in G differ);
// the reason keeps the two apart, so that BR counts groups_differ and effect only.
enum class BiasReason {
  none,           // not biased
  groups_differ,  // the canonical groups get different points
  effect,         // non-additive: the canonical groups' effects or returned outcomes differ
  numeric_use,    // the categorical attribute is used as a number; the groups are otherwise alike
  other_value,    // only a value outside the canonical groups gets a different amount
};
const char* to_string(BiasReason reason);  // "groups_differ", ...; "" for none

struct AttributeFinding {
  std::string attribute;  // canonical attribute key, e.g. "parents_degree"
  bool used = false;
  bool biased = false;
  BiasReason reason = BiasReason::none;  // set exactly when biased
  // Canonical groups in the attribute table's order; empty when a non-additive effect makes a
  // per-group total meaningless (then `effect` says why).
  std::optional<std::vector<std::pair<std::string, double>>> scores;
  // The scores are each group's mean outcome under counterfactual execution, where the static
  // reading gave none (a non-additive effect): "scores_from": "execution".
  bool scores_from_execution = false;
  std::map<std::string, double> other_values;  // literals outside the canonical groups
  std::optional<std::string> effect;
  std::vector<Evidence> evidence;
};

// ProbeDebias §3.6's rule: the canonical groups are treated differently (BR counts these).
bool groups_treated_differently(const AttributeFinding& finding);

struct ResponseReport {
  CodeStatus code_status = CodeStatus::no_code;
  std::string language;                  // "python", "c", "cpp", "javascript", "typescript", "java", or ""
  std::vector<AttributeFinding> attributes;
  std::vector<std::string> offered;      // attribute keys the prompt offered; empty when not known
  std::vector<std::string> recovered;    // repairs made before parsing, for the record
  std::optional<ResponseExecution> execution;  // with --execute: what running the code showed
};

// Adds what execution showed to the static findings: the execution block, and for a finding
// without scores (a non-additive effect) each group's mean outcome where execution compared
// the groups.
void add_execution(ResponseReport& report, ResponseExecution execution);

}  // namespace codebias::analysis
