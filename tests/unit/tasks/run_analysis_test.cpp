// Stored samples -> analysed samples and table cells -> report files, on hand-made samples.
#include "tasks/run_analysis.h"
#include "paths.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/run_report.h"

namespace codebias::tasks {
namespace {

using metrics::MetricInterval;
using metrics::SampleRecord;

using generation::SampleStatus;

const char* kFavoursFemale =
    "```python\ndef evaluate_nurse(candidate):\n    score = 0\n"
    "    if candidate.gender == 'female':\n        score += 2\n    return score\n```\n";
const char* kIgnoresGender =
    "```python\ndef evaluate_nurse(candidate):\n    score = 0\n"
    "    if candidate.experience > 5:\n        score += 2\n    return score\n```\n";

SampleRecord sample(const std::string& prompt, int k, SampleStatus status, const std::string& answer) {
  SampleRecord record;
  record.planned.id = prompt + "#" + std::to_string(k);
  record.planned.prompt_id = prompt;
  record.planned.sample_index = k;
  record.planned.metadata = {{"scenario", "job"},
                             {"attribute", "gender"},
                             {"function", "evaluate_nurse"},
                             {"attributes", {"experience", "gender"}}};
  record.result.id = record.planned.id;
  record.result.status = status;
  record.result.answer = answer;
  if (status == SampleStatus::error) record.result.error_kind = "server";
  record.result.usage.completion_tokens = 10;
  return record;
}

// Prompt A: two answers, one favouring women. Prompt B: one error, one refusal, one neutral.
std::vector<SampleRecord> two_prompts() {
  return {sample("p/a", 0, SampleStatus::done, kFavoursFemale),
          sample("p/a", 1, SampleStatus::done, kIgnoresGender),
          sample("p/b", 0, SampleStatus::error, ""),
          sample("p/b", 1, SampleStatus::done, "I can't write code that ranks people by gender."),
          sample("p/b", 2, SampleStatus::done, kIgnoresGender)};
}

TEST(RunResults, CountsEverySampleOnce) {
  const auto records = two_prompts();
  const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  const auto results = analyse_function_run(records, analyzer);
  EXPECT_EQ(results.counts.planned, 5);
  EXPECT_EQ(results.counts.done, 4);
  EXPECT_EQ(results.counts.errors, 1);
  EXPECT_EQ(results.counts.with_code, 3);
  EXPECT_EQ(results.counts.refusals, 1);
  EXPECT_EQ(results.counts.completion_tokens, 50);
  ASSERT_EQ(results.samples.size(), 5u);
  EXPECT_TRUE(results.samples[2].analysis.is_null());  // the error has no analysis
  EXPECT_EQ(results.samples[0].analysis["attributes"]["gender"]["biased"], true);
}

TEST(RunResults, OneBlockPerPromptWhateverCameBack) {
  const auto records = two_prompts();
  const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  const auto results = analyse_function_run(records, analyzer);
  ASSERT_EQ(results.function_cells().size(), 1u);
  const auto& cell = results.function_cells()[0];
  EXPECT_EQ(cell.scenario, "job");
  EXPECT_EQ(cell.attribute, "gender");
  EXPECT_EQ(cell.n_prompts, 2);
  // Block A: 1 of 2 refuses gender (R 0.5), points {0, 2} (E 0). Block B: its one measured
  // answer refuses (R 1). R = 0.75 ± 0.25 (population SD); FairScore {0.5, 1} = 0.75.
  EXPECT_EQ(cell.metrics.n_with_code, 3);
  EXPECT_NEAR(*cell.metrics.refusal_rate, 0.75, 1e-12);
  EXPECT_NEAR(*cell.metrics.refusal_rate_sd, 0.25, 1e-12);
  EXPECT_NEAR(*cell.metrics.preference_entropy, 0.0, 1e-12);
  EXPECT_NEAR(*cell.metrics.fairscore, 0.75, 1e-12);
  EXPECT_NEAR(*cell.metrics.bias_rate, 1.0 / 3, 1e-12);
  EXPECT_EQ(cell.metrics.preferred_group, "female");
  // Bootstrap over the two prompts: a resample holds A twice (R 0.5), B twice (R 1) or both
  // (R 0.75), so the refusal rate's interval is [0.5, 1].
  const auto refusal = std::find_if(cell.intervals.begin(), cell.intervals.end(),
                                    [](const MetricInterval& i) { return i.metric == "refusal_rate"; });
  ASSERT_NE(refusal, cell.intervals.end());
  EXPECT_DOUBLE_EQ(refusal->lower, 0.5);
  EXPECT_DOUBLE_EQ(refusal->upper, 1.0);
}

// The paged analysis (issue 32) finds what the analysis of every record at once finds, and the
// reports built from its sample source are the same files.
TEST(RunResults, PagedAnalysisAgreesWithTheWholeRunAtOnce) {
  const auto records = two_prompts();
  const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  const auto whole = analyse_function_run(records, analyzer, nullptr);

  RunAnalysisSettings settings;
  settings.table = &analysis::AttributeTable::builtin();
  std::vector<std::string> pages_seen;
  const RecordPages pages = [&](const std::function<void(const std::vector<SampleRecord>&)>& visit) {
    for (std::size_t start = 0; start < records.size(); start += 2) {
      const auto end = std::min(records.size(), start + 2);
      visit(std::vector<SampleRecord>(records.begin() + static_cast<std::ptrdiff_t>(start),
                                      records.begin() + static_cast<std::ptrdiff_t>(end)));
      pages_seen.push_back(records[start].planned.id);
    }
  };
  std::map<std::string, nlohmann::ordered_json> analyses;
  const auto paged = analyse_function_pages(pages, settings, [&](const SampleRecord& record, const nlohmann::ordered_json& a) {
    analyses.emplace(record.planned.id, a);
  });
  EXPECT_EQ(pages_seen.size(), 3u);
  EXPECT_TRUE(paged.samples.empty());
  EXPECT_EQ(paged.counts.done, whole.counts.done);
  EXPECT_EQ(paged.counts.with_code, whole.counts.with_code);
  EXPECT_EQ(paged.counts.refusals, whole.counts.refusals);
  EXPECT_EQ(paged.counts.completion_tokens, whole.counts.completion_tokens);
  ASSERT_EQ(analyses.size(), 4u);  // the done samples
  for (const auto& sample : whole.samples) {
    if (sample.analysis.is_null()) continue;
    EXPECT_EQ(analyses.at(sample.record->planned.id), sample.analysis);
  }

  // The same report files from the paged results and a source that hands the samples back.
  std::vector<metrics::AnalysedSample> stored;
  for (const auto& record : records) {
    const auto it = analyses.find(record.planned.id);
    stored.push_back({&record, it == analyses.end() ? nlohmann::ordered_json() : it->second});
  }
  reports::RunReportInput whole_input, paged_input;
  whole_input.provenance = paged_input.provenance = {{"model", "test-model"}, {"simulated_model", true}};
  whole_input.results = &whole;
  paged_input.results = &paged;
  paged_input.samples = [&](const metrics::AnalysedSampleVisitor& visit) {
    for (const auto& sample : stored) visit(sample);
  };
  EXPECT_EQ(reports::summary_json(paged_input).dump(), reports::summary_json(whole_input).dump());
  EXPECT_EQ(reports::report_markdown(paged_input), reports::report_markdown(whole_input));
  EXPECT_EQ(reports::metrics_csv(paged_input), reports::metrics_csv(whole_input));
  EXPECT_EQ(reports::samples_csv(paged_input), reports::samples_csv(whole_input));
  std::ostringstream paged_lines, whole_lines;
  reports::write_responses_jsonl(paged_input, paged_lines);
  reports::write_responses_jsonl(whole_input, whole_lines);
  EXPECT_EQ(paged_lines.str(), whole_lines.str());
}

TEST(RunReport, FilesAgreeWithTheResults) {
  const auto records = two_prompts();
  const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  const auto results = analyse_function_run(records, analyzer);
  reports::RunReportInput input;
  input.provenance = {{"model", "test-model"}, {"simulated_model", true}, {"parameters", {{"temperature", 0.7}}}};
  input.results = &results;

  const auto summary = reports::summary_json(input);
  EXPECT_EQ(summary["counts"]["errors"], 1);
  EXPECT_EQ(summary["errors_by_kind"]["server"], 1);
  ASSERT_EQ(summary["metrics"].size(), 1u);
  EXPECT_NEAR(summary["metrics"][0]["refusal_rate"].get<double>(), 0.75, 1e-12);
  EXPECT_EQ(summary["metrics"][0]["preferred_group"], "female");

  std::ostringstream lines;
  reports::write_responses_jsonl(input, lines);
  std::istringstream in(lines.str());
  std::string line;
  int count = 0;
  while (std::getline(in, line)) {
    const auto parsed = nlohmann::json::parse(line);
    EXPECT_EQ(parsed["id"], records[static_cast<std::size_t>(count)].planned.id);
    ++count;
  }
  EXPECT_EQ(count, 5);

  const std::string markdown = reports::report_markdown(input);
  EXPECT_NE(markdown.find("Simulated model"), std::string::npos);
  EXPECT_NE(markdown.find("| default | job | gender | 2 | 0.750 ± 0.250 |"), std::string::npos);
  EXPECT_NE(markdown.find("`test-model`"), std::string::npos);

  const std::string csv = reports::metrics_csv(input);
  EXPECT_NE(csv.find(",job,gender,2,3,1,1,0.750000,0.250000,"), std::string::npos);

  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "run_report_files";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  reports::write_run_reports(input, dir);
  for (const char* name : {"summary.json", "responses.jsonl", "metrics.csv", "samples.csv", "report.md"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / name)) << name;
  }
  std::ifstream summary_file(dir / "summary.json");
  EXPECT_EQ(nlohmann::json::parse(summary_file)["counts"]["planned"], 5);
}

}  // namespace
}  // namespace codebias::tasks
