// The endpoints a run spreads its requests over, each with an AIMD concurrency limit (halved
// once per rate-limit episode, +1 after a limit's worth of successes), a pause honouring
// Retry-After, and a cooldown after repeated failures. Dispatch goes to the endpoint with the
// fewest outstanding requests. Single-threaded: the generation engine thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace codebias::generation {

using SteadyClock = std::chrono::steady_clock;

// Additive-increase / multiplicative-decrease limit on requests in flight.
class AimdLimit {
 public:
  explicit AimdLimit(int maximum);
  int limit() const { return limit_; }
  int maximum() const { return maximum_; }
  void on_success();
  // Halves the limit unless the rejected request was sent before the last cut (the same episode:
  // requests already in flight when the server pushed back must not cut again).
  void on_rate_limited(SteadyClock::time_point request_sent, SteadyClock::time_point now);

 private:
  int maximum_;
  int limit_;
  double credit_ = 0;  // successes since the last increase, in units of the limit
  SteadyClock::time_point last_cut_{};
};

struct CooldownPolicy {
  int failures_before_cooldown = 3;  // consecutive connection/timeout/5xx failures
  std::chrono::milliseconds cooldown{5000};
  std::chrono::milliseconds max_cooldown{60000};  // cooldowns double while failures continue
};

struct EndpointState {
  std::string base_url;
  AimdLimit limit;
  int in_flight = 0;
  int consecutive_failures = 0;
  std::chrono::milliseconds last_cooldown{0};
  SteadyClock::time_point available_at{};  // paused (Retry-After) or cooled down until then
};

class EndpointPool {
 public:
  // One state per base URL (`max_in_flight[i]` is its AIMD maximum); throws
  // std::invalid_argument when there is no endpoint.
  EndpointPool(const std::vector<std::string>& base_urls, const std::vector<int>& max_in_flight,
               CooldownPolicy policy);

  // The endpoint to send to now: available, below its limit, fewest in flight; `avoid` (the one
  // that just failed this sample) only when no other qualifies. nullopt when none has room.
  std::optional<std::size_t> pick(SteadyClock::time_point now,
                                  std::optional<std::size_t> avoid) const;
  // Earliest time a paused or cooled endpoint comes back (nullopt: none is unavailable).
  std::optional<SteadyClock::time_point> next_available(SteadyClock::time_point now) const;

  void on_sent(std::size_t endpoint);
  void on_success(std::size_t endpoint);
  // A connection failure, timeout or 5xx: counts toward a cooldown.
  void on_failure(std::size_t endpoint, SteadyClock::time_point now);
  void on_rate_limited(std::size_t endpoint, SteadyClock::time_point request_sent,
                       SteadyClock::time_point now,
                       std::optional<std::chrono::milliseconds> retry_after);
  // An answer that says nothing about the endpoint's health (4xx, invalid body).
  void on_neutral(std::size_t endpoint);

  const std::vector<EndpointState>& endpoints() const { return endpoints_; }

 private:
  std::vector<EndpointState> endpoints_;
  CooldownPolicy policy_;
};

// Full-jitter exponential backoff: uniform in [delay/2, delay], delay = base * 2^(attempt-1)
// capped at `cap`. `unit_random` is in [0, 1).
std::chrono::milliseconds backoff_delay(int attempt, std::chrono::milliseconds base,
                                        std::chrono::milliseconds cap, double unit_random);

}  // namespace codebias::generation
