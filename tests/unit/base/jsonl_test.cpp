#include "base/jsonl.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace codebias::base {
namespace {

std::vector<Line> read_all(const std::string& text, std::size_t max_line_bytes = kDefaultMaxLineBytes) {
  std::istringstream in(text);
  LineReader reader(in, max_line_bytes);
  std::vector<Line> lines;
  Line line;
  while (reader.next(line)) lines.push_back(line);
  return lines;
}

TEST(LineReader, SplitsOnNewlinesAndNumbersFromOne) {
  auto lines = read_all("a\n\nbc\n");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].text, "");
  EXPECT_EQ(lines[2].text, "bc");
  EXPECT_EQ(lines[2].number, 3);
}

TEST(LineReader, KeepsALastLineWithoutNewline) {
  auto lines = read_all("one\ntwo");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].text, "two");
  EXPECT_TRUE(read_all("").empty());
}

TEST(LineReader, KeepsCarriageReturnsAndNulBytes) {
  std::string text("x\r\ny\0z\n", 7);
  auto lines = read_all(text);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "x\r");
  EXPECT_EQ(lines[1].text, std::string("y\0z", 3));
}

TEST(LineReader, ReadsLinesLongerThanItsBuffer) {
  std::string big(3 * 1024 * 1024 + 17, 'q');
  auto lines = read_all("s\n" + big + "\nt\n");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].text, big);
  EXPECT_EQ(lines[2].text, "t");
}

TEST(LineReader, DropsTheTextOfTooLongLinesButGoesOn) {
  auto lines = read_all("short\n0123456789\nok\n", 5);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_FALSE(lines[0].too_long);
  EXPECT_TRUE(lines[1].too_long);
  EXPECT_EQ(lines[1].text, "");
  EXPECT_EQ(lines[1].length, 10u);
  EXPECT_EQ(lines[2].text, "ok");
  EXPECT_EQ(lines[2].number, 3);
}

TEST(IsBlank, OnlySpacesTabsAndCarriageReturns) {
  EXPECT_TRUE(is_blank(""));
  EXPECT_TRUE(is_blank(" \t\r"));
  EXPECT_FALSE(is_blank(" {}"));
  EXPECT_FALSE(is_blank(std::string_view("\0", 1)));
}

}  // namespace
}  // namespace codebias::base
