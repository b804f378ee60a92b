// Confining a sandboxed child's file access and signals with Landlock (Linux 5.13+, unprivileged):
// the child may read the system's program files (interpreters, libraries, their configuration),
// read and write its own working directory, and nothing else: not the user's home, /etc/passwd,
// /tmp, or another run's store. From Landlock ABI 6 (Linux 6.12) it also cannot signal any
// process outside its domain (kill, pidfd_send_signal), and from ABI 4 it cannot bind or connect
// TCP sockets (unless the sandbox request allows the network), even where no network namespace
// could be made.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace codebias::quality {

// What Landlock gave a child. none: the kernel has no Landlock (or refused it).
enum class FileIsolation { none, landlock };
const char* to_string(FileIsolation isolation);

// The kernel's Landlock ABI version; 0 without Landlock. Asked once per process.
int landlock_abi();

// Everything the child applies, prepared before fork: applying it allocates nothing.
struct FileConfinement {
  struct Rule {
    std::string path;
    std::uint64_t access = 0;  // the rights on everything beneath `path`
  };
  int abi = 0;  // 0: not applied
  std::uint64_t handled_fs = 0;
  std::uint64_t handled_net = 0;
  std::uint64_t scoped = 0;
  std::vector<Rule> rules;
};

// The confinement for a child whose working directory is `workdir` and whose program is
// `program` (its installation folder is readable when it lies outside the system folders);
// `readable` adds folders the caller's program needs. Paths that do not exist are left out.
FileConfinement plan_file_confinement(const std::string& workdir, const std::string& program,
                                      const std::vector<std::string>& readable);

// In the child, after fork: sets no_new_privs and restricts the calling process and everything
// it starts. Async-signal-safe (system calls only). False when the kernel refused: the caller
// must not run the program then. True, doing nothing, when the plan's abi is 0.
bool apply_file_confinement(const FileConfinement& confinement);

}  // namespace codebias::quality
