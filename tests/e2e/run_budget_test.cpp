// `codebias run --max-cost` / `--max-tokens-total` (docs/cost.md): the run stops sending before
// the budget would be passed, stays resumable, says so in summary.json and report.md, and a resume
// with a higher budget completes it; cost is reported both times, from the price file's prices.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "paths.h"

namespace codebias {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  const auto dir = fs::path(test_support::test_tmp_dir()) / ("run_budget." + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

test_support::CliRun cli(const std::vector<std::string>& args) { return test_support::run_cli(args, scratch()); }

// The built-in model at USD 1000 / 2000 per million tokens, so that a few samples cost dollars.
fs::path price_file() {
  const auto path = scratch() / "prices.json";
  std::ofstream(path) << R"({"currency": "USD", "models": [{"model": "codebias-simulated", "prompt_per_million": 1000,
    "completion_per_million": 2000, "source": "a test price", "date": "2026-12-06"}]})";
  return path;
}

nlohmann::json summary(const fs::path& run) {
  return nlohmann::json::parse(test_support::read_file(run / "summary.json"));
}

TEST(RunBudget, StopsAtTheCostResumesToCompletionAndReportsTheCostBothTimes) {
  const auto out = scratch() / "budget";
  fs::remove_all(out);
  auto result = cli({"run", "--scenario", "job", "--attribute", "age", "--samples", "4", "--concurrency", "1",
                     "--price-file", price_file().string(), "--max-cost", "3", "--out", out.string(), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.err.find("stopped at the budget"), std::string::npos) << result.err;
  auto first = summary(out);
  const auto pending = first["counts"]["pending"].get<int>();
  EXPECT_GT(pending, 0);
  EXPECT_GT(first["counts"]["done"].get<int>(), 0);
  const auto& cost = first["cost"];
  EXPECT_EQ(cost["currency"], "USD");
  EXPECT_LE(cost["total"].get<double>(), 3.0);
  EXPECT_GT(cost["total"].get<double>(), 1.0);  // it used most of the budget before stopping
  EXPECT_EQ(cost["prices"]["source"], "a test price");
  EXPECT_EQ(cost["prices"]["date"], "2026-12-06");
  EXPECT_EQ(cost["per_configuration"].size(), 1u);
  EXPECT_TRUE(cost["budget"]["stopped_at_budget"].get<bool>());
  auto report = test_support::read_file(out / "report.md");
  EXPECT_NE(report.find("**Stopped at the budget** (--max-cost 3)"), std::string::npos) << report;
  EXPECT_NE(report.find("Cost: USD "), std::string::npos) << report;

  result = cli({"run", "--resume", out.string(), "--max-cost", "1000", "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_EQ(result.err.find("stopped at the budget"), std::string::npos) << result.err;
  const auto second = summary(out);
  EXPECT_EQ(second["counts"]["pending"], 0);
  EXPECT_GT(second["cost"]["total"].get<double>(), cost["total"].get<double>());
  EXPECT_FALSE(second["cost"]["budget"]["stopped_at_budget"].get<bool>());
  EXPECT_EQ(second["provenance"]["options"]["max_cost"], 1000.0);
  report = test_support::read_file(out / "report.md");
  EXPECT_EQ(report.find("Stopped at the budget"), std::string::npos);
}

TEST(RunBudget, StopsAtTheTokenTotal) {
  const auto out = scratch() / "tokens";
  fs::remove_all(out);
  const auto result = cli({"run", "--scenario", "job", "--attribute", "age", "--samples", "2", "--concurrency", "1",
                           "--max-tokens-total", "3000", "--out", out.string(), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto s = summary(out);
  EXPECT_GT(s["counts"]["pending"].get<int>(), 0);
  EXPECT_LE(s["cost"]["budget"]["tokens_spent"].get<int>(), 3000);
  // The built-in table prices the built-in model at nothing.
  EXPECT_EQ(s["cost"]["total"], 0.0);
}

TEST(RunBudget, RefusesACostBudgetWithoutAPriceAndABadPriceFile) {
  const auto out = scratch() / "refused";
  fs::remove_all(out);
  const auto bad = scratch() / "bad-prices.json";
  std::ofstream(bad) << "{\"currency\": \"USD\", \"models\": [\n  {\"model\": \"m\", \"prompt_per_million\": -1}\n]}";
  auto result = cli({"run", "--scenario", "job", "--price-file", bad.string(), "--out", out.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find(bad.string() + ":2: field \"models[0].prompt_per_million\""), std::string::npos)
      << result.err;
  const auto other = scratch() / "other-prices.json";
  std::ofstream(other) << R"({"currency": "USD", "models": []})";
  result = cli({"run", "--scenario", "job", "--price-file", other.string(), "--max-cost", "1", "--out", out.string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("no price for model \"codebias-simulated\""), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(out / "run.sqlite"));
}

}  // namespace
}  // namespace codebias
