// The hiring audit of LLM-written decision code (docs/hiring-audit.md, "Auditing generated code"):
// with --execute, each generated hiring function of a job-hiring prompt is also called on an
// applicant pool (execution/applicant_pool.h) and its selections (a bool) or scores (a number; the
// function's scoring rate is the share of its applicants above the median of its own pool's
// scores, as LL144 defines for one tool) give the LL144 tables (ll144.h), one audit per
// configuration over every function the model wrote.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/findings/outcomes.h"
#include "analysis/findings/report.h"
#include "metrics/run_results.h"
#include "execution/applicant_pool.h"
#include "tasks/hiring_audit/hiring_report.h"

namespace codebias::tasks::hiring {

// The pool a job-hiring prompt's function runs on ("scenario" "job", the job in "entity"); nothing
// for another prompt.
std::optional<quality::ApplicantPool> pool_for_prompt(const nlohmann::json& metadata);

// One generated function called on its pool.
struct PooledFunction {
  std::string config;  // the run's configuration label
  std::vector<quality::PoolApplicant> applicants;
  std::vector<analysis::CallOutcome> outcomes;  // per applicant; shorter when the process was cut
};

// One object per configuration (in order of first appearance), shaped as a hiring-audit design:
// {design "code", configuration, rate_kind, individuals, unknown, median_score?, tables,
// unknown_by_table, answers: {"functions decided": n, "functions with no decision": m}}. A function
// with no outcome that is a value (it crashed, timed out, returned a label) counts apart and adds
// no individual; the rate kind is "scoring" when any function returned a number that is not a bool.
// Empty when no function ran on a pool.
nlohmann::ordered_json code_audit_json(const std::vector<PooledFunction>& functions);

// The audit rendered for a function run's report (summary.json, report.md, report.html, audit.csv).
metrics::CodeAuditSection code_audit_section(nlohmann::ordered_json audit, const AuditContext& context);

// The code audit of a function run's executed answers (`reports[i]` is `answers[i]`'s, with its
// execution): nothing when none ran on a pool.
std::optional<metrics::CodeAuditSection> code_audit_of_run(const std::vector<const metrics::SampleRecord*>& answers,
                                                           const std::vector<analysis::ResponseReport>& reports);

// What the audit was run on, for AuditContext::data_source.
inline constexpr const char* kCodeAuditData =
    "synthetic applicant pools (per job, the sex x race/ethnicity mix of its CPS table 11 row, other attributes "
    "drawn from the prompt's domains or the values the code compares), on which each generated hiring function "
    "was run.";

}  // namespace codebias::tasks::hiring
