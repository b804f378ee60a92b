#include "base/builtin_data.h"
#include "paths.h"

#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

namespace codebias::data {
namespace {

// Each embedded copy matches its source file and is followed by a NUL (C APIs may read it as a string).
void expect_embedded_copy_of(const char* relative_path, std::string_view embedded) {
  std::ifstream in(std::string(::codebias::test_support::source_dir() + "/") + relative_path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot open " << relative_path;
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(embedded.size(), file.size()) << relative_path;
  EXPECT_TRUE(embedded == file) << relative_path << ": rebuild, the embedded copy is stale";
  EXPECT_EQ(embedded.data()[embedded.size()], '\0') << relative_path;
}

TEST(BuiltinData, AttributesJsonIsTheDataFileByteForByte) {
  expect_embedded_copy_of("data/attributes/attributes.json", builtin_attributes_json());
}

TEST(BuiltinData, PassAt1DriverIsThePythonFileByteForByte) {
  expect_embedded_copy_of("src/quality/pass_at_1_driver.py", builtin_pass_at_1_driver_py());
}

TEST(BuiltinData, FunctionCallsIsThePythonFileByteForByte) {
  expect_embedded_copy_of("src/execution/function_calls.py", builtin_function_calls_py());
}

}  // namespace
}  // namespace codebias::data
