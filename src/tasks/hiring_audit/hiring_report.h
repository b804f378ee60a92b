// The hiring audit's report sections (docs/hiring-audit.md, "Report"): laid out as a published
// LL144 bias-audit summary (date, data source and its nature as test data, individuals per
// category, rates and impact ratios per table, excluded categories, unknowns), then the
// statistics beyond the rule, a method note, a CSV row per table row and a chart of impact ratios
// with their intervals and the 0.8 line of the EEOC heuristic.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/text_document.h"
#include "metrics/run_results.h"
#include "reports/task_report.h"

namespace codebias::tasks::hiring {

// What the summary says of the audit besides its tables.
struct AuditContext {
  std::string date;         // the last answer's UTC date, "YYYY-MM-DD"
  std::string model;        // the model that answered
  std::string data_source;  // what was audited on, as test data
  std::string method_note;  // what the audit does and does not establish; "": the résumé audit's
};

// "YYYY-MM-DD" of a UTC time in seconds since the epoch.
std::string utc_date(double unix_seconds);

// summary.json's "audit_summary": the context and the law the tables follow.
nlohmann::ordered_json audit_summary_json(const AuditContext& context);

// A CSV row per row of every table of every design (metrics.csv of a hiring-audit run, audit.csv
// of a function run's code audit).
std::string audit_csv(const nlohmann::ordered_json& audit);

// The audit summary, statistics and method note as text (report.md, report.html, `codebias score --summary`).
base::Document audit_document(const nlohmann::ordered_json& audit, const AuditContext& context);

// `audit`: hiring_audit_json's array.
std::unique_ptr<reports::TaskReport> hiring_report(nlohmann::ordered_json audit, AuditContext context);

// A hiring-audit run's results (tasks/hiring_audit/hiring_task.cpp): the audit and its context,
// reported by hiring_report. Its rates are in the audit's tables, which name their own small
// categories: it has no small-groups cells.
class HiringResults final : public metrics::TaskResults {
 public:
  HiringResults(nlohmann::ordered_json audit, AuditContext context)
      : audit_(std::move(audit)), context_(std::move(context)) {}
  std::unique_ptr<reports::TaskReport> report() const override { return hiring_report(audit_, context_); }

 private:
  nlohmann::ordered_json audit_;
  AuditContext context_;
};

}  // namespace codebias::tasks::hiring
