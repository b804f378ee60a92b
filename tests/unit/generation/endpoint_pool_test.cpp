#include "generation/endpoint_pool.h"

#include <gtest/gtest.h>

namespace codebias::generation {
namespace {

using namespace std::chrono_literals;

TEST(AimdLimit, HalvesOncePerEpisodeAndRecoversByOnePerWindow) {
  AimdLimit limit(8);
  const auto t0 = SteadyClock::now();
  limit.on_rate_limited(t0, t0 + 1ms);
  EXPECT_EQ(limit.limit(), 4);
  limit.on_rate_limited(t0, t0 + 2ms);  // sent before the cut: same episode
  EXPECT_EQ(limit.limit(), 4);
  limit.on_rate_limited(t0 + 3ms, t0 + 4ms);  // sent after it: a new episode
  EXPECT_EQ(limit.limit(), 2);
  limit.on_success();
  EXPECT_EQ(limit.limit(), 2);
  limit.on_success();
  EXPECT_EQ(limit.limit(), 3);
  for (int i = 0; i < 100; ++i) limit.on_success();
  EXPECT_EQ(limit.limit(), 8);  // never above the maximum
}

TEST(AimdLimit, NeverDropsBelowOne) {
  AimdLimit limit(1);
  const auto t0 = SteadyClock::now();
  limit.on_rate_limited(t0, t0);
  EXPECT_EQ(limit.limit(), 1);
}

TEST(EndpointPool, PicksTheLeastLoadedAndAvoidsTheOneThatFailed) {
  EndpointPool pool({"a", "b"}, {2, 2}, CooldownPolicy{});
  const auto now = SteadyClock::now();
  pool.on_sent(0);
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);
  pool.on_sent(1);
  EXPECT_EQ(pool.pick(now, 0), 1u);
  pool.on_sent(1);
  EXPECT_EQ(pool.pick(now, 0), 0u);  // the avoided one is still better than nothing
  pool.on_sent(0);
  EXPECT_EQ(pool.pick(now, std::nullopt), std::nullopt);  // both full
}

TEST(EndpointPool, CoolsDownAfterRepeatedFailuresAndComesBack) {
  EndpointPool pool({"dead", "live"}, {4, 4}, CooldownPolicy{2, 1000ms, 4000ms});
  const auto now = SteadyClock::now();
  for (int i = 0; i < 2; ++i) {
    pool.on_sent(0);
    pool.on_failure(0, now);
  }
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);
  pool.on_sent(1);
  pool.on_sent(1);
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);  // cooled endpoint not used despite less load
  EXPECT_EQ(pool.next_available(now), now + 1000ms);
  EXPECT_EQ(pool.pick(now + 1001ms, std::nullopt), 0u);
  pool.on_sent(0);
  pool.on_failure(0, now + 1001ms);  // still failing: a longer cooldown
  EXPECT_EQ(pool.next_available(now + 1001ms), now + 3001ms);
}

TEST(EndpointPool, RetryAfterPausesTheEndpoint) {
  EndpointPool pool({"a"}, {4}, CooldownPolicy{});
  const auto now = SteadyClock::now();
  pool.on_sent(0);
  pool.on_rate_limited(0, now, now, 2000ms);
  EXPECT_EQ(pool.pick(now + 1000ms, std::nullopt), std::nullopt);
  EXPECT_EQ(pool.pick(now + 2000ms, std::nullopt), 0u);
  EXPECT_EQ(pool.endpoints()[0].limit.limit(), 2);
}

TEST(EndpointPool, RefusesNoEndpoints) {
  EXPECT_THROW(EndpointPool({}, {}, CooldownPolicy{}), std::invalid_argument);
}

TEST(BackoffDelay, GrowsExponentiallyWithinJitterBoundsAndCaps) {
  EXPECT_EQ(backoff_delay(1, 100ms, 10000ms, 0.0), 50ms);
  EXPECT_EQ(backoff_delay(1, 100ms, 10000ms, 1.0), 100ms);
  EXPECT_EQ(backoff_delay(3, 100ms, 10000ms, 1.0), 400ms);
  EXPECT_EQ(backoff_delay(20, 100ms, 10000ms, 1.0), 10000ms);
}

}  // namespace
}  // namespace codebias::generation
