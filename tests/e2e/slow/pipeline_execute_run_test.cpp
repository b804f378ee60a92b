// The ml-pipeline task's `--execute` run on the built-in model (label slow: every pipeline runs in
// the sandbox with pandas and scikit-learn): the dynamic check agrees with the static analysis,
// and `codebias report` rebuilds the run's report files from the outcomes the run stored.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "paths.h"
#include "run/rebuild_report.h"
#include "run/run.h"
#include "store/run_store.h"

namespace codebias::tasks {
namespace {

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(PipelineTask, ExecuteAgreesWithTheStaticAnalysisOnTheBuiltinModel) {
  run::RunOptions options;
  options.suite = "ml-pipelines";
  options.scenarios = {"law_school"};
  options.variants = 5;
  options.execute = true;
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "pipeline_execute_run";
  std::filesystem::remove_all(options.out_dir);
  std::ostringstream log;
  ASSERT_FALSE(run::start_run(options, {&log, false}).cancelled);
  // The programs run in the analysis, with their own progress line and closing line.
  EXPECT_NE(log.str().find("execution: ["), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("codebias: executed "), std::string::npos) << log.str();
  const auto execution = read_json(options.out_dir / "summary.json")["pipeline_metrics"]["execution"];
  EXPECT_EQ(execution["n_executed"], 20);  // 5 variants × (conditional + 3 levels)
  EXPECT_GT(execution["n_compared"].get<int>(), 15);
  EXPECT_GE(execution["agreement"].get<double>(), 0.95) << execution.dump();
  EXPECT_EQ(execution["disagreements"].size(),
            execution["n_compared"].get<std::size_t>() - execution["n_agreed"].get<std::size_t>());

  // Every executed program's outcome is stored (an answer without Python code runs nothing); a
  // rebuilt report takes them and is the run's own.
  auto store = store::RunStore::open(options.out_dir);
  std::size_t ran = 0;
  store.for_each_sample([&](const generation::PlannedSample&, const generation::SampleResult&,
                            const nlohmann::json* analysis) {
    ran += analysis != nullptr && analysis->contains("execution") && (*analysis)["execution"]["status"] != "not_run";
  });
  EXPECT_GT(ran, 15U);
  EXPECT_EQ(store.executions().size(), ran);
  for (const auto format : {run::ReportFormat::md, run::ReportFormat::json, run::ReportFormat::csv}) {
    std::ifstream file(options.out_dir / run::report_file_name(format), std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    EXPECT_EQ(run::rebuild_report(options.out_dir, format), written) << run::report_file_name(format);
  }

  run::RunOptions function = options;
  function.suite = "faircoder";
  EXPECT_THROW(run::start_run(function, {}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::tasks
