#include "base/text_table.h"

#include <gtest/gtest.h>

namespace codebias::base {
namespace {

TEST(TextTable, PadsToDisplayWidthAndAlignsTextLeftNumbersRight) {
  // "0.50±0.10" is ten bytes but nine columns wide.
  const auto table = text_table({"topic", "R"}, {true, false}, {{"hiv", "0.50±0.10"}, {"cancer", "1.00"}});
  EXPECT_EQ(table,
            "topic           R\n"
            "-----------------\n"
            "hiv     0.50±0.10\n"
            "cancer       1.00\n");
}

TEST(TextTable, TrimsTrailingSpacesOfALeftAlignedLastColumn) {
  const auto table = text_table({"n", "group"}, {false, true}, {{"1", "male"}, {"22", "a"}});
  EXPECT_EQ(table,
            " n  group\n"
            "---------\n"
            " 1  male\n"
            "22  a\n");
}

}  // namespace
}  // namespace codebias::base
