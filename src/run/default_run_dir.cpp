#include "run/default_run_dir.h"

#include <string>

#include "base/utc_time.h"

namespace codebias::run {

std::filesystem::path default_run_dir(const std::filesystem::path& parent) {
  const std::string stem = (parent / utc_now("run-%Y%m%d-%H%M%S")).string();
  std::filesystem::path dir = stem;
  for (int n = 2; std::filesystem::exists(dir); ++n) dir = stem + "-" + std::to_string(n);
  return dir;
}

}  // namespace codebias::run
