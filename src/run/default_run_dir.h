// Where `codebias run` without --out writes (run stage).
#pragma once

#include <filesystem>

namespace codebias::run {

// `parent`/run-<UTC date>-<time>, with -2, -3, ... added when a run started in the same second
// already has that folder (two runs in a script would otherwise collide).
std::filesystem::path default_run_dir(const std::filesystem::path& parent = "runs");

}  // namespace codebias::run
