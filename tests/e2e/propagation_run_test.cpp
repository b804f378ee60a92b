// The propagation table (ProbeDebias §4.2, Figure 4) through the whole pipeline: a CoT run of the
// built-in model, whose traces and code follow the profile's planted relation
// (docs/simulated-model.md, "Reasoning traces and their code"), must show the planted rates within
// 4 binomial standard errors in summary.json, and the table in report.md and metrics.csv (the HTML
// writes the same table: tasks/function/function_report.cpp).
#include <gtest/gtest.h>
#include "paths.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run/run.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::tasks {
namespace {

std::filesystem::path run_once(const std::string& name, const std::string& mode, int entities, int samples) {
  run::RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"age", "gender"};
  options.entities_per_group = entities;
  options.samples = samples;
  options.modes = {mode};
  options.out_dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / name;
  std::filesystem::remove_all(options.out_dir);
  run::start_run(options, {});
  return options.out_dir;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void expect_rate_near(const nlohmann::json& rate, double planted) {
  ASSERT_TRUE(rate.is_object()) << rate.dump();
  const double n = rate["n"].get<double>();
  ASSERT_GT(n, 30);
  EXPECT_NEAR(rate["rate"].get<double>(), planted, 4 * std::sqrt(planted * (1 - planted) / n)) << rate.dump();
  EXPECT_LE(rate["ci95"][0].get<double>(), rate["rate"].get<double>());
  EXPECT_GE(rate["ci95"][1].get<double>(), rate["rate"].get<double>());
}

TEST(PropagationRun, ACotRunRecoversThePlantedConditionalRates) {
  const auto dir = run_once("propagation_cot", "cot", 10, 10);
  const auto summary = nlohmann::json::parse(read(dir / "summary.json"));
  const auto& profile = serve::default_bias_profile();
  ASSERT_EQ(summary["metrics"].size(), 2u);
  for (const auto& cell : summary["metrics"]) {
    const std::string attribute = cell["attribute"];
    SCOPED_TRACE(attribute);
    const auto relation = *profile.find_attribute(attribute)->trace_relation;
    const auto& p = cell["propagation"];
    EXPECT_EQ(p["detector"], "keywords");
    EXPECT_EQ(p["programs_without_trace"], 0);  // every CoT answer of the built-in model reasons
    // The four classes partition the programs with code.
    EXPECT_EQ(p["biased_trace_biased_code"].get<int>() + p["biased_trace_unbiased_code"].get<int>() +
                  p["unbiased_trace_biased_code"].get<int>() + p["unbiased_trace_unbiased_code"].get<int>(),
              cell["n_with_code"].get<int>());
    expect_rate_near(p["biased_trace_share"], relation.trace_bias);
    expect_rate_near(p["biased_code_given_biased_trace"], relation.code_given_biased_trace);
    expect_rate_near(p["biased_code_given_unbiased_trace"], relation.code_given_unbiased_trace);
  }
  EXPECT_NE(read(dir / "report.md").find("## Reasoning → code propagation (ProbeDebias §4.2, Figure 4)"),
            std::string::npos);
  EXPECT_NE(read(dir / "metrics.csv").find(",trace_detector,bt_bc,bt_uc,ut_bc,ut_uc,"), std::string::npos);
}

TEST(PropagationRun, AVanillaRunHasNoTraceAndNoTable) {
  const auto dir = run_once("propagation_vanilla", "vanilla", 3, 2);
  const auto summary = nlohmann::json::parse(read(dir / "summary.json"));
  for (const auto& cell : summary["metrics"]) EXPECT_FALSE(cell.contains("propagation")) << cell.dump();
  EXPECT_EQ(read(dir / "report.md").find("propagation"), std::string::npos);
  EXPECT_EQ(read(dir / "metrics.csv").find("trace_detector"), std::string::npos);
}

}  // namespace
}  // namespace codebias::tasks
