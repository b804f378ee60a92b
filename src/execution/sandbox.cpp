// The sandbox: fork, confine the child (namespaces, rlimits, directory, environment, Landlock), exec,
// collect its output under a wall-clock deadline, kill its process group; or keep the child
// running and talk to it over pipes (SandboxedProcess).
#include "execution/sandbox.h"

#include "execution/landlock.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace codebias::quality {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSearchPath = "/usr/local/bin:/usr/bin:/bin";

// Why the child could not exec, sent to the parent over the status pipe.
struct ChildFailure {
  int stage = 0;  // index into kChildStages
  int error = 0;  // errno
};
constexpr const char* kChildStages[] = {"setpgid", "setrlimit", "chdir", "open /dev/null", "dup2", "execve",
                                        "dropping root", "confining file access (Landlock)"};
constexpr uid_t kNobody = 65534;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(std::exchange(other.fd_, -1));
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

std::runtime_error system_failure(const std::string& what) {
  return std::runtime_error("sandbox: " + what + ": " + std::strerror(errno));
}

void make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw system_failure("pipe");
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
}

// How to install a runtime that --execute starts, for the error that says it is missing.
std::string install_hint(const std::string& program) {
  static const std::map<std::string, std::string> packages = {
      {"node", "nodejs"}, {"java", "openjdk-17-jdk-headless"}, {"javac", "openjdk-17-jdk-headless"},
      {"python3", "python3 python3-pandas python3-sklearn"}};
  const auto found = packages.find(program);
  if (found == packages.end()) return "";
  return " (install it: sudo apt-get install " + found->second + ", or bash scripts/setup.sh --with-execute)";
}

// The program's path, resolved before fork (nothing after fork may allocate).
std::string resolve_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) != 0) throw system_failure("cannot execute " + program);
    return program;
  }
  std::string_view dirs = kSearchPath;
  while (!dirs.empty()) {
    auto colon = dirs.find(':');
    std::string candidate = std::string(dirs.substr(0, colon)) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
  }
  throw std::runtime_error("sandbox: program " + program + " not found in " + kSearchPath + install_hint(program));
}

// A directory nobody else uses, removed on scope exit whatever happened inside.
class WorkDir {
 public:
  explicit WorkDir(const std::filesystem::path& root) {
    std::filesystem::path base = root.empty() ? std::filesystem::temp_directory_path() : root;
    std::string pattern = (base / "codebias-sandbox-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw system_failure("cannot create a working directory in " + base.string());
    path_ = pattern;
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void write_files(const std::filesystem::path& dir,
                 const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [name, content] : files) {
    std::filesystem::path relative(name);
    if (relative.empty() || relative.is_absolute() ||
        std::any_of(relative.begin(), relative.end(), [](const auto& part) { return part == ".."; })) {
      throw std::runtime_error("sandbox: file name \"" + name + "\" must be a relative path inside the working directory");
    }
    std::filesystem::path path = dir / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) throw std::runtime_error("sandbox: cannot write " + path.string());
  }
}

// Everything the child needs, prepared by the parent: after fork in a threaded program only
// async-signal-safe calls are allowed, so no allocation happens in the child.
struct ChildPlan {
  std::string program;
  std::vector<std::string> argv_storage;
  std::vector<std::string> env_storage;
  std::vector<char*> argv;
  std::vector<char*> envp;
  std::string workdir;
  std::string uid_map;
  std::string gid_map;
  bool isolate_network = true;
  bool drop_root = false;  // the caller is root and the request asks for it
  FileConfinement files;   // abi 0: not confined
  std::array<std::pair<int, rlimit>, 6> limits{};
};

[[noreturn]] void child_fail(int status_fd, int stage) {
  ChildFailure failure{stage, errno};
  // The parent learns why from this; nothing else can be done if the write fails.
  [[maybe_unused]] ssize_t written = ::write(status_fd, &failure, sizeof failure);
  ::_exit(127);
}

bool write_proc_file(const char* path, const std::string& text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// A user namespace lets an unprivileged process own a network namespace; its own uid and gid
// are mapped to themselves so files keep their owner.
NetworkIsolation enter_network_namespace(const ChildPlan& plan) {
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
    write_proc_file("/proc/self/setgroups", "deny");
    write_proc_file("/proc/self/uid_map", plan.uid_map);
    write_proc_file("/proc/self/gid_map", plan.gid_map);
    return NetworkIsolation::network_namespace;
  }
  if (::unshare(CLONE_NEWNET) == 0) return NetworkIsolation::network_namespace;
  return NetworkIsolation::none;
}

bool drop_to_nobody() {
  return ::setgroups(0, nullptr) == 0 && ::setgid(kNobody) == 0 && ::setuid(kNobody) == 0;
}

// in_fd < 0: stdin is /dev/null.
[[noreturn]] void run_child(const ChildPlan& plan, int in_fd, int out_fd, int err_fd, int status_fd) {
  // Its own process group, so that one kill(-pid) reaches everything it starts.
  bool grouped = ::setpgid(0, 0) == 0;
  // Before unshare: the new user namespace then maps nobody, not root.
  bool dropped = !plan.drop_root || drop_to_nobody();
  char isolation = static_cast<char>(plan.isolate_network && dropped ? enter_network_namespace(plan)
                                                                     : NetworkIsolation::none);
  // The parent always reads this byte first, then a ChildFailure if something went wrong.
  [[maybe_unused]] ssize_t written = ::write(status_fd, &isolation, 1);
  if (!grouped) child_fail(status_fd, 0);
  if (!dropped) child_fail(status_fd, 6);
  for (const auto& [resource, limit] : plan.limits) {
    if (::setrlimit(resource, &limit) != 0) child_fail(status_fd, 1);
  }
  if (::chdir(plan.workdir.c_str()) != 0) child_fail(status_fd, 2);
  if (in_fd < 0) in_fd = ::open("/dev/null", O_RDONLY);
  if (in_fd < 0) child_fail(status_fd, 3);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) child_fail(status_fd, 4);
  // Descriptors other threads opened without O_CLOEXEC must not leak into generated code.
  if (status_fd > 3) ::syscall(SYS_close_range, 3U, static_cast<unsigned>(status_fd - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(status_fd + 1), ~0U, 0U);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  // Last: from here on the child reads only what the plan allows (its descriptors stay open).
  if (!apply_file_confinement(plan.files)) child_fail(status_fd, 7);
  ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
  child_fail(status_fd, 5);
}

ChildPlan make_plan(const SandboxRequest& request, const std::filesystem::path& workdir) {
  ChildPlan plan;
  plan.program = resolve_program(request.program);
  plan.argv_storage.push_back(plan.program);
  plan.argv_storage.insert(plan.argv_storage.end(), request.args.begin(), request.args.end());
  plan.env_storage = {"PATH=" + std::string(kSearchPath), "HOME=" + workdir.string(),
                      "TMPDIR=" + workdir.string(), "LANG=C.UTF-8"};
  for (const auto& [name, value] : request.env) plan.env_storage.push_back(name + "=" + value);
  for (auto& arg : plan.argv_storage) plan.argv.push_back(arg.data());
  plan.argv.push_back(nullptr);
  for (auto& entry : plan.env_storage) plan.envp.push_back(entry.data());
  plan.envp.push_back(nullptr);
  plan.workdir = workdir.string();
  plan.drop_root = request.drop_root && ::geteuid() == 0;
  const uid_t uid = plan.drop_root ? kNobody : ::getuid();
  const gid_t gid = plan.drop_root ? kNobody : ::getgid();
  plan.uid_map = std::to_string(uid) + " " + std::to_string(uid) + " 1";
  plan.gid_map = std::to_string(gid) + " " + std::to_string(gid) + " 1";
  plan.isolate_network = request.isolate_network;
  if (request.confine_files) {
    plan.files = plan_file_confinement(plan.workdir, plan.program, request.readable_paths);
    if (!request.isolate_network) plan.files.handled_net = 0;  // the caller lets the child reach the network
  }

  const SandboxLimits& limits = request.limits;
  auto pair = [](rlim_t soft, rlim_t hard) { return rlimit{soft, hard}; };
  const auto wall_ms = std::max<std::int64_t>(limits.wall_time.count(), 1);
  rlim_t cpu = limits.cpu_seconds > 0 ? static_cast<rlim_t>(limits.cpu_seconds)
                                      : static_cast<rlim_t>((wall_ms + 999) / 1000);
  rlim_t memory = limits.memory_bytes > 0 ? limits.memory_bytes : RLIM_INFINITY;
  plan.limits = {{{RLIMIT_CPU, pair(cpu, cpu + 1)},
                  {RLIMIT_AS, pair(memory, memory)},
                  {RLIMIT_FSIZE, pair(limits.file_size_bytes, limits.file_size_bytes)},
                  {RLIMIT_CORE, pair(0, 0)},
                  {RLIMIT_NOFILE, pair(256, 256)},
                  {RLIMIT_NPROC, limits.allow_fork ? pair(RLIM_INFINITY, RLIM_INFINITY) : pair(0, 0)}}};
  if (limits.allow_fork) {
    // Keep the caller's own NPROC limit rather than asking to raise it (which would fail).
    rlimit current{};
    ::getrlimit(RLIMIT_NPROC, &current);
    plan.limits[5].second = current;
  }
  return plan;
}

// Keeps the first `limit` bytes of a stream and counts the rest away.
struct Capture {
  std::string text;
  bool truncated = false;
  bool open = true;

  void take(const char* data, std::size_t size, std::size_t limit) {
    std::size_t room = limit > text.size() ? limit - text.size() : 0;
    text.append(data, std::min(room, size));
    if (size > room) truncated = true;
  }
};

// Reads what is available; false at end of stream.
bool drain(int fd, Capture& capture, std::size_t limit) {
  char buffer[65536];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      capture.take(buffer, static_cast<std::size_t>(got), limit);
      if (static_cast<std::size_t>(got) < sizeof buffer) return true;
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EAGAIN) return true;
    return false;
  }
}

bool child_has_exited(pid_t pid) {
  siginfo_t info{};
  // WNOWAIT leaves the zombie in place, so the process group id cannot be reused before the
  // group is killed.
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == pid;
}

bool mentions_memory_failure(const std::string& text) {
  for (const char* marker : {"MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory"}) {
    if (text.find(marker) != std::string::npos) return true;
  }
  return false;
}

// A confined child, started: its pid and the parent's ends of its pipes.
struct StartedChild {
  pid_t pid = -1;
  Fd in, out, err;  // in: only when asked for
  NetworkIsolation network = NetworkIsolation::none;
  Clock::time_point started;
};

// Writes the request's files into `workdir`, gives it to nobody when the child drops root, forks
// and confines the child; returns once it has exec'd. Throws as run_sandboxed documents.
StartedChild start_child(const SandboxRequest& request, const WorkDir& workdir, const ChildPlan& plan, bool with_stdin) {
  write_files(workdir.path(), request.files);
  if (plan.drop_root) {
    // The child's files become nobody's, whatever the caller's umask made of them.
    if (::chown(workdir.path().c_str(), kNobody, kNobody) != 0) throw system_failure("cannot give the working directory to nobody");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(workdir.path())) {
      if (::chown(entry.path().c_str(), kNobody, kNobody) != 0) throw system_failure("cannot give " + entry.path().string() + " to nobody");
    }
  }

  StartedChild child;
  Fd in_read, out_write, err_write, status_read, status_write;
  if (with_stdin) make_pipe(in_read, child.in);
  make_pipe(child.out, out_write);
  make_pipe(child.err, err_write);
  make_pipe(status_read, status_write);

  child.started = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw system_failure("fork");
  if (pid == 0) run_child(plan, in_read.get(), out_write.get(), err_write.get(), status_write.get());

  in_read.reset();
  out_write.reset();
  err_write.reset();
  status_write.reset();

  // The status pipe carries the isolation byte, then a ChildFailure only if exec failed; it
  // closes at exec (O_CLOEXEC).
  char status[1 + sizeof(ChildFailure)];
  std::size_t status_bytes = 0;
  for (;;) {
    ssize_t got = ::read(status_read.get(), status + status_bytes, sizeof status - status_bytes);
    if (got > 0) status_bytes += static_cast<std::size_t>(got);
    else if (got < 0 && errno == EINTR) continue;
    if (got <= 0 || status_bytes == sizeof status) break;
  }
  if (status_bytes >= 1) child.network = static_cast<NetworkIsolation>(status[0]);
  if (status_bytes == sizeof status || status_bytes == 0) {
    ChildFailure failure;
    if (status_bytes == sizeof status) std::memcpy(&failure, status + 1, sizeof failure);
    int ignored = 0;
    ::waitpid(pid, &ignored, 0);
    if (status_bytes == 0) throw std::runtime_error("sandbox: the child died before starting " + plan.program);
    throw std::runtime_error("sandbox: cannot start " + plan.program + ": " + kChildStages[failure.stage] + ": " +
                             std::strerror(failure.error));
  }
  child.pid = pid;
  if (with_stdin) ::fcntl(child.in.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(child.out.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(child.err.get(), F_SETFL, O_NONBLOCK);
  return child;
}

// Kills what is left of the child's process group and reaps the child.
int end_child(pid_t pid, rusage* usage) {
  ::kill(-pid, SIGKILL);
  int wait_status = 0;
  while (::wait4(pid, &wait_status, 0, usage) < 0 && errno == EINTR) {
  }
  return wait_status;
}

}  // namespace

const char* to_string(NetworkIsolation isolation) {
  switch (isolation) {
    case NetworkIsolation::network_namespace: return "network_namespace";
    case NetworkIsolation::none: return "none";
  }
  return "none";
}

std::string SandboxResult::describe() const {
  char buffer[96];
  if (timed_out) {
    std::snprintf(buffer, sizeof buffer, "timed out after %.2f s", wall_seconds);
    return buffer;
  }
  if (signal) return "signal " + std::to_string(*signal) + " (" + ::strsignal(*signal) + ")";
  if (exit_code) return "exit " + std::to_string(*exit_code);
  return "not finished";
}

SandboxResult run_sandboxed(const SandboxRequest& request) {
  WorkDir workdir(request.temp_root);
  const ChildPlan plan = make_plan(request, workdir.path());
  StartedChild child = start_child(request, workdir, plan, false);
  const pid_t pid = child.pid;
  const auto started = child.started;
  Fd& out_read = child.out;
  Fd& err_read = child.err;

  SandboxResult result;
  result.dropped_root = plan.drop_root;
  result.network = child.network;
  result.files = plan.files.abi > 0 ? FileIsolation::landlock : FileIsolation::none;

  Fd process(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));  // -1 on old kernels: poll briefly instead
  Capture out, err;
  const auto deadline = started + request.limits.wall_time;
  const std::size_t limit = request.limits.max_output_bytes;
  for (;;) {
    if (child_has_exited(pid)) break;
    auto now = Clock::now();
    if (now >= deadline) {
      ::kill(-pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{};
    nfds_t count = 0;
    if (out.open) fds[count++] = {out_read.get(), POLLIN, 0};
    if (err.open) fds[count++] = {err_read.get(), POLLIN, 0};
    if (process.get() >= 0) fds[count++] = {process.get(), POLLIN, 0};
    auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    if (process.get() < 0) wait_ms = std::min<std::int64_t>(wait_ms, 10);
    int ready = ::poll(fds.data(), count, static_cast<int>(std::min<std::int64_t>(wait_ms, 60'000)));
    if (ready < 0 && errno != EINTR) throw system_failure("poll");
    for (nfds_t index = 0; ready > 0 && index < count; ++index) {
      if (!fds[index].revents) continue;
      if (fds[index].fd == out_read.get()) out.open = drain(out_read.get(), out, limit);
      else if (fds[index].fd == err_read.get()) err.open = drain(err_read.get(), err, limit);
    }
  }
  // Whatever the child left running in its group goes with it.
  rusage usage{};
  const int wait_status = end_child(pid, &usage);
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  // Output already written is still in the pipes; stragglers were killed, so this ends.
  if (out.open) drain(out_read.get(), out, limit);
  if (err.open) drain(err_read.get(), err, limit);

  if (WIFEXITED(wait_status)) result.exit_code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) result.signal = WTERMSIG(wait_status);
  result.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  result.max_rss_kb = usage.ru_maxrss;
  result.stdout_text = std::move(out.text);
  result.stderr_text = std::move(err.text);
  result.stdout_truncated = out.truncated;
  result.stderr_truncated = err.truncated;
  classify_end(result, static_cast<double>(plan.limits[0].second.rlim_cur), request.limits.memory_bytes > 0);
  return result;
}

void classify_end(SandboxResult& result, double cpu_limit_seconds, bool memory_limited) {
  // A SIGKILL the sandbox did not send (it sets timed_out when it does) came from the kernel.
  const bool killed_by_kernel = result.signal == SIGKILL && !result.timed_out;
  result.cpu_exceeded = result.signal == SIGXCPU || (killed_by_kernel && result.cpu_seconds >= cpu_limit_seconds);
  result.memory_exceeded =
      memory_limited && (mentions_memory_failure(result.stderr_text) || (killed_by_kernel && !result.cpu_exceeded));
}

struct SandboxedProcess::Running {
  explicit Running(const SandboxRequest& request)
      : workdir(request.temp_root), plan(make_plan(request, workdir.path())), child(start_child(request, workdir, plan, true)) {}
  ~Running() { end_child(child.pid, nullptr); }

  WorkDir workdir;
  ChildPlan plan;
  StartedChild child;
};

SandboxedProcess::SandboxedProcess(const SandboxRequest& request) : running_(std::make_unique<Running>(request)) {
  network_ = running_->child.network;
  files_ = running_->plan.files.abi > 0 ? FileIsolation::landlock : FileIsolation::none;
  dropped_root_ = running_->plan.drop_root;
}

SandboxedProcess::~SandboxedProcess() = default;

bool SandboxedProcess::write(std::string_view data, Deadline deadline) {
  // A server that died must not take this process with it: SIGPIPE is blocked for the write,
  // and one it raised is taken off this thread before the mask is restored.
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  const int fd = running_->child.in.get();
  bool ok = true;
  while (ok && !data.empty()) {
    const ssize_t wrote = ::write(fd, data.data(), data.size());
    if (wrote > 0) {
      data.remove_prefix(static_cast<std::size_t>(wrote));
      continue;
    }
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && errno == EAGAIN) {
      pollfd ready{fd, POLLOUT, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      ok = left > 0 && ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left, 60'000))) >= 0;
      continue;
    }
    ok = false;
  }
  if (!ok && errno == EPIPE) {
    const timespec now{0, 0};
    ::sigtimedwait(&pipe_signal, nullptr, &now);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

bool SandboxedProcess::read(std::string& out, Deadline deadline) {
  constexpr std::size_t kStderrKept = 64 << 10;
  Fd& out_fd = running_->child.out;
  Fd& err_fd = running_->child.err;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 || out_fd.get() < 0) return false;
    std::array<pollfd, 2> fds{pollfd{out_fd.get(), POLLIN, 0}, pollfd{err_fd.get(), POLLIN, 0}};
    const nfds_t count = err_fd.get() >= 0 ? 2 : 1;
    const int ready = ::poll(fds.data(), count, static_cast<int>(std::min<std::int64_t>(left, 60'000)));
    if (ready < 0 && errno != EINTR) throw system_failure("poll");
    if (ready <= 0) continue;
    if (count == 2 && fds[1].revents) {
      Capture err;
      const bool open = drain(err_fd.get(), err, kStderrKept);
      stderr_ += err.text;
      if (stderr_.size() > kStderrKept) stderr_.erase(0, stderr_.size() - kStderrKept);
      if (!open) err_fd.reset();
    }
    if (fds[0].revents) {
      Capture got;
      const bool open = drain(out_fd.get(), got, std::numeric_limits<std::size_t>::max());
      out += got.text;
      if (!open) out_fd.reset();
      if (!got.text.empty()) return true;
      if (!open) return false;
    }
  }
}

}  // namespace codebias::quality
