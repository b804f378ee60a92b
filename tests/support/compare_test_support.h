// Runs of the built-in simulated model for the compare and gate tests: the default profile with
// seeds 1 and 2, the same profile with age's planted bias probability lowered from 0.6 to 0.1
// (seed 1), a run of another scenario (no shared prompt), a short run on a subset of the
// prompts (partial overlap) and a run whose gender bias favours women instead of men. CTest runs each test in its own process, so the runs are made once
// per build of the test binary and shared: the first process makes them under a file lock and
// marks them with the binary's modification time; the others reuse them.
#pragma once

#include <fcntl.h>
#include "paths.h"
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
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
  std::filesystem::path flipped_gender; // gender favours women in every biased program (default: men, 80 %)
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
    // One set per test executable: two executables sharing one set remade it under each other's
    // readers (each sees the other's build stamp), failing compare and gate tests run side by side.
    const std::string executable = std::filesystem::read_symlink("/proc/self/exe").filename().string();
    const auto root = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / ("compare_runs." + executable);
    PlantedRuns made;
    made.default_seed1 = root / "default-seed1";
    made.default_seed2 = root / "default-seed2";
    made.low_age_seed1 = root / "low-age-seed1";
    made.other_scenario = root / "edu";
    made.subset = root / "subset";
    made.flipped_gender = root / "flipped-gender";

    // This binary's build: runs made by another build may differ (profile, model, analysis).
    const auto built = std::filesystem::last_write_time("/proc/self/exe").time_since_epoch().count();
    const auto marker = root / "made-by-build";
    const int lock = ::open((root.string() + ".lock").c_str(),
                            O_CREAT | O_RDWR, 0644);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0) throw std::runtime_error("cannot lock the compare runs");
    std::ifstream previous(marker);
    long long stamp = 0;
    if (!(previous >> stamp) || stamp != static_cast<long long>(built)) {
      std::filesystem::remove_all(root);
      std::filesystem::create_directories(root);
      const auto default_profile = std::filesystem::path(::codebias::test_support::source_dir()) / "data/models/simulated-default.json";
      nlohmann::json profile = nlohmann::json::parse(std::ifstream(default_profile));
      profile["attributes"]["age"]["bias_probability"] = 0.1;
      profile["attributes"]["age"].erase("reasoning");  // the trace relation would imply its own rate
      profile["attributes"]["age"]["bias_probability_reasoning"] = 0.1;
      const auto low_age_profile = root / "low-age.json";
      std::ofstream(low_age_profile) << profile.dump(2);
      nlohmann::json flipped = nlohmann::json::parse(std::ifstream(default_profile));
      flipped["attributes"]["gender"]["favoured"] = "female";
      const auto flipped_profile = root / "flipped-gender.json";
      std::ofstream(flipped_profile) << flipped.dump(2);
      make_run(made.default_seed1, default_profile, 1, "job", 10, 5);
      make_run(made.default_seed2, default_profile, 2, "job", 10, 5);
      make_run(made.low_age_seed1, low_age_profile, 1, "job", 10, 5);
      make_run(made.other_scenario, default_profile, 1, "edu", 1, 2);
      make_run(made.subset, default_profile, 1, "job", 10, 5, 6);
      make_run(made.flipped_gender, flipped_profile, 1, "job", 10, 5);
      std::ofstream(marker) << static_cast<long long>(built) << '\n';
    }
    ::flock(lock, LOCK_UN);
    ::close(lock);
    return made;
  }();
  return runs;
}

}  // namespace codebias::reports::testing
