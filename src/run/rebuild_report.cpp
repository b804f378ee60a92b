#include "run/rebuild_report.h"

#include <vector>

#include "run/run.h"
#include "run/run_options.h"
#include "store/run_store.h"

namespace codebias::run {

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "html") return ReportFormat::html;
  if (name == "md") return ReportFormat::md;
  if (name == "json") return ReportFormat::json;
  if (name == "csv") return ReportFormat::csv;
  return std::nullopt;
}

std::string report_file_name(ReportFormat format) {
  switch (format) {
    case ReportFormat::html: return "report.html";
    case ReportFormat::md: return "report.md";
    case ReportFormat::json: return "summary.json";
    case ReportFormat::csv: return "metrics.csv";
  }
  return "report.html";
}

std::string render_report(const reports::RunReportInput& input, ReportFormat format,
                          const reports::HtmlReportOptions& html) {
  switch (format) {
    case ReportFormat::html: return reports::report_html(input, html);
    case ReportFormat::md: return reports::report_markdown(input);
    case ReportFormat::json:
      // Exactly as write_run_reports writes summary.json.
      return reports::summary_json(input).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case ReportFormat::csv: return reports::metrics_csv(input);
  }
  return {};
}

std::string rebuild_report(const std::filesystem::path& run_dir, ReportFormat format,
                           const reports::HtmlReportOptions& html) {
  const auto store = store::RunStore::open(run_dir);
  const auto& provenance = store.provenance();
  if (!provenance.contains("options")) {
    throw store::StoreError(store.path().string() + ": provenance has no \"options\" field; not a codebias run");
  }
  const RunOptions options = run_options_from_json(provenance.at("options"));
  const tasks::Task& task = tasks::find_task(options.task);
  // md, json and csv read no sample's analysis, so their analysis may read the store page by page
  // (issue 32); the HTML drill-down shows the analyses made now.
  auto paged = format == ReportFormat::html
                   ? std::nullopt
                   : analyse_in_pages(store, options, task, [](const metrics::SampleRecord&, const nlohmann::ordered_json&) {});
  std::vector<metrics::SampleRecord> records;
  const metrics::RunResults results = paged ? std::move(*paged) : analyse_stored_samples(store, options, task, records);
  reports::RunReportInput input;
  input.provenance = provenance;
  input.results = &results;
  if (paged) {
    input.samples = stored_samples(store, false);
    input.sample_results = stored_samples(store, true);
  }
  return render_report(input, format, html);
}

}  // namespace codebias::run
