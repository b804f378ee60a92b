// `codebias plan` checked against simulation: the built-in model with a planted age bias, runs
// sized by plan_cell (the figures `codebias plan` prints), each judged by the gate at the plan's
// threshold. Over 40 runs the share that detect the effect (the gate fails the cell: its whole
// interval lies above the threshold) must be near the planned power 0.8: at least 26 (a power of
// 0.5 gives 26 or more detections with probability 0.04) and at most 38 (0.8 gives 39 or more
// with probability 0.002). Plan and gate apply the same design effect (stats::gate_design_effect:
// the gate estimates the ICC from each run); docs/gate.md has the figures.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "metrics/cell_evidence.h"
#include "metrics/gate.h"
#include "metrics/sample_size_plan.h"
#include "paths.h"
#include "run/load_run.h"
#include "run/run.h"

namespace codebias {
namespace {

namespace fs = std::filesystem;

constexpr int kReplicates = 40;
constexpr int kPromptsInSlice = 30;  // job/age with 10 entities per group

fs::path scratch() {
  const auto dir = fs::path(test_support::test_tmp_dir()) / ("plan_power." + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

run::RunOptions age_run(const fs::path& profile, const fs::path& out, std::uint64_t seed, int samples,
                        std::optional<std::size_t> limit) {
  run::RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"age"};
  options.entities_per_group = 10;
  options.samples = samples;
  options.seed = seed;
  options.limit = limit;
  options.model_profile = profile;
  options.out_dir = out;
  fs::remove_all(out);
  run::start_run(options, {});
  return options;
}

TEST(PlanPower, RunsSizedByThePlanDetectAPlantedEffectAtAboutThePlannedPower) {
  // Age bias planted at 0.2, without the reasoning relation (vanilla runs have no trace anyway).
  const auto default_profile = fs::path(test_support::source_dir()) / "data/models/simulated-default.json";
  nlohmann::json profile = nlohmann::json::parse(std::ifstream(default_profile));
  profile["attributes"]["age"]["bias_probability"] = 0.2;
  profile["attributes"]["age"].erase("reasoning");
  profile["attributes"]["age"]["bias_probability_reasoning"] = 0.2;
  const auto profile_path = scratch() / "age-0.2.json";
  std::ofstream(profile_path) << profile.dump(2);

  // A pilot run measures what the plan needs: the cell's true bias rate on these prompts, the
  // share of answers with code and the intraclass correlation. The threshold is set from the
  // pilot's rate, so the pilot's error moves the effect the runs face: 300 samples a prompt keep
  // it near 0.004 (at 150 it measured 0.198 where the runs averaged 0.185, which alone took the
  // power from 0.8 to 0.68).
  const auto pilot_dir = scratch() / "pilot";
  age_run(profile_path, pilot_dir, 7, 300, std::nullopt);
  const auto pilot = run::load_run(pilot_dir);
  ASSERT_EQ(pilot.cells.size(), 1u);
  ASSERT_EQ(static_cast<int>(pilot.cells[0].prompts.size()), kPromptsInSlice);
  const auto tallies = metrics::tally_prompts(pilot.cells[0]);
  const auto rate = metrics::bias_rate_evidence(tallies, 0.95);
  ASSERT_TRUE(rate.has_value());
  const auto code_share = metrics::no_code_rate_evidence(tallies, 0.95);
  ASSERT_TRUE(code_share.has_value());

  metrics::PlanTarget target;
  target.rate = rate->estimate;
  target.threshold = rate->estimate - 0.1;
  target.icc = rate->icc;
  target.code_share = 1 - code_share->estimate;
  target.samples_per_prompt = 5;
  const auto plan = metrics::plan_cell({"job/age", kPromptsInSlice, 0}, target, 0, std::nullopt);
  ASSERT_GT(plan.prompts_run, 0);
  std::cout << "pilot: bias rate " << rate->estimate << ", ICC " << rate->icc << ", code share " << target.code_share
            << "; plan: " << plan.prompts_run << " prompts x " << plan.samples_run << " samples\n";

  metrics::GateOptions gate;
  gate.max_bias_rate = target.threshold;
  int detected = 0;
  for (int replicate = 0; replicate < kReplicates; ++replicate) {
    const auto dir = scratch() / ("replicate-" + std::to_string(replicate));
    age_run(profile_path, dir, 1000 + static_cast<std::uint64_t>(replicate) * 100, plan.samples_run,
            plan.prompts_run < kPromptsInSlice ? std::optional<std::size_t>(plan.prompts_run) : std::nullopt);
    const auto run = run::load_run(dir);
    const bool detects = metrics::evaluate_gate(run, nullptr, gate).outcome() == metrics::GateOutcome::fail;
    if (detects) ++detected;
    if (const auto evidence = metrics::bias_rate_evidence(metrics::tally_prompts(run.cells.at(0)), 0.95))
      std::cout << "replicate " << replicate << ": " << metrics::rate_with_interval(*evidence, "programs") << ", ICC "
                << evidence->icc << (detects ? ", detected" : "") << "\n";
    fs::remove_all(dir);
  }
  std::cout << "detected in " << detected << " of " << kReplicates << " runs (planned power 0.8)\n";
  EXPECT_GE(detected, 26);
  EXPECT_LE(detected, 38);
}

}  // namespace
}  // namespace codebias
