// The engine against loopback servers that reproduce the timelines of a hostile user: a hung
// request after rate limiting cut the concurrency to one, a burst of concurrent 503s, a server
// failing half its requests. Each test prints its timeline ("[timeline] ...").
#include "generation/generator.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <random>

#include <gtest/gtest.h>

#include "generator_test_support.h"

namespace codebias::generation {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;
using serve::HttpRequest;
using serve::HttpResponse;
using serve::HttpServer;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// A sample whose request body names it, so the server can tell the samples apart.
PlannedSample named_sample(const std::string& id) {
  PlannedSample planned = sample(id);
  planned.body["messages"][0]["content"] = id;
  return planned;
}

std::string sample_of(const HttpRequest& request) {
  return nlohmann::json::parse(request.body)["messages"][0]["content"].get<std::string>();
}

std::vector<PlannedSample> named_samples(int count) {
  std::vector<PlannedSample> samples;
  for (int i = 0; i < count; ++i) samples.push_back(named_sample("s" + std::to_string(i)));
  return samples;
}

// A few quick answers (the endpoint's latency), 429s until the engine's limit is down to one
// slot and that request is the only one in flight, then that request held for 20 s (or until the
// server stops) while every other request is answered at once. Before the fix the one slot
// stayed taken until the held request timed out.
TEST(GeneratorFaults, HungRequestDoesNotHoldTheLastSlot) {
  constexpr int kSamples = 20;
  constexpr int kQuickAnswers = 4;
  Generator* generator = nullptr;
  std::mutex mutex;
  int answered = 0;
  std::string hung_sample;
  SteadyClock::time_point hung_at{};
  std::vector<SteadyClock::time_point> hung_sample_sent;  // from the hold on
  HttpServer server([&](const HttpRequest& request) {
    const auto id = sample_of(request);
    const auto engine = generator->stats();
    std::lock_guard lock(mutex);
    if (answered < kQuickAnswers) {
      ++answered;
      return ok("quick");
    }
    if (hung_sample.empty()) {
      if (engine.endpoints.at(0).concurrency_limit > 1 || engine.in_flight > 1) return status(429);
      hung_sample = id;
      hung_at = SteadyClock::now();
      HttpResponse held = ok("held");
      held.delay = 20s;
      hung_sample_sent.push_back(hung_at);
      return held;
    }
    if (id == hung_sample) hung_sample_sent.push_back(SteadyClock::now());
    return ok("at once");
  });
  server.start();
  auto config = fast_config({server.base_url()});
  config.concurrency = 8;
  config.max_attempts = 20;  // the 429s must not use up a sample's attempts
  config.timeout = 5000ms;
  config.overdue = OverduePolicy{4.0, 200ms, 60'000ms};
  Generator engine(config);
  generator = &engine;
  const auto start = SteadyClock::now();
  std::map<std::string, SteadyClock::time_point> finished_at;
  std::map<std::string, SampleResult> results;
  const auto stats = engine.run(named_samples(kSamples), [&](const SampleResult& result) {
    finished_at[result.id] = SteadyClock::now();
    results[result.id] = result;
  });
  std::lock_guard lock(mutex);
  ASSERT_FALSE(hung_sample.empty());
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kSamples));
  EXPECT_EQ(stats.done, static_cast<std::size_t>(kSamples));
  auto since_hold = [&](SteadyClock::time_point at) {
    return std::chrono::duration<double>(at - hung_at).count();
  };
  double others_done = 0;
  int others_after_hold = 0;
  for (const auto& [id, at] : finished_at) {
    if (id == hung_sample) continue;
    others_done = std::max(others_done, since_hold(at));
    if (at > hung_at) ++others_after_hold;
  }
  std::printf("[timeline] hung request (held from %.2f s): the %d samples left done %.2f s after "
              "the hold began, the held one %.2f s after (timeout 5 s)\n",
              std::chrono::duration<double>(hung_at - start).count(), others_after_hold,
              others_done, since_hold(finished_at[hung_sample]));
  EXPECT_GE(others_after_hold, 10);  // the hold did begin with most of the run left
  EXPECT_LT(others_done, 2.5);  // 0.2 s (the overdue floor); before the fix 5 s, the timeout
  // The held request timed out and was then sent again, never while it was in flight.
  ASSERT_EQ(hung_sample_sent.size(), 2u);
  EXPECT_GE(hung_sample_sent[1] - hung_sample_sent[0], 4900ms);
  EXPECT_EQ(results[hung_sample].status, SampleStatus::done);
  EXPECT_EQ(results[hung_sample].answer, "at once");  // the answer to the second request
}

// Eight requests sent together all answered 503, then the server recovers: one cooldown of the
// base length, not one doubling per failure (before: 0.4 → 0.8 → ... → 12.8 s). The server
// holds the eight 503s and sends them at one instant, and the retry backoff (0.1–0.2 s) is far
// longer than the client needs to read them, so no retry can reach the recovered server before
// the burst has begun the cooldown, however slowly a loaded machine starts the eight requests.
TEST(GeneratorFaults, ConcurrentServerErrorsCoolDownOnce) {
  constexpr int kSamples = 8;
  std::mutex mutex;
  int calls = 0;
  SteadyClock::time_point burst_due{};
  HttpServer server([&](const HttpRequest&) {
    std::lock_guard lock(mutex);
    if (calls++ >= kSamples) return ok("recovered");
    const auto now = SteadyClock::now();
    if (calls == 1) burst_due = now + 300ms;
    HttpResponse failed = status(503);
    failed.delay = std::max(0ms, std::chrono::ceil<std::chrono::milliseconds>(burst_due - now));
    return failed;
  });
  server.start();
  auto config = fast_config({server.base_url()});
  config.concurrency = kSamples;
  config.backoff_base = 200ms;
  config.backoff_cap = 200ms;
  config.cooldown = CooldownPolicy{3, 400ms, 30'000ms};
  const auto start = SteadyClock::now();
  const auto outcome = run_samples(config, named_samples(kSamples));
  const double elapsed = seconds_since(start);
  std::printf("[timeline] %d concurrent 503s: all samples done at %.2f s (503s sent at 0.3 s, base cooldown 0.4 s)\n",
              kSamples, elapsed);
  EXPECT_EQ(outcome.stats.done, static_cast<std::size_t>(kSamples));
  EXPECT_EQ(outcome.stats.endpoints.at(0).cooldowns, 1);
  EXPECT_DOUBLE_EQ(outcome.stats.endpoints.at(0).cooldown_s, 0.4);
  EXPECT_GE(elapsed, 0.69);  // the burst at 0.3 s, then the retries waited out the cooldown
  EXPECT_LT(elapsed, 2.8);   // 0.7 s; with one doubling per failure 13.1 s
}

// Every request fails with 503 at even odds (a fixed pseudo-random sequence): retries with
// backoff carry the samples through in seconds, not minutes of growing cooldowns; of the
// cooldowns that begin, most are ended by the next success.
TEST(GeneratorFaults, HalfFailingServerKeepsThroughput) {
  constexpr int kSamples = 120;
  std::mutex mutex;
  std::mt19937 coin(20261202);
  int failed = 0;
  HttpServer server([&](const HttpRequest&) {
    std::lock_guard lock(mutex);
    if ((coin() & 1u) != 0) {
      ++failed;
      return status(503);
    }
    return ok("fine");
  });
  server.start();
  auto config = fast_config({server.base_url()});
  config.concurrency = 8;
  config.max_attempts = 30;  // 2^-30 per sample: every sample gets its answer
  config.cooldown = CooldownPolicy{3, 1000ms, 30'000ms};
  const auto start = SteadyClock::now();
  const auto outcome = run_samples(config, named_samples(kSamples));
  const double elapsed = seconds_since(start);
  std::printf("[timeline] 50 %% 503s: %d samples done at %.2f s after %d failures, %d cooldowns "
              "begun (base 1 s)\n",
              kSamples, elapsed, failed, outcome.stats.endpoints.at(0).cooldowns);
  EXPECT_EQ(outcome.stats.done, static_cast<std::size_t>(kSamples));
  EXPECT_GT(failed, 30);
  EXPECT_LT(elapsed, 15.0);  // 1–5 s (a few base cooldowns stand); growing ones took 39–45 s
}

}  // namespace
}  // namespace codebias::generation
