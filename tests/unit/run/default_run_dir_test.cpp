// `codebias run` without --out: a second run started in the same second gets a folder of its own.
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "paths.h"
#include "run/default_run_dir.h"

namespace codebias::run {
namespace {

TEST(DefaultRunDir, ARunStartedInTheSameSecondGetsAFolderOfItsOwn) {
  const auto parent = std::filesystem::path(test_support::test_tmp_dir()) / "default_run_dir";
  std::filesystem::remove_all(parent);
  const auto first = default_run_dir(parent);
  EXPECT_TRUE(std::regex_match(first.filename().string(), std::regex(R"(run-\d{8}-\d{6})")));
  std::filesystem::create_directories(first);
  // The clock may turn to the next second between the two calls; then the name is new anyway.
  const auto second = default_run_dir(parent);
  EXPECT_NE(second, first);
  EXPECT_FALSE(std::filesystem::exists(second));
  if (second.filename().string().starts_with(first.filename().string())) {
    EXPECT_EQ(second.filename().string(), first.filename().string() + "-2");
  }
}

}  // namespace
}  // namespace codebias::run
