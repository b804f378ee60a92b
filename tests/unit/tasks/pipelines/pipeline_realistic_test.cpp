// The static feature-usage analysis on realistic LLM-style answers (tests/data/pipelines_realistic.jsonl:
// prose and fenced scripts, notebooks, several blocks, refusals, JavaScript, truncated answers and
// decision functions over the suite's schemas) against hand labels checked by execution
// (tests/data/pipelines_realistic.labels.jsonl: {"id", "used": {column: true | false | null}}).
#include <gtest/gtest.h>
#include "paths.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "tasks/pipelines/analysis/pipeline_analysis.h"
#include "tasks/pipelines/analysis/pipeline_batch.h"

namespace codebias::analysis::pipelines {
namespace {

namespace fs = std::filesystem;

const fs::path kDataDir = fs::path(::codebias::test_support::source_dir()) / "tests" / "data";

// The accuracy the analysis is held to on (answer, sensitive or irrelevant column) verdicts.
constexpr double kRequiredAccuracy = 0.95;

std::string verdict(const std::optional<bool>& used) { return used ? (*used ? "true" : "false") : "null"; }

std::map<std::string, std::map<std::string, std::optional<bool>>> read_labels() {
  std::ifstream in(kDataDir / "pipelines_realistic.labels.jsonl");
  std::map<std::string, std::map<std::string, std::optional<bool>>> labels;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    nlohmann::json doc = nlohmann::json::parse(line);
    auto& columns = labels[doc.at("id").get<std::string>()];
    for (const auto& [column, used] : doc.at("used").items())
      columns[column] = used.is_null() ? std::nullopt : std::optional<bool>(used.get<bool>());
  }
  return labels;
}

TEST(PipelineRealistic, StaticVerdictsMatchTheLabels) {
  const auto labels = read_labels();
  std::ifstream in(kDataDir / "pipelines_realistic.jsonl");
  ASSERT_TRUE(in) << "tests/data/pipelines_realistic.jsonl is missing";
  int answers = 0, verdicts = 0, correct = 0;
  std::string mismatches;
  long line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty()) continue;
    auto parsed = parse_pipeline_line(line, line_number);
    ASSERT_TRUE(std::holds_alternative<PipelineLine>(parsed)) << "line " << line_number << " does not parse";
    const PipelineLine& answer = std::get<PipelineLine>(parsed);
    auto label = labels.find(answer.id);
    ASSERT_NE(label, labels.end()) << answer.id << " has no label line";
    ++answers;
    const PipelineReport report = analyze_pipeline(answer.response, answer.request);
    ASSERT_EQ(report.attributes.size(), label->second.size()) << answer.id << ": every reported column needs a label";
    for (const PipelineAttribute& attribute : report.attributes) {
      auto want = label->second.find(attribute.name);
      ASSERT_NE(want, label->second.end()) << answer.id << ": no label for " << attribute.name;
      ++verdicts;
      if (attribute.used == want->second) ++correct;
      else
        mismatches += "\n  " + answer.id + " " + attribute.name + ": labelled " + verdict(want->second) + ", analysed " +
                      verdict(attribute.used) + (report.features_reason ? " (" + *report.features_reason + ")" : "");
    }
  }
  EXPECT_EQ(answers, static_cast<int>(labels.size())) << "a label line names no answer";
  ASSERT_GE(answers, 40);
  const double accuracy = static_cast<double>(correct) / verdicts;
  EXPECT_GE(accuracy, kRequiredAccuracy) << correct << " of " << verdicts << " verdicts right; mismatches:" << mismatches;
  // Listed above the bar too, so a change that costs a verdict shows which answer it hit.
  if (!mismatches.empty()) std::cout << correct << " of " << verdicts << " verdicts right; mismatches:" << mismatches << "\n";
}

}  // namespace
}  // namespace codebias::analysis::pipelines
