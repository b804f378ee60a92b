// Running the codebias binary (paths.h: cli_path()) from a test as a user would: its arguments, stdin,
// and the stdout, stderr and exit status it leaves.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::test_support {

struct CliRun {
  int code = -1;    // exit status; 128 + the signal when a signal ended it
  std::string out;  // stdout
  std::string err;  // stderr
  // stdout as JSON lines; throws on a line that is not JSON (or not UTF-8).
  std::vector<nlohmann::json> lines() const;
};

// `codebias args...`, each element one argument (no shell quoting needed). stdin comes from
// `stdin_file` ("": /dev/null); stdout and stderr are captured through files in `scratch`,
// which is created when missing.
CliRun run_cli(const std::vector<std::string>& args, const std::filesystem::path& scratch,
               const std::string& stdin_file = "");

// A fresh, empty folder for the running test's files: CODEBIAS_TEST_TMP_DIR/<prefix><test name>.
std::filesystem::path fresh_test_dir(const std::string& prefix);

// The bytes of a file; "" when it cannot be read.
std::string read_file(const std::filesystem::path& path);

}  // namespace codebias::test_support
