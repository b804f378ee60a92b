// Where the tests find the repository, their scratch space and the codebias binary. Only
// paths.cpp sees the build's absolute paths, so every other test file compiles to the same object
// in any checkout (a compiler cache serves a fresh clone).
#pragma once

#include <string>

namespace codebias::test_support {

std::string source_dir();    // the repository root
std::string test_tmp_dir();  // the build tree's scratch folder for tests
std::string cli_path();      // the codebias binary under test

}  // namespace codebias::test_support
