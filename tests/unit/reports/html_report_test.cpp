// The HTML report: escaping of untrusted model output, the drill-down (deciding lines, prompt,
// cap), the simulated-model banner, and `codebias report` rebuilding the run's own files.
#include <filesystem>
#include "paths.h"
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "reports/html_report.h"
#include "text_support.h"
#include "run/rebuild_report.h"
#include "run/run.h"
#include "tasks/function/function_results.h"

namespace codebias::reports {
namespace {

using test_support::count_occurrences;

// A done function-task sample; biased_analysis() marks its gender finding biased.
metrics::SampleRecord biased_record(const std::string& id, const std::string& answer) {
  metrics::SampleRecord record;
  record.planned.id = id;
  record.planned.prompt_id = id;
  record.planned.body = {{"messages",
                          {{{"role", "system"}, {"content", "You write code."}},
                           {{"role", "user"}, {"content", "Write evaluate_nurse(nurse) <b>now</b>"}}}}};
  record.result.id = id;
  record.result.status = generation::SampleStatus::done;
  record.result.answer = answer;
  return record;
}

nlohmann::ordered_json biased_analysis(long line) {
  nlohmann::ordered_json evidence = {
      {"line", line}, {"text", "x"}, {"groups", {"male"}}, {"amount", 2.0}, {"rule", "lookup/table"}};
  nlohmann::ordered_json finding = {{"used", true},
                                    {"biased", true},
                                    {"scores", {{"male", 2.0}, {"female", 0.0}}},
                                    {"evidence", nlohmann::ordered_json::array({evidence})}};
  return {{"code_status", "ok"}, {"attributes", {{"gender", finding}}}};
}

struct Fixture {
  std::vector<metrics::SampleRecord> records;
  metrics::RunResults results;
  RunReportInput input;

  explicit Fixture(std::vector<std::string> answers, bool simulated = true) {
    for (std::size_t i = 0; i < answers.size(); ++i)
      records.push_back(biased_record("s" + std::to_string(i), answers[i]));
    for (const auto& record : records) results.samples.push_back({&record, biased_analysis(2)});
    results.counts.planned = results.counts.done = static_cast<std::int64_t>(records.size());
    results.task = std::make_shared<metrics::FunctionResults>();
    input.provenance = {{"model", "m</script><script>alert(2)</script>"}, {"simulated_model", simulated}};
    input.results = &results;
  }
};

const std::string kHostile = "line one\nconst x = '</script><script>alert(1)</script>';\n<img src=x onerror=alert(3)>";

TEST(HtmlReport, ModelOutputAndProvenanceCannotInjectScript) {
  Fixture f({kHostile});
  const auto html = report_html(f.input);
  EXPECT_EQ(html.find("<script>alert("), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(3)&gt;"), std::string::npos);
  // Exactly the page's own four scripts: error capture, chart data, Chart.js, page script.
  EXPECT_EQ(count_occurrences(html, "<script"), 4u);
  EXPECT_EQ(count_occurrences(html, "</script>"), 4u);
}

TEST(HtmlReport, ChartDataBlockHoldsNoClosingTag) {
  nlohmann::ordered_json value = {{"label", "</script><!-- & \xE2\x80\xA8"}};
  const auto text = script_safe_json(value);
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(text.find('&'), std::string::npos);
  EXPECT_EQ(text, R"({"label":"\u003c/script\u003e\u003c!-- \u0026 \u2028"})");
  // The escapes decode back to the same string.
  EXPECT_EQ(nlohmann::json::parse(text)["label"], "</script><!-- & \xE2\x80\xA8");
}

TEST(HtmlReport, HtmlEscapeCoversAttributeQuotes) {
  EXPECT_EQ(html_escape(R"(<a href="x" title='y'>&</a>)"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
}

TEST(HtmlReport, DrillDownMarksTheDecidingLineAndShowsTheLastUserMessage) {
  Fixture f({"first\nscore += GENDER[p.gender]\nthird"});
  const auto html = report_html(f.input);
  EXPECT_NE(html.find("<span class=\"ln hit\" data-line=\"2\">score += GENDER[p.gender]</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"ln\" data-line=\"1\">first</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"ln\" data-line=\"3\">third</span>"), std::string::npos);
  EXPECT_NE(html.find("Write evaluate_nurse(nurse) &lt;b&gt;now&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("You write code."), std::string::npos);  // the system message is not the prompt
  EXPECT_NE(html.find("<tr><td>male</td><td>2.0</td></tr>"), std::string::npos);
  EXPECT_EQ(count_occurrences(html, "<details class=\"sample\">"), 1u);
}

TEST(HtmlReport, DrillDownIsCappedAndSaysSo) {
  Fixture f({"a\nb", "c\nd", "e\nf"});
  HtmlReportOptions options;
  options.max_drilldown_samples = 2;
  const auto html = report_html(f.input, options);
  EXPECT_EQ(count_occurrences(html, "<details class=\"sample\">"), 2u);
  EXPECT_NE(html.find("<p>3 samples hold code"), std::string::npos);
  EXPECT_NE(html.find("The first 2 are shown here"), std::string::npos);
}

TEST(HtmlReport, SimulatedModelBannerOnlyForTheBuiltInModel) {
  Fixture simulated({"a"}, true);
  Fixture real({"a"}, false);
  EXPECT_NE(report_html(simulated.input).find("id=\"simulated-banner\""), std::string::npos);
  EXPECT_EQ(report_html(real.input).find("id=\"simulated-banner\""), std::string::npos);
}

TEST(HtmlReport, InlinesChartJsAndLoadsNothingFromTheNetwork) {
  Fixture f({"a"});
  const auto html = report_html(f.input);
  EXPECT_NE(html.find("Chart.js v4.5.1"), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
}

TEST(ReportFormat, ParsesTheFourFormats) {
  EXPECT_EQ(run::parse_report_format("html"), run::ReportFormat::html);
  EXPECT_EQ(run::parse_report_format("md"), run::ReportFormat::md);
  EXPECT_EQ(run::parse_report_format("json"), run::ReportFormat::json);
  EXPECT_EQ(run::parse_report_format("csv"), run::ReportFormat::csv);
  EXPECT_FALSE(run::parse_report_format("pdf"));
  EXPECT_EQ(run::report_file_name(run::ReportFormat::json), "summary.json");
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RebuildReport, MarkdownJsonAndCsvEqualTheRunsOwnFiles) {
  run::RunOptions options;
  options.scenarios = {"job"};
  options.entities_per_group = 1;
  options.samples = 2;
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "report_rebuild";
  std::filesystem::remove_all(options.out_dir);
  run::start_run(options, {});
  EXPECT_EQ(run::rebuild_report(options.out_dir, run::ReportFormat::md), read_file(options.out_dir / "report.md"));
  EXPECT_EQ(run::rebuild_report(options.out_dir, run::ReportFormat::json), read_file(options.out_dir / "summary.json"));
  EXPECT_EQ(run::rebuild_report(options.out_dir, run::ReportFormat::csv), read_file(options.out_dir / "metrics.csv"));
  const auto html = run::rebuild_report(options.out_dir, run::ReportFormat::html);
  EXPECT_NE(html.find("id=\"simulated-banner\""), std::string::npos);
  EXPECT_NE(html.find("<canvas id=\"chart-0\""), std::string::npos);
}

TEST(RebuildReport, DirectoryWithoutARunIsAStoreError) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "report_no_run";
  std::filesystem::create_directories(dir);
  EXPECT_THROW(run::rebuild_report(dir, run::ReportFormat::md), store::StoreError);
}

}  // namespace
}  // namespace codebias::reports
