// read_resume_table reads through the project's capped line reader (base/jsonl.h).
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tasks/screening/analysis/resume_table.h"
#include "cli.h"

namespace codebias::analysis::screening {
namespace {

TEST(ResumeTableCap, LineOverTheCapIsRefusedWithItsFileAndLine) {
  const auto dir = test_support::fresh_test_dir("resume_cap_");
  for (const char* name : {"t.jsonl", "t.csv"}) {
    const auto path = (dir / name).string();
    std::ofstream(path) << "FirstName,LastName\n" << std::string(200, 'a') << ",b\n";
    try {
      read_resume_table(path, 100);
      ADD_FAILURE() << name << ": a 202-byte line passed a 100-byte cap";
    } catch (const std::runtime_error& error) {
      EXPECT_THAT(error.what(), ::testing::HasSubstr(path + ":2: line is 202 bytes, more than the limit of 100"));
    }
  }
}

}  // namespace
}  // namespace codebias::analysis::screening
