// The build's paths (tests/CMakeLists.txt defines them for this file alone; see paths.h).
#include "paths.h"

namespace codebias::test_support {

std::string source_dir() { return CODEBIAS_SOURCE_DIR; }
std::string test_tmp_dir() { return CODEBIAS_TEST_TMP_DIR; }
std::string cli_path() { return CODEBIAS_CLI; }

}  // namespace codebias::test_support
