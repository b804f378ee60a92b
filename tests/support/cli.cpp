// Running the codebias binary from tests (see cli.h).
#include "cli.h"
#include "paths.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <gtest/gtest.h>

namespace codebias::test_support {
namespace {

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::vector<nlohmann::json> CliRun::lines() const {
  std::vector<nlohmann::json> parsed;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) parsed.push_back(nlohmann::json::parse(line));
  return parsed;
}

CliRun run_cli(const std::vector<std::string>& args, const std::filesystem::path& scratch,
               const std::string& stdin_file) {
  std::filesystem::create_directories(scratch);
  const std::filesystem::path out = scratch / "cli.stdout", err = scratch / "cli.stderr";
  std::string command = shell_quote(::codebias::test_support::cli_path());
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  command += " <" + (stdin_file.empty() ? std::string("/dev/null") : shell_quote(stdin_file));
  const int status = std::system(command.c_str());
  CliRun result;
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

std::filesystem::path fresh_test_dir(const std::string& prefix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = prefix + info->name();
  for (char& c : name)
    if (c == '/') c = '_';  // parameterised tests are named "Name/0"
  const std::filesystem::path dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace codebias::test_support
