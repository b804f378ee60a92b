// base/strings.h (printable, cut_utf8) and base/url.h (endpoint_url_problem).
#include <string>

#include <gtest/gtest.h>

#include "base/strings.h"
#include "base/url.h"

namespace codebias::base {
namespace {

TEST(Printable, DropsControlBytesKeepsLinesAndUtf8) {
  EXPECT_EQ(printable("a\x1b[31mb\rc\x07\x7f" "d\n\te\xC3\xA9"), "a[31mbcd\n\te\xC3\xA9");
  EXPECT_EQ(printable("a\nb\tc", false), "abc");
}

TEST(CutUtf8, NeverSplitsASequence) {
  std::string text = "x\xC3\xA9\xC3\xA9";  // 5 bytes
  cut_utf8(text, 2);                      // inside the first é: keeps "x"
  EXPECT_EQ(text, "x");
  text = "x\xC3\xA9\xC3\xA9";
  cut_utf8(text, 3);
  EXPECT_EQ(text, "x\xC3\xA9");
  cut_utf8(text, 10);
  EXPECT_EQ(text, "x\xC3\xA9");
}

TEST(EndpointUrl, RefusesUserinfoAndQueryWithoutRepeatingThem) {
  EXPECT_EQ(endpoint_url_problem("http://127.0.0.1:8000/v1"), "");
  EXPECT_EQ(endpoint_url_problem("https://api.example.com"), "");
  EXPECT_EQ(endpoint_url_problem("not-a-url"), "");
  EXPECT_EQ(endpoint_url_problem("http://host/path@v1"), "");  // an @ in the path is no userinfo
  for (const std::string url : {"http://u:SECRET@host", "http://SECRET@host/v1", "u:SECRET@host:80",
                                "http://host/v1?api_key=SECRET", "http://host?SECRET"}) {
    const std::string problem = endpoint_url_problem(url);
    EXPECT_NE(problem, "") << url;
    EXPECT_EQ(problem.find("SECRET"), std::string::npos) << problem;
  }
}

}  // namespace
}  // namespace codebias::base
