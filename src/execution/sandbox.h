// Running an untrusted program (generated code, or a linter over it) in a child process with
// resource limits, a scrubbed environment, a fresh working directory and, where the kernel
// allows it, no network, no file outside the system's program files and that directory, and no
// signal to any process outside the sandbox (landlock.h). Used by pass@1 (which runs generated functions) and the pylint score.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "execution/landlock.h"

namespace codebias::quality {

// How the child was kept off the network.
//  network_namespace: the child ran in a new, empty network namespace (only a downed loopback),
//    via unshare(CLONE_NEWUSER | CLONE_NEWNET), or unshare(CLONE_NEWNET) for a privileged parent.
//  none: the kernel refused both; the caller must guard another way (pass@1's driver replaces
//    Python's socket functions, which is weaker: see docs/quality.md).
enum class NetworkIsolation { none, network_namespace };
const char* to_string(NetworkIsolation isolation);

struct SandboxLimits {
  std::chrono::milliseconds wall_time{10'000};  // then the whole process group is SIGKILLed
  int cpu_seconds = 0;                          // RLIMIT_CPU; 0: wall_time rounded up
  std::size_t memory_bytes = std::size_t{512} << 20;     // RLIMIT_AS; 0: not limited
  std::size_t file_size_bytes = std::size_t{16} << 20;   // RLIMIT_FSIZE for files the child writes
  // false: RLIMIT_NPROC = 0, so the child cannot fork or start threads. The kernel does not
  // apply RLIMIT_NPROC to root: see SandboxRequest::drop_root.
  bool allow_fork = false;
  std::size_t max_output_bytes = std::size_t{1} << 20;   // kept per stream; the rest is read and dropped
};

struct SandboxRequest {
  std::string program;             // absolute path, or a name looked up in /usr/local/bin:/usr/bin:/bin
  std::vector<std::string> args;   // argv[1..]
  // Files written into the fresh working directory before the child starts (name -> content);
  // names are plain file names or relative paths whose folders are created.
  std::vector<std::pair<std::string, std::string>> files;
  // The child's whole environment besides PATH, HOME, TMPDIR, LANG (nothing is inherited, so no
  // API key or other secret of the caller reaches generated code).
  std::vector<std::pair<std::string, std::string>> env;
  SandboxLimits limits;
  bool isolate_network = true;
  // Landlock (landlock.h): the child reads only the system's program files, `readable_paths`
  // and its working directory, writes only the latter, and signals nothing outside itself.
  bool confine_files = true;
  std::vector<std::string> readable_paths;
  // When the caller is root, the child runs as nobody (uid and gid 65534, no supplementary
  // groups): generated code then cannot write outside its working directory (which is given to
  // nobody) and RLIMIT_NPROC applies. A non-root caller's child keeps the caller's uid.
  bool drop_root = true;
  // Where the working directory is made; empty: the system temp dir. With drop_root, nobody
  // must be able to reach it.
  std::filesystem::path temp_root;
};

struct SandboxResult {
  std::optional<int> exit_code;  // set when the child exited
  std::optional<int> signal;     // set when a signal ended it
  bool timed_out = false;        // the wall-clock limit killed it
  bool cpu_exceeded = false;     // SIGXCPU, or SIGKILL at the hard RLIMIT_CPU
  // The memory limit was hit, as far as can be told: RLIMIT_AS makes allocations fail rather
  // than kill, so this is read from the usual messages on stderr (Python's MemoryError, "Cannot
  // allocate memory", std::bad_alloc) or a SIGKILL the sandbox did not send (the OOM killer).
  bool memory_exceeded = false;
  std::string stdout_text;
  std::string stderr_text;
  bool stdout_truncated = false;  // more than max_output_bytes came
  bool stderr_truncated = false;
  NetworkIsolation network = NetworkIsolation::none;
  FileIsolation files = FileIsolation::none;
  bool dropped_root = false;  // the child ran as nobody instead of root
  double wall_seconds = 0;
  double cpu_seconds = 0;  // user + system of the child and the children it waited for
  long max_rss_kb = 0;

  bool exited_ok() const { return exit_code && *exit_code == 0; }
  // "exit 1", "signal 9 (Killed)", "timed out after 2.00 s": for messages.
  std::string describe() const;
};

// A sandboxed program that keeps running and is talked to over its stdin and stdout (a server:
// counterfactual execution's fork server). Confined as run_sandboxed confines its child, except
// that limits.wall_time is not applied: the caller sets a deadline on each exchange. Destroying
// it kills its process group and removes its working directory.
class SandboxedProcess {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  // Throws std::runtime_error as run_sandboxed does.
  explicit SandboxedProcess(const SandboxRequest& request);
  SandboxedProcess(const SandboxedProcess&) = delete;
  SandboxedProcess& operator=(const SandboxedProcess&) = delete;
  ~SandboxedProcess();

  NetworkIsolation network() const { return network_; }
  FileIsolation files() const { return files_; }
  bool dropped_root() const { return dropped_root_; }
  // Writes all of `data` to the program's stdin; false when it is gone or the deadline passed.
  bool write(std::string_view data, Deadline deadline);
  // Waits for stdout, appends what came to `out` and returns true; false once stdout has closed
  // or the deadline passed. Stderr is kept meanwhile (its last 64 KiB: stderr_tail()).
  bool read(std::string& out, Deadline deadline);
  const std::string& stderr_tail() const { return stderr_; }

 private:
  struct Running;
  std::unique_ptr<Running> running_;
  NetworkIsolation network_ = NetworkIsolation::none;
  FileIsolation files_ = FileIsolation::none;
  bool dropped_root_ = false;
  std::string stderr_;
};

// Sets result.cpu_exceeded and result.memory_exceeded from how the child ended (exit, signal,
// timed_out, cpu_seconds) and its stderr_text, given the limits it ran under.
void classify_end(SandboxResult& result, double cpu_limit_seconds, bool memory_limited);

// Runs the request and waits for it. The working directory is removed afterwards.
// Throws std::runtime_error when the sandbox itself cannot be set up (no temp dir, no pipes,
// fork failed) or the program cannot be started (not found, exec failed): those are
// environment problems, not results of the code under test.
SandboxResult run_sandboxed(const SandboxRequest& request);

}  // namespace codebias::quality
