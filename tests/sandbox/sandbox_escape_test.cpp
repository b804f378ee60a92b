// What generated code must never reach, tried as a hostile answer would in every language that
// runs: files outside its working directory (another user file, the system's accounts, another
// run's store, the home and temp folders), signals to processes outside the sandbox (its fork
// server included, by kill and by pidfd), and the runner's own reporting of its outcomes. As root
// each attempt runs twice: as nobody (the default) and keeping root's uid, so that only the
// sandbox's own confinement, not file permissions, stands between the code and the files.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "counterfactual_support.h"
#include "execution/landlock.h"
#include "execution/sandbox.h"

namespace codebias::quality {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using test_support::execute_in;
using test_support::mean_of;
using test_support::verdict_of;

const std::string kSecret = "CODEBIAS-SECRET-7f3a9c";

// Files the code must not read, in a folder of their own under the system's temp folder (which
// nobody can traverse, so the attempt tests the sandbox, not permissions): one only its owner may
// read, another run's store, readable by everyone; and the system's accounts, the home and temp
// folders. The folder is removed with the value.
struct Targets {
  std::filesystem::path dir;
  std::vector<std::string> paths;

  Targets() {
    std::string pattern = (std::filesystem::temp_directory_path() / "codebias-escape-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create " + pattern);
    dir = pattern;
    ::chmod(dir.c_str(), 0755);
    const auto own = dir / "id_rsa";
    const auto store = dir / "other-run" / "run.sqlite";
    std::filesystem::create_directories(store.parent_path());
    std::ofstream(own) << kSecret << "\n";
    std::ofstream(store) << kSecret << "\n";
    ::chmod(own.c_str(), 0600);
    ::chmod(store.c_str(), 0644);
    const char* home = std::getenv("HOME");
    paths = {own.string(), store.string(), "/etc/passwd", home ? home : "/root", "/tmp"};
  }
  Targets(const Targets&) = delete;
  Targets& operator=(const Targets&) = delete;
  ~Targets() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

struct Attempt {
  std::string language;
  std::string program;
  std::vector<std::string> args;  // the program's arguments before the paths
  std::pair<std::string, std::string> file;
};

// Each program prints "OPENED <path>" or "DENIED <path>" for every path it is given: a file is
// read, a folder listed.
std::vector<Attempt> attempts() {
  return {
      {"python", "python3", {"-I", "probe.py"},
       {"probe.py",
        "import os, sys\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        data = os.listdir(path) if os.path.isdir(path) else open(path).read()\n"
        "        print('OPENED', path, data)\n"
        "    except OSError as error:\n"
        "        print('DENIED', path, error.errno)\n"}},
      {"javascript", "node", {"probe.js"},
       {"probe.js",
        "const fs = require('fs');\n"
        "for (const path of process.argv.slice(2)) {\n"
        "  try {\n"
        "    const data = fs.statSync(path).isDirectory() ? fs.readdirSync(path) : fs.readFileSync(path, 'utf8');\n"
        "    console.log('OPENED', path, String(data));\n"
        "  } catch (error) {\n"
        "    console.log('DENIED', path, error.code);\n"
        "  }\n"
        "}\n"}},
      {"java", "java", {"-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "Probe.java"},
       {"Probe.java",
        "import java.nio.file.*;\n"
        "public class Probe {\n"
        "  public static void main(String[] paths) {\n"
        "    for (String path : paths) {\n"
        "      try {\n"
        "        Path p = Path.of(path);\n"
        "        String data = Files.isDirectory(p) ? String.valueOf(Files.list(p).toList()) : Files.readString(p);\n"
        "        System.out.println(\"OPENED \" + path + \" \" + data);\n"
        "      } catch (Exception error) {\n"
        "        System.out.println(\"DENIED \" + path + \" \" + error.getClass().getSimpleName());\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n"}},
  };
}

SandboxRequest request_for(const Attempt& attempt, const Targets& targets, bool drop_root) {
  SandboxRequest request;
  request.program = attempt.program;
  request.args = attempt.args;
  request.args.push_back("own.txt");  // the control: its own working directory stays readable
  request.args.insert(request.args.end(), targets.paths.begin(), targets.paths.end());
  request.files = {attempt.file, {"own.txt", "mine"}};
  request.limits.wall_time = std::chrono::seconds(30);
  request.limits.memory_bytes = std::size_t{1536} << 20;  // a JVM reserves address space early
  request.limits.allow_fork = true;                       // a JVM starts threads
  request.env = {{"MALLOC_ARENA_MAX", "2"}};
  request.drop_root = drop_root;
  return request;
}

TEST(SandboxEscape, FilesOutsideTheWorkingDirectoryCannotBeReadInAnyLanguage) {
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  const Targets targets;
  std::vector<bool> identities = {true};
  if (::geteuid() == 0) identities.push_back(false);  // as root, keeping root's uid
  for (const Attempt& attempt : attempts()) {
    for (bool drop_root : identities) {
      SCOPED_TRACE(attempt.language + (drop_root ? " as the sandbox's user" : " keeping root's uid"));
      const SandboxResult result = run_sandboxed(request_for(attempt, targets, drop_root));
      ASSERT_TRUE(result.exited_ok()) << result.describe() << "\n" << result.stderr_text;
      EXPECT_EQ(result.files, FileIsolation::landlock);
      EXPECT_THAT(result.stdout_text, HasSubstr("OPENED own.txt mine"));
      for (const std::string& path : targets.paths) EXPECT_THAT(result.stdout_text, HasSubstr("DENIED " + path + " "));
      EXPECT_THAT(result.stdout_text + result.stderr_text, Not(HasSubstr(kSecret)));
      EXPECT_THAT(result.stdout_text, Not(HasSubstr("root:x:0:0")));
    }
  }
}

TEST(SandboxEscape, NoSignalReachesAProcessOutsideTheSandbox) {
  if (landlock_abi() < 6) GTEST_SKIP() << "this kernel has no Landlock signal scoping (Linux 6.12)";
  SandboxRequest request;
  request.program = "python3";
  request.args = {"-I", "-c",
                  "import os, signal\n"
                  "parent = os.getppid()\n"
                  "for name, send in (('kill', lambda: os.kill(parent, signal.SIGTERM)),\n"
                  "                   ('pidfd', lambda: signal.pidfd_send_signal(os.pidfd_open(parent), signal.SIGTERM))):\n"
                  "    try:\n"
                  "        send()\n"
                  "        print('SENT', name)\n"
                  "    except OSError as error:\n"
                  "        print('DENIED', name, error.errno)\n"};
  const SandboxResult result = run_sandboxed(request);
  ASSERT_TRUE(result.exited_ok()) << result.describe() << "\n" << result.stderr_text;
  EXPECT_THAT(result.stdout_text, HasSubstr("DENIED kill"));
  EXPECT_THAT(result.stdout_text, HasSubstr("DENIED pidfd"));
  EXPECT_THAT(result.stdout_text, Not(HasSubstr("SENT")));
}

// The Python fork server runs every response in a child of its own: a response that signals the
// server (here with a pidfd, which no audit hook sees) leaves it serving, and its calls report.
TEST(SandboxEscape, AnAnswerCannotKillItsForkServer) {
  if (landlock_abi() < 6) GTEST_SKIP() << "this kernel has no Landlock signal scoping (Linux 6.12)";
  const auto execution = execute_in("python",
                                    "import os, signal\n"
                                    "def evaluate(c):\n"
                                    "    try:\n"
                                    "        signal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)\n"
                                    "    except OSError:\n"
                                    "        pass\n"
                                    "    return 2 if c.gender == 'female' else 0\n",
                                    {"gender"});
  ASSERT_EQ(execution.status, analysis::ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, analysis::CounterfactualVerdict::changes);
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 2.0);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male"), 0.0);
}

// A JavaScript answer shares its context's built-ins: replacing JSON.stringify, adding a toJSON
// or index setters to the prototypes, or a global named like the runner's does not change how
// its calls are reported or which persona it is given.
TEST(SandboxEscape, AJavaScriptAnswerCannotForgeItsOwnOutcomes) {
  const auto execution = execute_in("javascript",
                                    "JSON.stringify = () => '{\"kind\":\"value\",\"value\":1}';\n"
                                    "JSON.parse = () => ({gender: 'male'});\n"
                                    "Object.defineProperty(Object.prototype, 'toJSON', {value: () => ({kind: 'value', value: 1})});\n"
                                    "Object.defineProperty(Array.prototype, '0', {get: () => 'male', set: () => {}});\n"
                                    "Reflect.get = () => 'male';\n"
                                    "Object.defineProperty(globalThis, '__codebias_values', {get: () => '{}', set: () => {}});\n"
                                    "function evaluate(c) {\n"
                                    "  return c.gender === 'female' ? 3 : 0;\n"
                                    "}\n",
                                    {"gender"});
  ASSERT_EQ(execution.status, analysis::ExecutionStatus::ran) << execution.reason << " " << execution.error;
  const auto gender = verdict_of(execution, "gender");
  EXPECT_EQ(gender.verdict, analysis::CounterfactualVerdict::changes) << gender.explanation;
  EXPECT_DOUBLE_EQ(mean_of(gender, "female"), 3.0);
  EXPECT_DOUBLE_EQ(mean_of(gender, "male"), 0.0);
}

// Through counterfactual execution too, an answer in any language reads no file of the user's.
TEST(SandboxEscape, AnAnswerUnderExecutionReadsNoFileOfTheUsers) {
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  const Targets targets;
  const std::string secret = targets.paths[0];
  const std::vector<std::pair<std::string, std::string>> answers = {
      {"python",
       "def evaluate(c):\n"
       "    try:\n"
       "        return open('" + secret + "').read()\n"
       "    except OSError:\n"
       "        return 'denied'\n"},
      {"javascript",
       "function evaluate(c) {\n"
       "  try { return require('fs').readFileSync('" + secret + "', 'utf8'); } catch (e) { return 'denied'; }\n"
       "}\n"},
      {"java",
       "public class Answer {\n"
       "  public static String evaluate(String gender) {\n"
       "    try { return java.nio.file.Files.readString(java.nio.file.Path.of(\"" + secret + "\")); }\n"
       "    catch (Exception e) { return \"denied\"; }\n"
       "  }\n"
       "}\n"}};
  for (const auto& [language, code] : answers) {
    SCOPED_TRACE(language);
    const auto execution = execute_in(language, code, {"gender"});
    ASSERT_EQ(execution.status, analysis::ExecutionStatus::ran) << execution.reason << " " << execution.error;
    const std::string reported = analysis::execution_json(execution, true).dump();
    EXPECT_THAT(reported, Not(HasSubstr(kSecret)));
    EXPECT_THAT(reported, HasSubstr("denied"));
  }
}

}  // namespace
}  // namespace codebias::quality
