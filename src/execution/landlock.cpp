// Landlock for the sandbox (see landlock.h). The constants and structures are the kernel's ABI
// (include/uapi/linux/landlock.h), written out here because Debian 12's headers predate the
// network and scope rights.
#include "execution/landlock.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <glob.h>

#include <filesystem>

namespace codebias::quality {
namespace {

#ifndef SYS_landlock_create_ruleset
constexpr long SYS_landlock_create_ruleset = 444;
constexpr long SYS_landlock_add_rule = 445;
constexpr long SYS_landlock_restrict_self = 446;
#endif

struct RulesetAttr {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;
  std::uint64_t scoped;
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
};

constexpr std::uint32_t kCreateRulesetVersion = 1;
constexpr int kRulePathBeneath = 1;

constexpr std::uint64_t kExecute = 1ULL << 0;
constexpr std::uint64_t kWriteFile = 1ULL << 1;
constexpr std::uint64_t kReadFile = 1ULL << 2;
constexpr std::uint64_t kReadDir = 1ULL << 3;
constexpr std::uint64_t kTruncate = 1ULL << 14;
constexpr std::uint64_t kIoctlDev = 1ULL << 15;
// The rights that apply to a file (the others only to directories).
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;
constexpr std::uint64_t kReadOnly = kExecute | kReadFile | kReadDir;

constexpr std::uint64_t kNetBindTcp = 1ULL << 0;
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// Every file right the ABI knows: rights a ruleset does not handle stay allowed.
std::uint64_t handled_fs_rights(int abi) {
  std::uint64_t rights = (1ULL << 13) - 1;  // ABI 1: execute .. make_sym
  if (abi >= 2) rights |= 1ULL << 13;       // refer
  if (abi >= 3) rights |= kTruncate;
  if (abi >= 5) rights |= kIoctlDev;
  return rights;
}

// What interpreters and runtimes read besides /usr: the loader's cache, Debian's alternatives
// links, Python's and the JDK's configuration, OpenSSL's (Node.js reads it at start-up), the
// time zone, and the kernel's views of the process and the CPUs. Nothing that holds user data.
constexpr const char* kSystemReadable[] = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache", "/etc/ld.so.conf",
    "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/python3", "/etc/ssl/openssl.cnf", "/etc/localtime",
    "/proc", "/sys/devices/system/cpu", "/sys/fs/cgroup", "/dev/urandom", "/dev/random", "/dev/zero"};
constexpr const char* kSystemReadablePatterns[] = {"/etc/python3.*", "/etc/java-*"};

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

const char* to_string(FileIsolation isolation) {
  return isolation == FileIsolation::landlock ? "landlock" : "none";
}

int landlock_abi() {
  static const int abi = [] {
    const long version = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
    return version > 0 ? static_cast<int>(version) : 0;
  }();
  return abi;
}

FileConfinement plan_file_confinement(const std::string& workdir, const std::string& program,
                                      const std::vector<std::string>& readable) {
  FileConfinement plan;
  plan.abi = landlock_abi();
  if (plan.abi == 0) return plan;
  plan.handled_fs = handled_fs_rights(plan.abi);
  if (plan.abi >= 4) plan.handled_net = kNetBindTcp | kNetConnectTcp;
  if (plan.abi >= 6) plan.scoped = kScopeAbstractUnixSocket | kScopeSignal;

  auto add = [&](const std::string& path, std::uint64_t access) {
    if (exists(path)) plan.rules.push_back({path, access & plan.handled_fs});
  };
  for (const char* path : kSystemReadable) add(path, kReadOnly);
  for (const char* pattern : kSystemReadablePatterns) {
    glob_t found{};
    if (::glob(pattern, 0, nullptr, &found) == 0) {
      for (std::size_t i = 0; i < found.gl_pathc; ++i) add(found.gl_pathv[i], kReadOnly);
    }
    ::globfree(&found);
  }
  // A program installed elsewhere (/opt/node/bin/node): its installation folder.
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(program);
  const std::filesystem::path home = resolved.parent_path().parent_path();
  if (!home.empty() && home != "/" && home.string().rfind("/usr", 0) != 0) add(home.string(), kReadOnly);
  for (const std::string& path : readable) add(path, kReadOnly);
  add("/dev/null", kReadFile | kWriteFile);
  add(workdir, plan.handled_fs);
  return plan;
}

bool apply_file_confinement(const FileConfinement& confinement) {
  if (confinement.abi == 0) return true;
  const RulesetAttr attr{confinement.handled_fs, confinement.handled_net, confinement.scoped};
  // ABI 1-3 know only the first field; ABI 4-5 the first two.
  const std::size_t attr_size = confinement.abi >= 6 ? sizeof attr : confinement.abi >= 4 ? 16 : 8;
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0U));
  if (ruleset < 0) return false;
  for (const FileConfinement::Rule& rule : confinement.rules) {
    const int fd = ::open(rule.path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) continue;  // gone since the plan was made: nothing to allow
    struct stat info {};
    std::uint64_t access = rule.access;
    if (::fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) access &= kFileRights;
    const PathBeneathAttr beneath{access, fd};
    const long added = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &beneath, 0U);
    ::close(fd);
    if (added != 0) {
      ::close(ruleset);
      return false;
    }
  }
  const bool restricted = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                          ::syscall(SYS_landlock_restrict_self, ruleset, 0U) == 0;
  ::close(ruleset);
  return restricted;
}

}  // namespace codebias::quality
