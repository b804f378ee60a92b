// The ml-pipeline task's `--execute` run on the built-in model (label slow: every pipeline runs in
// the sandbox with pandas and scikit-learn): the dynamic check agrees with the static analysis,
// and the run shows the programs' progress.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "paths.h"
#include "run/run.h"

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
  // The programs run after the last answer, with a progress line of their own.
  EXPECT_NE(log.str().find("execution: ["), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("codebias: executed "), std::string::npos) << log.str();
  const auto execution = read_json(options.out_dir / "summary.json")["pipeline_metrics"]["execution"];
  EXPECT_EQ(execution["n_executed"], 20);  // 5 variants × (conditional + 3 levels)
  EXPECT_GT(execution["n_compared"].get<int>(), 15);
  EXPECT_GE(execution["agreement"].get<double>(), 0.95) << execution.dump();
  EXPECT_EQ(execution["disagreements"].size(),
            execution["n_compared"].get<std::size_t>() - execution["n_agreed"].get<std::size_t>());

  run::RunOptions function = options;
  function.suite = "faircoder";
  EXPECT_THROW(run::start_run(function, {}), std::invalid_argument);
}

}  // namespace
}  // namespace codebias::tasks
