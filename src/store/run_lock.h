// One process owns a run directory at a time: `codebias run` (new and --resume) and `codebias
// batch import` hold an OS lock on DIR/run.lock while they write, so two resumes of one run can
// never send the same pending samples twice. The lock is flock(2) on an open file: the kernel
// drops it when the holder exits or is killed (SIGKILL included), so a dead holder never blocks
// the next resume. The file itself stays behind; it holds who took the lock last, for the
// refusal message.
#pragma once

#include <filesystem>
#include <string_view>

#include "store/store_error.h"

namespace codebias::store {

inline constexpr const char* kLockFileName = "run.lock";

class RunLock {
 public:
  // Takes DIR/run.lock (DIR must exist) for `command`, e.g. "codebias run --resume". Throws
  // StoreError naming the holder (pid, command, start time) when another process holds it.
  static RunLock acquire(const std::filesystem::path& dir, std::string_view command);

  RunLock(RunLock&& other) noexcept;
  RunLock& operator=(RunLock&& other) noexcept;
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  ~RunLock();  // releases the lock

 private:
  explicit RunLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace codebias::store
