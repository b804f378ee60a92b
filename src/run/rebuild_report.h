// `codebias report`: one report file rebuilt from a run directory's store (run.sqlite), with the
// analysis the run itself does (run/run.h analyse_in_pages or analyse_stored_samples), so md, json and csv are the
// content of the run's report.md, summary.json and metrics.csv. The store is only read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "reports/html_report.h"
#include "store/store_error.h"

namespace codebias::run {

enum class ReportFormat { html, md, json, csv };

// "html", "md", "json" or "csv"; nullopt otherwise.
std::optional<ReportFormat> parse_report_format(std::string_view name);

// The file a run directory keeps this format in: report.html, report.md, summary.json, metrics.csv.
std::string report_file_name(ReportFormat format);

// The report of `input` in `format` (json: summary.json's text; csv: metrics.csv's).
std::string render_report(const reports::RunReportInput& input, ReportFormat format,
                          const reports::HtmlReportOptions& html = {});

// Opens the run in `run_dir`, analyses its stored samples and renders the report. Throws
// store::StoreError when `run_dir` holds no readable run store.
std::string rebuild_report(const std::filesystem::path& run_dir, ReportFormat format,
                           const reports::HtmlReportOptions& html = {});

}  // namespace codebias::run
