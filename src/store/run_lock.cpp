#include "store/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "base/strings.h"
#include "base/utc_time.h"

namespace codebias::store {
namespace {

// The holder's line as the lock file keeps it ("" when it cannot be read).
std::string read_holder(int fd) {
  std::string text(512, '\0');
  const ssize_t n = pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return base::printable(text, false);
}

}  // namespace

RunLock RunLock::acquire(const std::filesystem::path& dir, std::string_view command) {
  const std::filesystem::path path = dir / kLockFileName;
  // O_CLOEXEC: a program the run starts (the execution sandbox) must not inherit the lock.
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot open the lock file " + path.string() + ": " + std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    std::string holder = error == EWOULDBLOCK ? read_holder(fd) : "";
    close(fd);
    if (error != EWOULDBLOCK) throw StoreError("cannot lock " + path.string() + ": " + std::strerror(error));
    throw StoreError(dir.string() + " is in use by another codebias process (" +
                     (holder.empty() ? std::string("holder unknown") : holder) + ", lock file " + path.string() +
                     "); wait for it to finish or stop it, then run the command again");
  }
  const std::string holder =
      "pid " + std::to_string(getpid()) + ", `" + std::string(command) + "` started " + utc_now() + "\n";
  // Best effort: the lock holds whether or not the note is written.
  if (ftruncate(fd, 0) == 0 && pwrite(fd, holder.data(), holder.size(), 0) < 0) {
    // nothing to do: the refusal message then says "holder unknown"
  }
  return RunLock(fd);
}

RunLock::RunLock(RunLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

RunLock& RunLock::operator=(RunLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

RunLock::~RunLock() {
  if (fd_ >= 0) close(fd_);  // closing the only descriptor releases the flock
}

}  // namespace codebias::store
