// `codebias run` never leaks a key given in an endpoint URL, never lets two processes write one
// run directory, and never leaves a run that resumes as "0 of 0" after a kill during its start.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "tasks/task.h"
#include "paths.h"
#include "generation/simulated/http_server.h"
#include "generation/simulated/simulated_model_server.h"
#include "store/run_lock.h"
#include "store/run_store.h"
#include "store_test_support.h"

namespace codebias {
namespace {

namespace fs = std::filesystem;
using test_support::run_cli;

// The built-in model on a loopback port, remembering whether any request carried `secret`.
class WatchedModel {
 public:
  explicit WatchedModel(std::string secret)
      : secret_(std::move(secret)),
        model_(serve::default_bias_profile(), tasks::simulated_answerers()),
        answer_(serve::simulated_model_handler(model_)),
        server_([this](const serve::HttpRequest& request) {
          ++requests_;
          std::string seen = request.target + request.body;
          for (const auto& [name, value] : request.headers) seen += name + value;
          if (seen.find(secret_) != std::string::npos) leaked_ = true;
          return answer_(request);
        }) {
    server_.start();
  }
  std::string url() const { return server_.base_url(); }
  int requests() const { return requests_.load(); }
  bool leaked() const { return leaked_.load(); }

 private:
  std::string secret_;
  serve::SimulatedModel model_;
  serve::Handler answer_;
  serve::HttpServer server_;
  std::atomic<int> requests_{0};
  std::atomic<bool> leaked_{false};
};

// The small FairCoder slice every test here runs: 9 groups of the job scenario, one sample.
std::vector<std::string> small_run(const fs::path& out) {
  return {"run", "--scenario", "job", "--entities-per-group", "1", "--samples", "1", "--out", out.string()};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Every file under `dir` (recursively) that holds `needle`.
std::vector<std::string> files_holding(const fs::path& dir, const std::string& needle) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && test_support::read_file(entry.path()).find(needle) != std::string::npos)
      found.push_back(entry.path().string());
  }
  return found;
}

TEST(RunGuard, KeyInEndpointUrlIsRefusedBeforeAnythingIsStoredOrSent) {
  const std::string key = "sk-h29a-5ec7e7-9b1d";
  WatchedModel model(key);
  const fs::path base = test_support::fresh_test_dir("run_guard_url_");
  const fs::path scratch = base / "streams";
  const std::string with_userinfo = "http://user:" + key + "@" + model.url().substr(7);
  const std::string with_query = model.url() + "/v1?api_key=" + key;

  for (const auto& url : {with_userinfo, with_query}) {
    const fs::path refused = base / "refused";
    const auto result = run_cli(with(small_run(refused), {"--endpoint", url, "--model", "sim"}), scratch);
    EXPECT_EQ(result.code, 2) << result.err;
    EXPECT_NE(result.err.find("--endpoint"), std::string::npos) << result.err;
    EXPECT_EQ((result.out + result.err).find(key), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(refused)) << url;

    // The same URL from a run file.
    const fs::path config = base / "run.yaml";
    std::ofstream(config) << "endpoint: \"" << url << "\"\nmodel: sim\n";
    const auto from_file = run_cli(with(small_run(refused), {"--config", config.string()}), scratch);
    EXPECT_EQ(from_file.code, 2) << from_file.err;
    EXPECT_EQ((from_file.out + from_file.err).find(key), std::string::npos) << from_file.err;
    EXPECT_FALSE(fs::exists(refused));

    // detect asks an endpoint too.
    const auto detect =
        run_cli({"detect", "--detector", "judge", "--endpoint", url, "--endpoint-model", "sim"}, scratch);
    EXPECT_EQ(detect.code, 2) << detect.err;
    EXPECT_EQ((detect.out + detect.err).find(key), std::string::npos) << detect.err;
  }
  EXPECT_EQ(model.requests(), 0);

  // An accepted run, then a resume given a keyed URL and a report: the key is nowhere.
  const fs::path run_dir = base / "accepted";
  const auto accepted = run_cli(with(small_run(run_dir), {"--endpoint", model.url(), "--model", "sim"}), scratch);
  ASSERT_EQ(accepted.code, 0) << accepted.err;
  EXPECT_GT(model.requests(), 0);
  for (const auto& url : {with_userinfo, with_query}) {
    const auto resumed = run_cli({"run", "--resume", run_dir.string(), "--retry-errors", "--endpoint", url}, scratch);
    EXPECT_EQ(resumed.code, 2) << resumed.err;
    EXPECT_EQ((resumed.out + resumed.err).find(key), std::string::npos) << resumed.err;
  }
  const auto report = run_cli({"report", run_dir.string()}, scratch);
  ASSERT_EQ(report.code, 0) << report.err;
  EXPECT_TRUE(fs::exists(run_dir / "report.html"));
  EXPECT_EQ(files_holding(run_dir, key), std::vector<std::string>{});
  EXPECT_EQ(files_holding(scratch, key), std::vector<std::string>{});
  EXPECT_FALSE(model.leaked());
}

// A run an older codebias stored with a keyed URL: never sent again, and gone from the reports.
TEST(RunGuard, StoredKeyedUrlOfAnOlderRunIsNotSentAgain) {
  const std::string key = "sk-h29a-legacy-77aa";
  WatchedModel model(key);
  const fs::path base = test_support::fresh_test_dir("run_guard_legacy_");
  const fs::path dir = base / "run";
  ASSERT_EQ(run_cli(with(small_run(dir), {"--endpoint", model.url(), "--model", "sim"}), base / "streams").code, 0);
  const std::string leaky = "http://user:" + key + "@" + model.url().substr(7);
  store::testing::execute(dir / store::kStoreFileName,
                          "UPDATE run SET provenance = json_set(provenance, '$.endpoints[0]', '" + leaky +
                              "', '$.options.endpoints[0]', '" + leaky + "')");
  const int sent = model.requests();
  const auto refused = run_cli({"run", "--resume", dir.string(), "--retry-errors"}, base / "streams");
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_NE(refused.err.find("resume with --endpoint"), std::string::npos) << refused.err;
  EXPECT_EQ(model.requests(), sent);
  const auto resumed =
      run_cli({"run", "--resume", dir.string(), "--retry-errors", "--endpoint", model.url()}, base / "streams");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  for (const char* name : {"report.md", "summary.json", "responses.jsonl"}) {
    EXPECT_EQ(test_support::read_file(dir / name).find(key), std::string::npos) << name;
  }
  EXPECT_FALSE(model.leaked());
}

TEST(RunGuard, OneProcessAtATimeOwnsARunDirectory) {
  const fs::path base = test_support::fresh_test_dir("run_guard_lock_");
  const fs::path dir = base / "run";
  ASSERT_EQ(run_cli(small_run(dir), base / "streams").code, 0);
  const fs::path results = base / "results.jsonl";
  std::ofstream(results) << "";
  {
    const auto held = store::RunLock::acquire(dir, "test holder");
    const auto resumed = run_cli({"run", "--resume", dir.string()}, base / "streams");
    EXPECT_NE(resumed.code, 0);
    EXPECT_NE(resumed.err.find("in use"), std::string::npos) << resumed.err;
    EXPECT_NE(resumed.err.find("pid " + std::to_string(getpid())), std::string::npos) << resumed.err;
    EXPECT_NE(resumed.err.find("test holder"), std::string::npos) << resumed.err;
    const auto imported = run_cli({"batch", "import", dir.string(), results.string()}, base / "streams");
    EXPECT_NE(imported.code, 0);
    EXPECT_NE(imported.err.find("in use"), std::string::npos) << imported.err;
    // Nothing was sent or rewritten by the refused commands: the report is the first run's.
    EXPECT_EQ(store::RunStore::open(dir).counts().planned, 9);
  }

  // A holder killed with SIGKILL leaves its lock file behind but no lock.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t holder = fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    close(ready[0]);
    try {
      const auto lock = store::RunLock::acquire(dir, "killed holder");
      const char byte = 'x';
      if (write(ready[1], &byte, 1) != 1) _exit(1);
      pause();
    } catch (...) {
    }
    _exit(1);
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  close(ready[0]);
  const auto while_held = run_cli({"run", "--resume", dir.string()}, base / "streams");
  EXPECT_NE(while_held.code, 0);
  EXPECT_NE(while_held.err.find("pid " + std::to_string(holder)), std::string::npos) << while_held.err;
  kill(holder, SIGKILL);
  int status = 0;
  waitpid(holder, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  const auto after_kill = run_cli({"run", "--resume", dir.string()}, base / "streams");
  EXPECT_EQ(after_kill.code, 0) << after_kill.err;
}

// CODEBIAS_TEST_ABORT_AT makes the codebias process _exit(86) at a point of the run's start, as a
// kill there would (src/run/run.cpp, test-only).
test_support::CliRun run_aborted_at(const std::string& point, const std::vector<std::string>& args,
                                    const fs::path& scratch) {
  setenv("CODEBIAS_TEST_ABORT_AT", point.c_str(), 1);
  auto result = run_cli(args, scratch);
  unsetenv("CODEBIAS_TEST_ABORT_AT");
  return result;
}

TEST(RunGuard, RunKilledAfterStoringItsPlanResumesEverySample) {
  const fs::path base = test_support::fresh_test_dir("run_guard_start_");
  const fs::path dir = base / "run";
  ASSERT_EQ(run_aborted_at("stored", small_run(dir), base / "streams").code, 86);
  const auto stored = store::RunStore::open(dir).counts();
  EXPECT_EQ(stored.planned, 9);
  EXPECT_EQ(stored.done, 0);
  const auto resumed = run_cli({"run", "--resume", dir.string()}, base / "streams");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const auto summary = nlohmann::json::parse(test_support::read_file(dir / "summary.json"));
  EXPECT_EQ(summary["counts"]["planned"], 9);
  EXPECT_EQ(summary["counts"]["done"].get<int>() + summary["counts"]["errors"].get<int>(), 9);
}

TEST(RunGuard, RunKilledBeforeStoringLeavesNoRunAndStartsAgain) {
  const fs::path base = test_support::fresh_test_dir("run_guard_start_early_");
  const fs::path dir = base / "run";
  ASSERT_EQ(run_aborted_at("locked", small_run(dir), base / "streams").code, 86);
  EXPECT_FALSE(fs::exists(dir / store::kStoreFileName));
  // Nothing to resume: said so, not "0 of 0 samples answered" with exit 0.
  const auto resumed = run_cli({"run", "--resume", dir.string()}, base / "streams");
  EXPECT_NE(resumed.code, 0);
  EXPECT_NE(resumed.err.find("no run in"), std::string::npos) << resumed.err;
  // The same command starts the run over in the same directory.
  ASSERT_EQ(run_cli(small_run(dir), base / "streams").code, 0);
  EXPECT_EQ(store::RunStore::open(dir).counts().planned, 9);
}

}  // namespace
}  // namespace codebias
