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
  pool.on_sent(0, now);
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);
  pool.on_sent(1, now);
  EXPECT_EQ(pool.pick(now, 0), 1u);
  pool.on_sent(1, now);
  EXPECT_EQ(pool.pick(now, 0), 0u);  // the avoided one is still better than nothing
  pool.on_sent(0, now);
  EXPECT_EQ(pool.pick(now, std::nullopt), std::nullopt);  // both full
}

TEST(EndpointPool, CoolsDownAfterRepeatedFailuresAndComesBack) {
  EndpointPool pool({"dead", "live"}, {4, 4}, CooldownPolicy{2, 1000ms, 4000ms});
  const auto now = SteadyClock::now();
  for (int i = 0; i < 2; ++i) {
    pool.on_sent(0, now);
    pool.on_failure(0, now, now);
  }
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);
  pool.on_sent(1, now);
  pool.on_sent(1, now);
  EXPECT_EQ(pool.pick(now, std::nullopt), 1u);  // cooled endpoint not used despite less load
  EXPECT_EQ(pool.next_available(now), now + 1000ms);
  EXPECT_EQ(pool.pick(now + 1001ms, std::nullopt), 0u);
  pool.on_sent(0, now + 1001ms);
  pool.on_failure(0, now + 1001ms, now + 1001ms);  // still failing: a longer cooldown
  EXPECT_EQ(pool.next_available(now + 1001ms), now + 3001ms);
}

TEST(EndpointPool, AFreshEndpointThatRefusesEveryConnectionIsDown) {
  EndpointPool pool({"closed", "live"}, {4, 4}, CooldownPolicy{3, 1000ms, 4000ms});
  const auto now = SteadyClock::now();
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(pool.endpoints()[0].down);
    pool.on_sent(0, now);
    pool.on_refused(0, now, now);
  }
  EXPECT_TRUE(pool.endpoints()[0].down);
  EXPECT_FALSE(pool.all_down());
  // Down for good: not picked once its cooldown is over, even when the other one is full.
  for (int i = 0; i < 4; ++i) pool.on_sent(1, now);
  EXPECT_EQ(pool.pick(now + 10s, std::nullopt), std::nullopt);
  for (int i = 0; i < 3; ++i) pool.on_refused(1, now, now);
  EXPECT_TRUE(pool.all_down());
}

TEST(EndpointPool, AnEndpointThatAnsweredOnceIsNeverDown) {
  EndpointPool pool({"restarting"}, {4}, CooldownPolicy{3, 1000ms, 4000ms});
  const auto now = SteadyClock::now();
  pool.on_sent(0, now);
  pool.on_answered(0);
  pool.on_success(0, now, now);
  for (int i = 0; i < 10; ++i) {
    pool.on_sent(0, now);
    pool.on_refused(0, now, now);
  }
  EXPECT_FALSE(pool.endpoints()[0].down);  // a restart: cooled down and tried again
  EXPECT_EQ(pool.pick(now + 1min, std::nullopt), 0u);
}

TEST(EndpointPool, RetryAfterPausesTheEndpoint) {
  EndpointPool pool({"a"}, {4}, CooldownPolicy{});
  const auto now = SteadyClock::now();
  pool.on_sent(0, now);
  pool.on_rate_limited(0, now, now, 2000ms);
  EXPECT_EQ(pool.pick(now + 1000ms, std::nullopt), std::nullopt);
  EXPECT_EQ(pool.pick(now + 2000ms, std::nullopt), 0u);
  EXPECT_EQ(pool.endpoints()[0].limit.limit(), 2);
}

TEST(EndpointPool, ABurstOfFailuresCoolsDownOnce) {
  EndpointPool pool({"a"}, {8}, CooldownPolicy{3, 1000ms, 8000ms});
  const auto t0 = SteadyClock::now();
  for (int i = 0; i < 8; ++i) pool.on_sent(0, t0);
  // All eight fail within 8 ms: the third begins the cooldown, the rest were already in flight.
  for (int i = 1; i <= 8; ++i) pool.on_failure(0, t0, t0 + i * 1ms);
  const auto& state = pool.endpoints()[0];
  EXPECT_EQ(pool.next_available(t0), t0 + 3ms + 1000ms);
  EXPECT_EQ(state.cooldowns, 1);
  EXPECT_EQ(state.in_flight(), 0);
  // A request sent after the cooldown ended fails too: twice as long.
  const auto t1 = t0 + 1003ms;
  pool.on_sent(0, t1);
  pool.on_sent(0, t1);
  pool.on_failure(0, t1, t1 + 5ms);
  EXPECT_EQ(pool.next_available(t1), t1 + 5ms + 2000ms);
  pool.on_failure(0, t1, t1 + 6ms);  // sent together with the one that began it
  EXPECT_EQ(pool.next_available(t1), t1 + 5ms + 2000ms);
  EXPECT_EQ(state.cooldowns, 2);
}

TEST(EndpointPool, ASuccessEndsTheCooldownAndItsEscalation) {
  EndpointPool pool({"a"}, {4}, CooldownPolicy{3, 1000ms, 8000ms});
  const auto t0 = SteadyClock::now();
  for (int i = 0; i < 4; ++i) pool.on_sent(0, t0);
  for (int i = 1; i <= 3; ++i) pool.on_failure(0, t0, t0 + i * 1ms);
  EXPECT_EQ(pool.pick(t0 + 4ms, std::nullopt), std::nullopt);
  pool.on_success(0, t0, t0 + 10ms);  // the endpoint answers: no reason to wait
  EXPECT_EQ(pool.pick(t0 + 10ms, std::nullopt), 0u);
  for (int i = 1; i <= 3; ++i) {
    pool.on_sent(0, t0 + 20ms);
    pool.on_failure(0, t0 + 20ms, t0 + 20ms + i * 1ms);
  }
  EXPECT_EQ(pool.next_available(t0), t0 + 23ms + 1000ms);  // the base length again
}

TEST(EndpointPool, AnOverdueRequestStopsCountingAgainstTheLimit) {
  EndpointPool pool({"a"}, {2}, CooldownPolicy{}, OverduePolicy{4.0, 100ms, 5000ms});
  const auto t0 = SteadyClock::now();
  pool.on_sent(0, t0);
  pool.on_success(0, t0, t0 + 10ms);  // latency 10 ms: overdue after max(100 ms, 4 x 10 ms)
  pool.on_sent(0, t0 + 10ms);
  pool.on_rate_limited(0, t0 + 10ms, t0 + 20ms, std::nullopt);
  ASSERT_EQ(pool.endpoints()[0].limit.limit(), 1);
  const auto hung = t0 + 30ms;
  pool.on_sent(0, hung);
  EXPECT_EQ(pool.pick(hung + 50ms, std::nullopt), std::nullopt);
  EXPECT_EQ(pool.next_overdue(), hung + 100ms);
  pool.release_overdue(hung + 99ms);
  EXPECT_EQ(pool.pick(hung + 99ms, std::nullopt), std::nullopt);
  pool.release_overdue(hung + 100ms);
  EXPECT_EQ(pool.pick(hung + 100ms, std::nullopt), 0u);
  EXPECT_EQ(pool.endpoints()[0].in_flight(), 1);  // still in flight, just not counted
  EXPECT_EQ(pool.next_overdue(), std::nullopt);
  pool.on_sent(0, hung + 100ms);
  pool.on_failure(0, hung, hung + 5000ms);  // the hung one times out
  EXPECT_EQ(pool.endpoints()[0].overdue, 0);
  EXPECT_EQ(pool.endpoints()[0].in_flight(), 1);
}

TEST(EndpointPool, OverdueWithoutALatencyEstimateAndAtMostTheMaximum) {
  EndpointPool pool({"a"}, {2}, CooldownPolicy{}, OverduePolicy{4.0, 100ms, 5000ms});
  const auto t0 = SteadyClock::now();
  for (int i = 0; i < 2; ++i) pool.on_sent(0, t0);
  EXPECT_EQ(pool.next_overdue(), t0 + 5000ms);  // no success yet: no estimate to go by
  pool.release_overdue(t0 + 5000ms);
  for (int i = 0; i < 2; ++i) pool.on_sent(0, t0 + 5000ms);
  pool.release_overdue(t0 + 10'000ms);
  const auto& state = pool.endpoints()[0];
  EXPECT_EQ(state.overdue, 2);  // the maximum: the later two still count
  EXPECT_EQ(state.in_flight(), 4);
  EXPECT_EQ(pool.pick(t0 + 10'000ms, std::nullopt), std::nullopt);
  EXPECT_EQ(pool.next_overdue(), std::nullopt);
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
