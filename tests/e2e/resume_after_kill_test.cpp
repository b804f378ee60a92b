// A run killed with SIGKILL at a random point and resumed ends with every sample stored exactly
// once, and no sample finished before the kill is written again. Real processes: each
// interrupted round is a fork()ed child that writes results through the store as they "arrive"
// (out of plan order, some failing) and acknowledges each committed one on a pipe; the parent
// kills it after a random number of acknowledgements.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "store_test_support.h"

namespace codebias::store {
namespace {

using namespace codebias::store::testing;

constexpr int kPrompts = 200;
constexpr int kSamplesPerPrompt = 10;
constexpr int kSamples = kPrompts * kSamplesPerPrompt;  // 2,000
constexpr int kInterruptedRounds = 3;
// Acknowledgements are padded so that the 4 KiB pipe holds only a few: the child can never run
// more than kMaxLead results ahead of the parent, so a kill always lands mid-round.
constexpr std::size_t kAckBytes = 512;
constexpr int kPipeBytes = 4096;
constexpr int kMaxLead = kPipeBytes / static_cast<int>(kAckBytes) + 2;

bool write_all(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// The child: resume the run, record results for its pending samples in a shuffled order (every
// seventh one fails), acknowledge each after record() returned, then wait to be killed.
[[noreturn]] void run_child(const fs::path& dir, int round, unsigned seed, int ack_fd) {
  try {
    auto store = RunStore::open(dir);
    auto todo = store.pending(false);
    std::mt19937 rng(seed);
    std::shuffle(todo.begin(), todo.end(), rng);  // arrivals from concurrent requests come in any order
    for (std::size_t i = 0; i < todo.size(); ++i) {
      bool fails = i % 7 == 3;
      auto result = fails ? error_result(todo[i].id, "server")
                          : done_result(todo[i].id, "round " + std::to_string(round) + ": " + todo[i].id);
      store.record(result);
      std::string ack = todo[i].id + (fails ? " error" : " done");
      ack.resize(kAckBytes - 1, ' ');
      if (!write_all(ack_fd, ack + '\n')) _exit(4);
    }
  } catch (...) {
    _exit(3);
  }
  for (;;) pause();  // the parent always kills: a round never ends on its own
}

struct Snapshot {
  std::map<std::string, SampleStatus> status;
  std::map<std::string, std::string> answer;
  int done = 0;
  int errors = 0;
};

Snapshot snapshot(const fs::path& dir) {
  Snapshot taken;
  auto store = RunStore::open(dir);
  store.for_each_sample([&](const PlannedSample& planned, const SampleResult& result, const json*) {
    taken.status[planned.id] = result.status;
    taken.answer[planned.id] = result.answer;
    taken.done += result.status == SampleStatus::done;
    taken.errors += result.status == SampleStatus::error;
  });
  return taken;
}

TEST(RunStoreResume, KilledRunResumesToExactlyAllSamplesWithoutDuplicatesOrRewrites) {
  fs::path dir = fresh_test_dir("store");
  {
    auto store = RunStore::create(dir, {{"model", "test-model"}});
    store.plan(make_plan(kPrompts, kSamplesPerPrompt));
  }  // closed: a connection must not cross fork()

  unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  Snapshot before = snapshot(dir);
  ASSERT_EQ(before.status.size(), static_cast<std::size_t>(kSamples));

  for (int round = 1; round <= kInterruptedRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    int pending = kSamples - before.done - before.errors;
    // Somewhere in the first half of what this round has to do (the last round still has a
    // quarter of the plan), far more than kMaxLead before its end.
    int kill_after = std::uniform_int_distribution<int>(1, pending / 2)(rng);
    ASSERT_GT(pending - kill_after, kMaxLead);

    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ASSERT_GE(::fcntl(fds[1], F_SETPIPE_SZ, kPipeBytes), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      run_child(dir, round, rng(), fds[1]);
    }
    ::close(fds[1]);

    std::vector<std::string> acknowledged;
    std::string buffer;
    bool killed = false;
    char chunk[kPipeBytes];
    for (;;) {
      ssize_t n = ::read(fds[0], chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // EOF: the child is gone (killed, or died on its own: checked below)
      buffer.append(chunk, static_cast<std::size_t>(n));
      for (auto newline = buffer.find('\n'); newline != std::string::npos; newline = buffer.find('\n')) {
        acknowledged.push_back(buffer.substr(0, newline));
        buffer.erase(0, newline + 1);
      }
      if (!killed && static_cast<int>(acknowledged.size()) >= kill_after) {
        ::kill(child, SIGKILL);
        killed = true;
      }
    }
    ::close(fds[0]);
    int wait_status = 0;
    ASSERT_EQ(::waitpid(child, &wait_status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGKILL)
        << "the child ended on its own with status " << wait_status << " after " << acknowledged.size() << " results";

    Snapshot after = snapshot(dir);
    // Every acknowledged result survived the kill.
    for (const auto& line : acknowledged) {
      std::istringstream fields(line);
      std::string id, status;
      fields >> id >> status;
      EXPECT_EQ(after.status.at(id), status == "done" ? SampleStatus::done : SampleStatus::error) << id;
    }
    // Nothing done before this round changed; the round stopped before finishing.
    for (const auto& [id, status] : before.status) {
      if (status != SampleStatus::done) continue;
      EXPECT_EQ(after.status.at(id), SampleStatus::done) << id;
      EXPECT_EQ(after.answer.at(id), before.answer.at(id)) << id;
    }
    int finished = after.done + after.errors;
    EXPECT_GE(finished - before.done - before.errors, static_cast<int>(acknowledged.size()));
    EXPECT_LT(finished, kSamples);
    before = after;
  }

  // Resume: only the pending samples are run, then (--retry-errors) only the failed ones.
  auto store = RunStore::open(dir);
  ASSERT_GT(before.errors, 0);
  auto pending = store.pending(false);
  EXPECT_EQ(static_cast<int>(pending.size()), kSamples - before.done - before.errors);
  for (const auto& sample : pending) {
    EXPECT_EQ(before.status.at(sample.id), SampleStatus::pending) << sample.id;
    EXPECT_TRUE(store.record(done_result(sample.id, "resumed: " + sample.id))) << sample.id;
  }
  EXPECT_EQ(store.counts().errors, before.errors);
  auto failed = store.pending(true);
  EXPECT_EQ(static_cast<int>(failed.size()), before.errors);
  for (const auto& sample : failed) {
    EXPECT_EQ(before.status.at(sample.id), SampleStatus::error) << sample.id;
    EXPECT_TRUE(store.record(done_result(sample.id, "retried: " + sample.id))) << sample.id;
  }

  auto counts = store.counts();
  EXPECT_EQ(counts.planned, kSamples);
  EXPECT_EQ(counts.done, kSamples);
  EXPECT_EQ(counts.errors, 0);
  EXPECT_EQ(counts.pending, 0);
  std::set<std::string> distinct;
  int visited = 0;
  store.for_each_sample([&](const PlannedSample& planned, const SampleResult& result, const json*) {
    ++visited;
    distinct.insert(planned.id);
    EXPECT_EQ(result.status, SampleStatus::done) << planned.id;
    if (before.status.at(planned.id) == SampleStatus::done) {
      EXPECT_EQ(result.answer, before.answer.at(planned.id)) << "rewritten: " << planned.id;
    }
  });
  EXPECT_EQ(visited, kSamples);
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(kSamples));
  // And in the file itself: one row per sample, one result per sample.
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(DISTINCT id) FROM samples"), kSamples);
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM samples"), kSamples);
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM results"), kSamples);
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"), 1);
}

}  // namespace
}  // namespace codebias::store
