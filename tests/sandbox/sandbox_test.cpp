// The sandbox: limits, isolation, environment and output capture, each checked by a child that
// tries to get past them.
#include "execution/sandbox.h"
#include "paths.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kPython = "/usr/bin/python3";

SandboxRequest python(const std::string& code) {
  SandboxRequest request;
  request.program = kPython;
  request.args = {"-I", "-c", code};
  request.limits.wall_time = std::chrono::seconds(20);
  return request;
}

TEST(Sandbox, ReportsExitCodeAndCapturesBothStreams) {
  SandboxResult result = run_sandboxed(python("import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"));
  ASSERT_TRUE(result.exit_code.has_value());
  EXPECT_EQ(*result.exit_code, 3);
  EXPECT_FALSE(result.signal.has_value());
  EXPECT_EQ(result.stdout_text, "out\n");
  EXPECT_EQ(result.stderr_text, "err\n");
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.describe(), "exit 3");
}

TEST(Sandbox, ReportsTheSignalThatEndedTheChild) {
  SandboxResult result = run_sandboxed(python("import os, signal; os.kill(os.getpid(), signal.SIGTERM)"));
  ASSERT_TRUE(result.signal.has_value());
  EXPECT_EQ(*result.signal, SIGTERM);
  EXPECT_FALSE(result.exit_code.has_value());
}

TEST(Sandbox, WallClockTimeoutKillsTheChild) {
  SandboxRequest request = python("while True: pass");
  request.limits.wall_time = std::chrono::milliseconds(300);
  request.limits.cpu_seconds = 60;  // so that only the wall clock can end it
  SandboxResult result = run_sandboxed(request);
  EXPECT_TRUE(result.timed_out);
  ASSERT_TRUE(result.signal.has_value());
  EXPECT_EQ(*result.signal, SIGKILL);
  EXPECT_FALSE(result.cpu_exceeded);
}

TEST(Sandbox, TimeoutKillsTheWholeProcessGroup) {
  // The grandchild holds stdout open; if it survived, reading to end of stream would hang.
  SandboxRequest request = python(
      "import subprocess, time; subprocess.Popen(['/usr/bin/python3', '-c', 'import time; time.sleep(600)']); "
      "time.sleep(600)");
  request.limits.allow_fork = true;
  request.limits.wall_time = std::chrono::milliseconds(500);
  SandboxResult result = run_sandboxed(request);
  EXPECT_TRUE(result.timed_out);
}

TEST(Sandbox, CpuLimitEndsABusyLoop) {
  SandboxRequest request = python("while True: pass");
  request.limits.cpu_seconds = 1;
  request.limits.wall_time = std::chrono::seconds(30);
  SandboxResult result = run_sandboxed(request);
  EXPECT_FALSE(result.timed_out);
  EXPECT_TRUE(result.cpu_exceeded) << result.describe();
}

TEST(Sandbox, MemoryLimitMakesLargeAllocationsFail) {
  SandboxRequest request = python("b = bytearray(1 << 30)");
  request.limits.memory_bytes = std::size_t{200} << 20;
  SandboxResult result = run_sandboxed(request);
  EXPECT_TRUE(result.memory_exceeded);
  EXPECT_THAT(result.stderr_text, HasSubstr("MemoryError"));
  ASSERT_TRUE(result.exit_code.has_value());
  EXPECT_NE(*result.exit_code, 0);

  request = python("b = bytearray(1 << 20); print(len(b))");
  request.limits.memory_bytes = std::size_t{200} << 20;
  result = run_sandboxed(request);
  EXPECT_FALSE(result.memory_exceeded);
  EXPECT_TRUE(result.exited_ok());
}

TEST(Sandbox, EnvironmentIsScrubbed) {
  ::setenv("CODEBIAS_TEST_API_KEY", "sk-should-not-leak", 1);
  SandboxRequest request = python("import os; print(sorted(os.environ.items()))");
  request.args = {"-c", "import os; print(sorted(os.environ.items()))"};  // without -I, which ignores PYTHON*
  request.env = {{"PYTHONHASHSEED", "0"}};
  SandboxResult result = run_sandboxed(request);
  ::unsetenv("CODEBIAS_TEST_API_KEY");
  ASSERT_TRUE(result.exited_ok()) << result.stderr_text;
  EXPECT_THAT(result.stdout_text, Not(HasSubstr("sk-should-not-leak")));
  EXPECT_THAT(result.stdout_text, Not(HasSubstr("CODEBIAS_TEST_API_KEY")));
  EXPECT_THAT(result.stdout_text, HasSubstr("('PYTHONHASHSEED', '0')"));
  EXPECT_THAT(result.stdout_text, HasSubstr("('PATH', '/usr/local/bin:/usr/bin:/bin')"));
}

TEST(Sandbox, RunsInAFreshDirectoryHoldingOnlyTheGivenFilesAndRemovesIt) {
  SandboxRequest request = python("import os; print(os.getcwd()); print(sorted(os.listdir('.'))); print(open('sub/b.txt').read())");
  request.files = {{"a.txt", "A"}, {"sub/b.txt", "B"}};
  SandboxResult result = run_sandboxed(request);
  ASSERT_TRUE(result.exited_ok()) << result.stderr_text;
  std::string cwd = result.stdout_text.substr(0, result.stdout_text.find('\n'));
  EXPECT_THAT(cwd, HasSubstr("codebias-sandbox-"));
  EXPECT_THAT(result.stdout_text, HasSubstr("['a.txt', 'sub']"));
  EXPECT_THAT(result.stdout_text, HasSubstr("\nB\n"));
  EXPECT_FALSE(std::filesystem::exists(cwd));
}

TEST(Sandbox, RefusesFileNamesOutsideTheWorkingDirectory) {
  SandboxRequest request = python("pass");
  request.files = {{"../escape.txt", "x"}};
  EXPECT_THROW(run_sandboxed(request), std::runtime_error);
}

TEST(Sandbox, StdinIsEmpty) {
  SandboxResult result = run_sandboxed(python("import sys; print(repr(sys.stdin.read()))"));
  EXPECT_EQ(result.stdout_text, "''\n");
}

TEST(Sandbox, OutputIsBounded) {
  SandboxRequest request = python("import sys; sys.stdout.write('x' * 3000000)");
  request.limits.max_output_bytes = 1000;
  SandboxResult result = run_sandboxed(request);
  EXPECT_TRUE(result.exited_ok());
  EXPECT_EQ(result.stdout_text.size(), 1000U);
  EXPECT_TRUE(result.stdout_truncated);
  EXPECT_FALSE(result.stderr_truncated);
}

TEST(Sandbox, MissingProgramIsAnError) {
  SandboxRequest request;
  request.program = "codebias-no-such-program";
  try {
    run_sandboxed(request);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("codebias-no-such-program"));
  }
}

TEST(Sandbox, ForkIsRefusedUnlessAllowed) {
  // For a root caller this also checks drop_root: the kernel exempts root from RLIMIT_NPROC.
  SandboxResult result = run_sandboxed(python("import os\ntry:\n os.fork()\nexcept OSError:\n print('refused')"));
  EXPECT_EQ(result.stdout_text, "refused\n");
}

TEST(Sandbox, ARootCallersChildRunsAsNobodyAndCannotWriteOutsideItsDirectory) {
  if (::geteuid() != 0) GTEST_SKIP() << "only a root caller's child is moved to nobody";
  std::filesystem::path outside = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / "sandbox_escape.txt";
  std::filesystem::remove(outside);
  SandboxRequest request = python("import os\nprint(os.getuid(), os.getgid())\nopen('inside.txt', 'w').write('ok')\n"
                                  "try:\n open(" + ("'" + outside.string() + "'") + ", 'w').write('escaped')\n"
                                  "except PermissionError:\n print('refused')");
  SandboxResult result = run_sandboxed(request);
  EXPECT_TRUE(result.dropped_root);
  EXPECT_EQ(result.stdout_text, "65534 65534\nrefused\n") << result.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(outside));
}

// A listener on 127.0.0.1 in the test's own network namespace: reachable only from outside the
// sandbox.
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd_, 4) != 0)
      throw std::runtime_error("listener");
    socklen_t length = sizeof address;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

std::string connect_script(int port) {
  return "import socket\ntry:\n socket.create_connection(('127.0.0.1', " + std::to_string(port) +
         "), timeout=5)\n print('connected')\nexcept OSError as e:\n print('failed', e)";
}

TEST(Sandbox, NoNetworkWhenIsolationIsInForce) {
  Listener listener;
  SandboxResult result = run_sandboxed(python(connect_script(listener.port())));
  ASSERT_TRUE(result.exited_ok()) << result.stderr_text;
  if (result.network != NetworkIsolation::network_namespace) {
    GTEST_SKIP() << "this kernel refuses network namespaces: pass@1 relies on its Python guard";
  }
  EXPECT_THAT(result.stdout_text, HasSubstr("failed"));
}

TEST(Sandbox, WithoutIsolationTheListenerIsReachable) {
  // The control: the same child reaches the listener when isolation is off, so the test above
  // fails for the right reason.
  Listener listener;
  SandboxRequest request = python(connect_script(listener.port()));
  request.isolate_network = false;
  SandboxResult result = run_sandboxed(request);
  EXPECT_EQ(result.network, NetworkIsolation::none);
  EXPECT_EQ(result.stdout_text, "connected\n");
}

}  // namespace
}  // namespace codebias::quality
