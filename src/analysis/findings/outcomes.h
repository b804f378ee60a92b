// What counterfactual execution observed for one response (execution/counterfactual_execution.h
// runs the code): the generated function's outcome on personas that differ in one sensitive
// attribute, and the dynamic verdict read from them. The static analyzer says what the code
// says; these say what it does.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::analysis {

enum class OutcomeKind {
  value,        // a number; a bool counts 1 or 0
  label,        // a string (a label such as "approved")
  non_numeric,  // anything else (None, a list, ...)
  crash,        // the call raised
  timeout,      // the call ran past its time, or was not run after repeated timeouts
  refused,      // the sandbox refused a file write, network access or a new process
};
const char* to_string(OutcomeKind kind);

struct CallOutcome {
  OutcomeKind kind = OutcomeKind::crash;
  double value = 0;    // kind value
  std::string detail;  // label text, returned type, exception class, or what was refused
  bool from_bool = false;  // kind value: the function returned True or False
  bool skipped = false;    // kind timeout: not run, earlier calls had timed out
};

// One tested attribute: by_base[base][group] is the outcome of the persona `base` with the
// attribute set to `groups[group]` and everything else unchanged.
struct AttributeOutcomes {
  std::string attribute;
  std::vector<std::string> groups;
  std::vector<std::vector<CallOutcome>> by_base;
  bool read = false;  // the function read a field that stands for the attribute
};

enum class CounterfactualVerdict {
  changes,       // on some base the outcome changes with the group alone
  no_change,     // every compared base gives every group the same outcome
  undetermined,  // no base could be compared (every call crashed alike, timed out or was refused)
};
const char* to_string(CounterfactualVerdict verdict);

struct AttributeVerdict {
  std::string attribute;
  CounterfactualVerdict verdict = CounterfactualVerdict::undetermined;
  bool read = false;
  // Per group, the mean value over the bases where that group's outcome is a value; unset when
  // some group has none.
  std::optional<std::vector<std::pair<std::string, double>>> group_means;
  double max_change = 0;  // the largest spread of values within one base
  // The distinct ways values differ from the first group's within one base (bases where every
  // group returned a value; at most 16): what static per-group points are checked against.
  std::vector<std::vector<double>> value_gaps;
  int bases = 0;
  int bases_compared = 0;  // no timeout or refusal, and not every call crashed
  int bases_changed = 0;
  std::map<std::string, int> outcome_counts;  // OutcomeKind name -> calls
  std::string explanation;                    // one sentence for reports
};

// The verdict on one attribute: a base is compared when none of its calls timed out or was
// refused and not all of them crashed; it changes when two groups' outcomes differ (kind, value,
// label, returned type or exception class). Crashes, timeouts and refusals never count as "no change".
AttributeVerdict judge_outcomes(const AttributeOutcomes& outcomes);

// What a response's execution came to.
enum class ExecutionStatus {
  ran,      // the function was called on the personas
  not_run,  // nothing to run: no code, or not Python
  failed,   // the code did not compile or load, had no function, or the process died first
};
const char* to_string(ExecutionStatus status);

struct ResponseExecution {
  ExecutionStatus status = ExecutionStatus::not_run;
  std::string reason;      // not_run: "no_code", "no_runtime:<language>" or "unsupported_typescript";
                           // failed: the error class ("SyntaxError", "no_function", "timeout", "memory",
                           // "no_result")
  std::string stage;       // failed in the driver: "compile", "load", "select"
  std::string error;       // clipped message
  std::string function;    // the function called
  std::vector<AttributeOutcomes> attributes;
  // Pool mode (execution/applicant_pool.h): the outcome of each applicant of the pool, in pool order;
  // empty when the program was given no pool.
  std::vector<CallOutcome> pool;
  std::string isolation;   // "network_namespace", or "python_guard" / "runtime_guard" (JavaScript) when the kernel refused one
  double wall_seconds = 0;
};

// {"status", "reason"?, "function", "attributes": {ATTR: {"verdict", "read", "group_means",
// "max_change", "bases", "bases_compared", "bases_changed", "outcomes": {kind: n}, "explanation"}}};
// with_calls adds every call's outcome per attribute ("calls": [[...per group] per base]).
nlohmann::ordered_json execution_json(const ResponseExecution& execution, bool with_calls = false);

}  // namespace codebias::analysis
