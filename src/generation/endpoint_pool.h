// The endpoints a run spreads its requests over, each with an AIMD concurrency limit (halved
// once per rate-limit episode, +1 after a limit's worth of successes), a pause honouring
// Retry-After, and a cooldown after repeated failures. Dispatch goes to the endpoint with the
// fewest outstanding requests. Single-threaded: the generation engine thread owns it.
//
// Nothing can hold the last slot: a request still in flight long after the endpoint's usual
// latency is "overdue" and stops counting against the AIMD limit (it still runs to its answer or
// timeout), so one hung request never stalls an endpoint whose limit was cut to one. A burst of
// failures counts once: failures of requests sent before a cooldown ended never lengthen it, and
// a success ends it (the endpoint answers again).
//
// An endpoint that has never answered and refuses `failures_before_cooldown` connections in a row
// is down (nothing listens at its URL: a wrong port, a server not started), not overloaded: it
// gets no more requests, so a run against a closed port ends in seconds instead of cooling down.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
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

// An endpoint cools down after `failures_before_cooldown` consecutive connection/timeout/5xx
// failures. The cooldown doubles (up to `max_cooldown`) when a request sent after it ended fails
// again before any success; failures of requests sent before it ended are the same episode and
// change nothing. A success resets the count and ends a cooldown in progress.
struct CooldownPolicy {
  int failures_before_cooldown = 3;
  std::chrono::milliseconds cooldown{5000};
  std::chrono::milliseconds max_cooldown{60000};
};

// When a request in flight stops counting against its endpoint's AIMD limit: `latency_multiple`
// times the endpoint's latency estimate after it was sent, at least `floor`; `without_estimate`
// before any request to the endpoint has succeeded. At most the endpoint's AIMD maximum of its
// requests are overdue at once, so a server that hangs everything still sees a bounded load.
struct OverduePolicy {
  double latency_multiple = 4;
  std::chrono::milliseconds floor{2000};
  std::chrono::milliseconds without_estimate{60'000};
};

struct EndpointState {
  EndpointState(std::string url, int maximum) : base_url(std::move(url)), limit(maximum) {}

  std::string base_url;
  AimdLimit limit;
  std::multiset<SteadyClock::time_point> counted;  // send times of the requests the limit counts
  int overdue = 0;                                  // requests in flight the limit no longer counts
  std::optional<double> latency_s;                  // running average over successful requests
  int consecutive_failures = 0;
  std::chrono::milliseconds last_cooldown{0};  // 0 after a success
  SteadyClock::time_point cooled_until{};
  SteadyClock::time_point paused_until{};  // Retry-After
  int cooldowns = 0;                       // cooldowns begun, and their total length
  std::chrono::milliseconds cooldown_total{0};
  bool answered = false;       // some request got an HTTP answer (any status)
  int refused_in_a_row = 0;    // connections refused since the last answer
  bool down = false;           // never answered and refused every connection: no more requests

  int in_flight() const { return static_cast<int>(counted.size()) + overdue; }
  SteadyClock::time_point available_at() const { return std::max(cooled_until, paused_until); }
};

class EndpointPool {
 public:
  // One state per base URL (`max_in_flight[i]` is its AIMD maximum); throws
  // std::invalid_argument when there is no endpoint.
  EndpointPool(const std::vector<std::string>& base_urls, const std::vector<int>& max_in_flight,
               CooldownPolicy policy, OverduePolicy overdue = {});

  // The endpoint to send to now: available, below its limit, fewest in flight; `avoid` (the one
  // that just failed this sample) only when no other qualifies. nullopt when none has room.
  std::optional<std::size_t> pick(SteadyClock::time_point now,
                                  std::optional<std::size_t> avoid) const;
  // Earliest time a paused or cooled endpoint comes back (nullopt: none is unavailable).
  std::optional<SteadyClock::time_point> next_available(SteadyClock::time_point now) const;
  // Stops counting the requests that are overdue by `now` against their endpoint's limit.
  void release_overdue(SteadyClock::time_point now);
  // Earliest time a request of an endpoint that is at its limit becomes overdue (nullopt: none
  // will); after release_overdue(now) it lies after `now`.
  std::optional<SteadyClock::time_point> next_overdue() const;

  // Each request is known by its endpoint and the time it was sent (on_sent's `now`); every
  // request sent ends in exactly one of the on_success ... on_neutral calls.
  void on_sent(std::size_t endpoint, SteadyClock::time_point now);
  void on_success(std::size_t endpoint, SteadyClock::time_point request_sent,
                  SteadyClock::time_point now);
  // A connection failure, timeout or 5xx: counts toward a cooldown.
  void on_failure(std::size_t endpoint, SteadyClock::time_point request_sent,
                  SteadyClock::time_point now);
  void on_rate_limited(std::size_t endpoint, SteadyClock::time_point request_sent,
                       SteadyClock::time_point now,
                       std::optional<std::chrono::milliseconds> retry_after);
  // An answer that says nothing about the endpoint's health (4xx, invalid body), or a cancel.
  void on_neutral(std::size_t endpoint, SteadyClock::time_point request_sent);
  // A connection refused: a failure, and on an endpoint that never answered a step toward down.
  void on_refused(std::size_t endpoint, SteadyClock::time_point request_sent,
                  SteadyClock::time_point now);
  // Some HTTP answer came back from the endpoint, whatever its status.
  void on_answered(std::size_t endpoint);
  // True when every endpoint is down: no request can be sent any more.
  bool all_down() const;

  const std::vector<EndpointState>& endpoints() const { return endpoints_; }

 private:
  // Removes one request from the endpoint's requests in flight.
  static void finish(EndpointState& state, SteadyClock::time_point request_sent);
  SteadyClock::duration overdue_after(const EndpointState& state) const;
  void cool_down(EndpointState& state, SteadyClock::time_point now);

  std::vector<EndpointState> endpoints_;
  CooldownPolicy policy_;
  OverduePolicy overdue_;
};

// Full-jitter exponential backoff: uniform in [delay/2, delay], delay = base * 2^(attempt-1)
// capped at `cap`. `unit_random` is in [0, 1).
std::chrono::milliseconds backoff_delay(int attempt, std::chrono::milliseconds base,
                                        std::chrono::milliseconds cap, double unit_random);

}  // namespace codebias::generation
