// The progress line and when it is printed.
#include "run/progress.h"

#include <sstream>

#include <gtest/gtest.h>

namespace codebias::run {
namespace {

TEST(Progress, LineShowsCountsRateAndEta) {
  const std::string line = format_progress({.total = 1000, .done = 250, .errors = 3, .tokens = 41'500, .elapsed_s = 5}, 8);
  EXPECT_EQ(line, "[##......]  250/1000   25%  50.0/s  ETA 15s  errors 3  tokens 41k");
  const std::string done = format_progress({.total = 10, .done = 10, .errors = 0, .tokens = 5, .elapsed_s = 2}, 4);
  EXPECT_EQ(done, "[####]  10/10  100%  5.0/s  errors 0  tokens 5");
}

TEST(Progress, PlainOutputIsRateLimitedButFinishAlwaysPrints) {
  std::ostringstream out;
  ProgressPrinter printer(out, false, std::chrono::hours(1));
  printer.update({.total = 4, .done = 1});
  printer.update({.total = 4, .done = 2});  // within the interval: not printed
  printer.finish({.total = 4, .done = 4});
  const std::string text = out.str();
  EXPECT_NE(text.find("1/4"), std::string::npos);
  EXPECT_EQ(text.find("2/4"), std::string::npos);
  EXPECT_NE(text.find("4/4"), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace codebias::run
