// The UTC timestamps written into provenance and default run names.
#include "base/utc_time.h"

#include <regex>

#include <gtest/gtest.h>

namespace codebias {
namespace {

TEST(UtcTime, DefaultIsIso8601InUtc) {
  EXPECT_TRUE(std::regex_match(utc_now(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << utc_now();
}

TEST(UtcTime, CustomFormat) {
  EXPECT_TRUE(std::regex_match(utc_now("runs/run-%Y%m%d-%H%M%S"), std::regex(R"(runs/run-\d{8}-\d{6})")));
}

}  // namespace
}  // namespace codebias
