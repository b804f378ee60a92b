#include "store/run_lock.h"

#include <unistd.h>

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store_test_support.h"

namespace codebias::store {
namespace {

using ::testing::HasSubstr;

TEST(RunLock, SecondHolderIsRefusedWithTheFirstOnesPidAndCommand) {
  const auto dir = testing::fresh_test_dir("lock");
  std::filesystem::create_directories(dir);
  {
    const auto first = RunLock::acquire(dir, "codebias run --resume");
    try {
      RunLock::acquire(dir, "codebias batch import");
      ADD_FAILURE() << "a second lock was granted";
    } catch (const StoreError& error) {
      EXPECT_THAT(error.what(), HasSubstr("is in use by another codebias process"));
      EXPECT_THAT(error.what(), HasSubstr("pid " + std::to_string(getpid()) + ", `codebias run --resume` started "));
    }
  }
  // Released with its holder.
  EXPECT_NO_THROW(RunLock::acquire(dir, "codebias run"));
}

}  // namespace
}  // namespace codebias::store
