// Runs of the built-in simulated model for the compare and gate tests, made once per test
// process: the default profile with seeds 1 and 2, the same profile with age's planted bias
// probability lowered from 0.6 to 0.1 (seed 1), a run of another scenario (no shared prompt) and
// a short run on a subset of the prompts (partial overlap).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/run.h"

namespace codebias::reports::testing {

struct PlantedRuns {
  std::filesystem::path default_seed1;  // age bias probability 0.6
  std::filesystem::path default_seed2;
  std::filesystem::path low_age_seed1;  // age bias probability 0.1, everything else the same
  std::filesystem::path other_scenario; // edu: shares no prompt with the job runs
  std::filesystem::path subset;         // the first 6 job prompts of the default profile
};

inline std::filesystem::path make_run(const std::filesystem::path& dir, const std::filesystem::path& profile,
                                      std::uint64_t seed, const std::string& scenario, int entities_per_group,
                                      int samples, std::optional<std::size_t> limit = std::nullopt) {
  run::RunOptions options;
  options.scenarios = {scenario};
  // The job runs carry age (planted level changed) and gender (unchanged); edu has no age.
  options.attributes = scenario == "job" ? std::vector<std::string>{"age", "gender"} : std::vector<std::string>{"gender"};
  options.entities_per_group = entities_per_group;
  options.samples = samples;
  options.seed = seed;
  options.model_profile = profile;
  options.limit = limit;
  options.out_dir = dir;
  std::filesystem::remove_all(dir);
  run::start_run(options, {});
  return dir;
}

inline const PlantedRuns& planted_runs() {
  static const PlantedRuns runs = [] {
    // One folder per process: CTest runs each test in its own process, several at a time.
    const auto root = std::filesystem::path(CODEBIAS_TEST_TMP_DIR) / ("compare_runs." + std::to_string(getpid()));
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root);

    const auto default_profile = std::filesystem::path(CODEBIAS_SOURCE_DIR) / "data/models/simulated-default.json";
    nlohmann::json profile = nlohmann::json::parse(std::ifstream(default_profile));
    profile["attributes"]["age"]["bias_probability"] = 0.1;
    profile["attributes"]["age"].erase("reasoning");  // the trace relation would imply its own rate
    profile["attributes"]["age"]["bias_probability_reasoning"] = 0.1;
    const auto low_age_profile = root / "low-age.json";
    std::ofstream(low_age_profile) << profile.dump(2);

    PlantedRuns made;
    made.default_seed1 = make_run(root / "default-seed1", default_profile, 1, "job", 10, 5);
    made.default_seed2 = make_run(root / "default-seed2", default_profile, 2, "job", 10, 5);
    made.low_age_seed1 = make_run(root / "low-age-seed1", low_age_profile, 1, "job", 10, 5);
    made.other_scenario = make_run(root / "edu", default_profile, 1, "edu", 1, 2);
    made.subset = make_run(root / "subset", default_profile, 1, "job", 10, 5, 6);
    return made;
  }();
  return runs;
}

}  // namespace codebias::reports::testing
