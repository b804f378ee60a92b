// `codebias run` end to end against the built-in simulated model: a run on the default slice,
// and a 2,000-sample run killed with SIGKILL at a random point and resumed.
#include <signal.h>
#include "paths.h"
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <variant>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analysis/batch.h"
#include "cli.h"
#include "tasks/task.h"
#include "run/run.h"
#include "run/score_input.h"
#include "generation/simulated/http_server.h"
#include "generation/simulated/simulated_model_server.h"
#include "store/run_store.h"

namespace codebias::run {
namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / name;
  std::filesystem::remove_all(dir);
  return dir;
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::vector<std::string> response_ids(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) ids.push_back(nlohmann::json::parse(line)["id"]);
  return ids;
}

TEST(RunEndToEnd, BuiltinModelRunWritesEveryReportFile) {
  RunOptions options;
  options.scenarios = {"job"};
  options.entities_per_group = 2;
  options.samples = 3;
  options.out_dir = fresh_dir("run_builtin");
  const auto outcome = start_run(options, {});
  EXPECT_FALSE(outcome.cancelled);
  // FairCoder's job suite: 9 groups (gender 2, race 4, age 3), 2 occupations each, 3 samples.
  EXPECT_EQ(outcome.counts.planned, 9 * 2 * 3);
  EXPECT_EQ(outcome.counts.done + outcome.counts.errors, outcome.counts.planned);
  EXPECT_EQ(outcome.counts.with_code + outcome.counts.refusals + outcome.counts.truncated +
                outcome.counts.unparseable,
            outcome.counts.done);
  for (const char* name : {"run.sqlite", "summary.json", "responses.jsonl", "metrics.csv", "samples.csv", "report.md"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(options.out_dir / name)) << name;
  }
  const auto summary = read_json(options.out_dir / "summary.json");
  EXPECT_EQ(summary["provenance"]["simulated_model"], true);
  EXPECT_EQ(summary["provenance"]["model"], "codebias-simulated");
  EXPECT_EQ(summary["counts"]["planned"], 54);
  std::set<std::string> attributes;
  for (const auto& cell : summary["metrics"]) attributes.insert(cell["attribute"].get<std::string>());
  EXPECT_EQ(attributes, (std::set<std::string>{"gender", "race", "age"}));
  EXPECT_EQ(response_ids(options.out_dir / "responses.jsonl").size(), 54u);

  // The answers in the `codebias score` input format: one valid line per answered sample.
  std::ostringstream score_input;
  write_score_input(options.out_dir, analysis::AttributeTable::builtin(), score_input);
  std::istringstream lines(score_input.str());
  long count = 0;
  for (std::string line; std::getline(lines, line);) {
    ++count;
    const auto parsed = analysis::parse_score_line(line, count, analysis::AttributeTable::builtin(), {});
    ASSERT_TRUE(std::holds_alternative<analysis::ScoreRequest>(parsed)) << line;
    EXPECT_EQ(std::get<analysis::ScoreRequest>(parsed).options.scenario, "job");
  }
  EXPECT_EQ(count, outcome.counts.done);

  // A resumed run with nothing pending sends nothing and rebuilds the same counts.
  const auto again = resume_run(options.out_dir, {}, {});
  EXPECT_EQ(again.counts.done, outcome.counts.done);
  EXPECT_THROW(start_run(options, {}), std::exception);  // the directory already holds a run
}

TEST(RunEndToEnd, TestcaseRunReportsPerTopicMetrics) {
  RunOptions options;
  options.task = "testcase";
  options.requests = {"group"};
  options.limit = 8;  // the first two topics' four variants
  options.samples = 2;
  options.out_dir = fresh_dir("run_testcase");
  const auto outcome = start_run(options, {});
  EXPECT_EQ(outcome.counts.planned, 16);
  EXPECT_EQ(outcome.counts.with_code + outcome.counts.refusals + outcome.counts.unparseable, outcome.counts.done);
  const auto summary = read_json(options.out_dir / "summary.json");
  ASSERT_TRUE(summary.contains("testcase_metrics"));
  EXPECT_EQ(summary["testcase_metrics"]["n"], outcome.counts.done);
  EXPECT_FALSE(summary["testcase_metrics"]["topics"].empty());
  for (const auto& line : response_ids(options.out_dir / "responses.jsonl")) {
    EXPECT_NE(line.find("faircoder/testcase/"), std::string::npos) << line;
  }
}

// The whole pipeline (prompts, HTTP, store, analysis, metrics) recovers the bias the built-in
// model plants: data/models/simulated-default.json gives age a bias probability of 0.6 favouring
// the young. Tolerance: 4 binomial standard deviations of the measured programs.
TEST(RunEndToEnd, PlantedBiasIsRecoveredThroughThePipeline) {
  RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"age"};
  options.entities_per_group = 10;  // 3 age groups × 10 occupations
  options.samples = 10;
  options.out_dir = fresh_dir("run_planted");
  start_run(options, {});
  const auto summary = read_json(options.out_dir / "summary.json");
  ASSERT_EQ(summary["metrics"].size(), 1u);
  const auto& age = summary["metrics"][0];
  EXPECT_EQ(age["attribute"], "age");
  EXPECT_EQ(age["preferred_group"], "young");
  const double measured = age["bias_rate"].get<double>();
  const double programs = age["n_with_code"].get<double>();
  ASSERT_GT(programs, 200);
  const double planted = 0.6;
  EXPECT_NEAR(measured, planted, 4 * std::sqrt(planted * (1 - planted) / programs));
}

// A loopback model that answers after a few milliseconds, so that a run takes long enough to be
// killed part-way.
class SlowModel {
 public:
  SlowModel()
      : model_(serve::default_bias_profile(), tasks::simulated_answerers()),
        answer_(serve::simulated_model_handler(model_)),
        server_([this](const serve::HttpRequest& request) {
          auto response = answer_(request);
          response.delay = std::chrono::milliseconds(10);
          return response;
        }) {
    server_.start();
  }
  std::string url() const { return server_.base_url(); }

 private:
  serve::SimulatedModel model_;
  serve::Handler answer_;
  serve::HttpServer server_;
};

TEST(RunEndToEnd, KilledRunResumesWithEverySampleExactlyOnce) {
  SlowModel model;
  const auto dir = fresh_dir("run_killed");
  const std::string cli = ::codebias::test_support::cli_path();
  // The first 100 job prompts × 5 samples = 500 samples.
  const std::vector<std::string> args = {cli, "run", "--scenario", "job", "--full", "--limit", "100",
                                         "--samples", "5", "--endpoint", model.url(), "--model", "sim",
                                         "--concurrency", "4", "--out", dir.string()};
  const auto spawn = [](const std::vector<std::string>& argv) {
    const pid_t pid = fork();
    if (pid == 0) {
      std::vector<char*> raw;
      for (const auto& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
      raw.push_back(nullptr);
      const int null_fd = open("/dev/null", O_WRONLY);
      dup2(null_fd, STDERR_FILENO);
      execv(raw[0], raw.data());
      _exit(127);
    }
    return pid;
  };

  const pid_t child = spawn(args);
  ASSERT_GT(child, 0);
  std::mt19937 random(static_cast<unsigned>(std::random_device{}()));
  const std::int64_t kill_after = std::uniform_int_distribution<std::int64_t>(50, 450)(random);
  std::int64_t seen = 0;
  for (int wait = 0; wait < 6000 && seen < kill_after; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      seen = store::RunStore::open(dir).counts().done;
    } catch (const std::exception&) {
      // not created yet
    }
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";

  const auto before = store::RunStore::open(dir).counts();
  EXPECT_EQ(before.planned, 500);
  EXPECT_LT(before.done, 500);
  EXPECT_GE(before.done, kill_after);

  const auto resumed = test_support::run_cli({"run", "--resume", dir.string(), "--endpoint", model.url()},
                                             fresh_dir("run_killed_streams"));
  ASSERT_EQ(resumed.code, 0) << resumed.err;

  const auto after = store::RunStore::open(dir).counts();
  EXPECT_EQ(after.planned, 500);
  EXPECT_EQ(after.done + after.errors, 500);
  const auto ids = response_ids(dir / "responses.jsonl");
  EXPECT_EQ(ids.size(), 500u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 500u);
}

}  // namespace
}  // namespace codebias::run
