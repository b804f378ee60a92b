#include "base/builtin_data.h"

#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

namespace codebias::data {
namespace {

TEST(BuiltinData, AttributesJsonIsTheDataFileByteForByte) {
  std::ifstream in(CODEBIAS_SOURCE_DIR "/data/attributes/attributes.json", std::ios::binary);
  ASSERT_TRUE(in) << "cannot open data/attributes/attributes.json";
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string_view embedded = builtin_attributes_json();
  EXPECT_EQ(embedded.size(), file.size());
  EXPECT_TRUE(embedded == file) << "rebuild: the embedded copy is stale";
  // The bytes are followed by a NUL, so C APIs may read them as a string.
  EXPECT_EQ(embedded.data()[embedded.size()], '\0');
}

}  // namespace
}  // namespace codebias::data
