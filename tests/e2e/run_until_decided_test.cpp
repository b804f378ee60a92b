// `codebias run --until-decided` (docs/gate.md, "Sampling until decided"): the built-in model with
// age bias planted at 0.9 and none for gender; each cell is sent in rounds of 5 prompts and
// stopped once its always-valid interval decides against --max-bias-rate 0.3. The biased cell
// stops early, the fair one decides "within" or runs to its maximum, summary.json and report.md
// say which, and a run stopped at its budget resumes without sending anything twice or reopening
// a decided cell.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
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
  const auto dir = fs::path(test_support::test_tmp_dir()) / ("run_until_decided." + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

test_support::CliRun cli(const std::vector<std::string>& args) { return test_support::run_cli(args, scratch()); }

fs::path planted_profile() {
  const auto path = scratch() / "age-0.9-gender-0.json";
  auto profile = nlohmann::json::parse(
      std::ifstream(fs::path(test_support::source_dir()) / "data/models/simulated-default.json"));
  profile["attributes"]["age"]["bias_probability"] = 0.9;
  profile["attributes"]["age"].erase("reasoning");
  profile["attributes"]["gender"]["bias_probability"] = 0.0;
  profile["attributes"]["gender"].erase("reasoning");
  std::ofstream(path) << profile.dump(2);
  return path;
}

std::vector<std::string> run_args(const fs::path& out) {
  return {"run",         "--scenario",      "job", "--attribute",       "age,gender", "--entities-per-group",
          "10",          "--samples",       "4",   "--seed",            "3",          "--model-profile",
          planted_profile().string(), "--until-decided", "--max-bias-rate", "0.3", "--look-every", "5",
          "--out",       out.string(),      "--no-html"};
}

nlohmann::json summary(const fs::path& run) { return nlohmann::json::parse(test_support::read_file(run / "summary.json")); }

// The samples the log says were sent ("codebias: sending N samples ...").
int samples_sent(const std::string& log) {
  static const std::regex sending("sending ([0-9]+) samples");
  int total = 0;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), sending); it != std::sregex_iterator(); ++it)
    total += std::stoi((*it)[1].str());
  return total;
}

TEST(RunUntilDecided, StopsABiasedCellEarlyAndSaysSoPerCell) {
  const auto out = scratch() / "decided";
  fs::remove_all(out);
  auto result = cli(run_args(out));
  ASSERT_EQ(result.code, 0) << result.err;
  const auto first = summary(out);
  const auto& cells = first["until_decided"]["cells"];
  const auto& age = cells["job/age"];
  EXPECT_EQ(age["stopped"], "decided early") << age;
  EXPECT_EQ(age["verdict"], "exceeds") << age;
  EXPECT_LT(age["samples"].get<int>(), age["max_samples"].get<int>()) << age;
  EXPECT_GT(age["lower"].get<double>(), 0.3) << age;
  const auto& gender = cells["job/gender"];
  EXPECT_NE(gender["verdict"], "exceeds") << gender;
  EXPECT_TRUE(gender["stopped"] == "ran to the maximum" || gender["verdict"] == "within") << gender;
  // What a decided cell did not need stays pending (unsent), and every sent sample is counted once.
  EXPECT_GT(first["counts"]["pending"].get<int>(), 0) << first["counts"];
  EXPECT_EQ(samples_sent(result.err), first["counts"]["done"].get<int>()) << result.err;
  const auto report = test_support::read_file(out / "report.md");
  EXPECT_NE(report.find("**Sampled until decided**"), std::string::npos) << report;
  EXPECT_NE(report.find("- job/age: decided early after " + std::to_string(age["samples"].get<int>()) + " of " +
                        std::to_string(age["max_samples"].get<int>()) + " samples"),
            std::string::npos)
      << report;

  // Resuming a finished run sends nothing: decided cells stay decided.
  result = cli({"run", "--resume", out.string(), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  EXPECT_EQ(samples_sent(result.err), 0) << result.err;
  const auto again = summary(out);
  EXPECT_EQ(again["until_decided"].dump(), first["until_decided"].dump());
  EXPECT_EQ(again["counts"].dump(), first["counts"].dump());
}

TEST(RunUntilDecided, AResumedRunKeepsItsDecisionsAndSendsNothingTwice) {
  // The whole run's tokens, then the same run cut at a third of them.
  const auto whole = scratch() / "whole";
  fs::remove_all(whole);
  ASSERT_EQ(cli(run_args(whole)).code, 0);
  const auto whole_cost = summary(whole)["cost"];
  const auto tokens = whole_cost["prompt_tokens"].get<long long>() + whole_cost["completion_tokens"].get<long long>();

  const auto out = scratch() / "resumed";
  fs::remove_all(out);
  auto args = run_args(out);
  args.insert(args.end(), {"--max-tokens-total", std::to_string(tokens / 3)});
  auto result = cli(args);
  ASSERT_EQ(result.code, 0) << result.err;
  const auto stopped = summary(out);
  ASSERT_TRUE(stopped["cost"]["budget"]["stopped_at_budget"].get<bool>()) << stopped["cost"];
  const int done_at_stop = stopped["counts"]["done"].get<int>();
  EXPECT_EQ(samples_sent(result.err), done_at_stop) << result.err;

  result = cli({"run", "--resume", out.string(), "--max-tokens-total", std::to_string(tokens * 10), "--no-html"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto resumed = summary(out);
  // Only samples not sent before were sent, and every cell ended.
  EXPECT_EQ(samples_sent(result.err), resumed["counts"]["done"].get<int>() - done_at_stop) << result.err;
  for (const auto& [label, cell] : resumed["until_decided"]["cells"].items()) {
    EXPECT_TRUE(cell["stopped"].is_string()) << label << ": " << cell;
    // A cell decided before the stop kept its samples and looks.
    const auto& before = stopped["until_decided"]["cells"][label];
    if (before["stopped"].is_string()) {
      EXPECT_EQ(cell.dump(), before.dump()) << label;
    }
  }
  EXPECT_EQ(resumed["until_decided"]["cells"]["job/age"]["verdict"], "exceeds");
}

}  // namespace
}  // namespace codebias
