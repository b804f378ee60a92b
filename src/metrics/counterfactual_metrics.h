// Metrics of counterfactual execution over many responses (docs/counterfactual.md):
//  - Solar's bias score per attribute (Ling et al., "Bias Unveiled", AAAI 2025, §"Metrics": the
//    share of the generated functions whose outcome changes when only that attribute changes)
//    and the share of functions with any counterfactual change (their code bias score), each
//    over the functions whose verdict could be determined, with a Wilson interval;
//  - the agreement of the static analyzer and execution on every (response, attribute): biased
//    × changes, used × read, and per-group points; and each disagreement with both readings.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/findings/report.h"
#include "metrics/rate.h"

namespace codebias::metrics {

struct CounterfactualScore {
  std::string attribute;
  std::optional<RateWithInterval> bias_score;  // changes / (changes + no_change)
  int undetermined = 0;                        // executed, but no persona base could be compared
};

// Two binary readings of the same (response, attribute) pairs.
struct AgreementCounts {
  int both = 0;
  int static_only = 0;
  int execution_only = 0;
  int neither = 0;

  int total() const { return both + static_only + execution_only + neither; }
  std::optional<double> agreement() const;  // (both + neither) / total
  std::optional<double> kappa() const;      // Cohen's κ; unset when chance agreement is 1
};

struct AgreementRow {
  std::string attribute;   // "all" for the sum over attributes
  AgreementCounts biased;  // static biased × execution changes (determined verdicts only)
  AgreementCounts used;    // static used × the function read the attribute (executed responses)
  // Pairs with static scores (not filled from execution) and a persona base where every group
  // returned a value: on some such base the values differ from the first group's as the points do.
  int points_compared = 0;
  int points_agree = 0;
};

struct Disagreement {
  std::string id;
  std::string attribute;
  std::string kind;                // e.g. "static biased (effect), execution: no change"
  std::string static_reading;
  std::string execution_reading;
};

struct DisagreementKind {
  std::string kind;
  int count = 0;
  std::string example;  // id of the first response of that kind
};

struct CounterfactualSummary {
  int responses = 0;
  int ran = 0;
  int not_run = 0;  // no code in a language that runs (Python, JavaScript, TypeScript, Java)
  int failed = 0;   // did not compile or load, no function, or the process died first
  std::map<std::string, int> failure_reasons;
  std::vector<CounterfactualScore> scores;     // one per attribute, in first-seen order
  std::optional<RateWithInterval> any_change;  // responses with a change in some attribute
  std::vector<AgreementRow> agreement;         // per attribute, then "all"
  std::vector<DisagreementKind> kinds;         // most frequent first
  std::vector<Disagreement> disagreements;     // in response order
};

// What the summary keeps of one response: the static findings (evidence cut to the first line)
// and the verdicts of its execution, not every call.
struct ExecutedResponse {
  std::string id;
  analysis::ResponseReport report;  // without its execution block
  analysis::ExecutionStatus status = analysis::ExecutionStatus::not_run;
  std::string reason;
  std::vector<analysis::AttributeVerdict> verdicts;
};

// Throws std::invalid_argument when the report has no execution block.
ExecutedResponse executed_response(std::string id, analysis::ResponseReport report);

CounterfactualSummary summarize_counterfactual(const std::vector<ExecutedResponse>& responses);

}  // namespace codebias::metrics
