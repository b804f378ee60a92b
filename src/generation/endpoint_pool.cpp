#include "generation/endpoint_pool.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace codebias::generation {

AimdLimit::AimdLimit(int maximum) : maximum_(std::max(1, maximum)), limit_(maximum_) {}

void AimdLimit::on_success() {
  if (limit_ >= maximum_) return;
  credit_ += 1.0 / limit_;
  if (credit_ >= 1.0) {
    credit_ = 0;
    ++limit_;
  }
}

void AimdLimit::on_rate_limited(SteadyClock::time_point request_sent,
                                SteadyClock::time_point now) {
  if (request_sent < last_cut_) return;
  limit_ = std::max(1, limit_ / 2);
  credit_ = 0;
  last_cut_ = now;
}

EndpointPool::EndpointPool(const std::vector<std::string>& base_urls,
                           const std::vector<int>& max_in_flight, CooldownPolicy policy,
                           OverduePolicy overdue)
    : policy_(policy), overdue_(overdue) {
  if (base_urls.empty()) throw std::invalid_argument("no endpoint to send requests to");
  for (std::size_t i = 0; i < base_urls.size(); ++i) {
    const int maximum = i < max_in_flight.size() ? max_in_flight[i] : 1;
    endpoints_.emplace_back(base_urls[i], maximum);
  }
}

std::optional<std::size_t> EndpointPool::pick(SteadyClock::time_point now,
                                              std::optional<std::size_t> avoid) const {
  std::optional<std::size_t> best;
  std::optional<std::size_t> avoided;
  for (std::size_t i = 0; i < endpoints_.size(); ++i) {
    const auto& endpoint = endpoints_[i];
    if (endpoint.down || endpoint.available_at() > now ||
        static_cast<int>(endpoint.counted.size()) >= endpoint.limit.limit()) {
      continue;
    }
    if (avoid && *avoid == i && endpoints_.size() > 1) {
      avoided = i;
      continue;
    }
    if (!best || endpoint.in_flight() < endpoints_[*best].in_flight()) best = i;
  }
  return best ? best : avoided;
}

std::optional<SteadyClock::time_point> EndpointPool::next_available(
    SteadyClock::time_point now) const {
  std::optional<SteadyClock::time_point> earliest;
  for (const auto& endpoint : endpoints_) {
    const auto available_at = endpoint.available_at();
    if (available_at > now && (!earliest || available_at < *earliest)) earliest = available_at;
  }
  return earliest;
}

SteadyClock::duration EndpointPool::overdue_after(const EndpointState& state) const {
  if (!state.latency_s) return overdue_.without_estimate;
  const auto usual = std::chrono::duration<double>(*state.latency_s * overdue_.latency_multiple);
  return std::max<SteadyClock::duration>(overdue_.floor,
                                         std::chrono::duration_cast<SteadyClock::duration>(usual));
}

void EndpointPool::release_overdue(SteadyClock::time_point now) {
  for (auto& state : endpoints_) {
    const auto cutoff = now - overdue_after(state);
    while (!state.counted.empty() && state.overdue < state.limit.maximum() &&
           *state.counted.begin() <= cutoff) {
      state.counted.erase(state.counted.begin());
      ++state.overdue;
    }
  }
}

std::optional<SteadyClock::time_point> EndpointPool::next_overdue() const {
  std::optional<SteadyClock::time_point> earliest;
  for (const auto& state : endpoints_) {
    // Only a full endpoint gains from a release; at the overdue cap none comes.
    if (state.counted.empty() || static_cast<int>(state.counted.size()) < state.limit.limit() ||
        state.overdue >= state.limit.maximum()) {
      continue;
    }
    const auto at = *state.counted.begin() + overdue_after(state);
    if (!earliest || at < *earliest) earliest = at;
  }
  return earliest;
}

void EndpointPool::finish(EndpointState& state, SteadyClock::time_point request_sent) {
  // Requests sent at the same instant are interchangeable here: either one may be removed.
  if (const auto found = state.counted.find(request_sent); found != state.counted.end()) {
    state.counted.erase(found);
  } else if (state.overdue > 0) {
    --state.overdue;
  }
}

void EndpointPool::on_sent(std::size_t endpoint, SteadyClock::time_point now) {
  endpoints_[endpoint].counted.insert(now);
}

void EndpointPool::on_success(std::size_t endpoint, SteadyClock::time_point request_sent,
                              SteadyClock::time_point now) {
  constexpr double kLatencyWeight = 0.2;  // of the newest success in the running average
  auto& state = endpoints_[endpoint];
  finish(state, request_sent);
  const double latency = std::chrono::duration<double>(now - request_sent).count();
  state.latency_s = state.latency_s ? *state.latency_s + kLatencyWeight * (latency - *state.latency_s)
                                    : latency;
  state.consecutive_failures = 0;
  state.last_cooldown = std::chrono::milliseconds(0);
  state.cooled_until = std::min(state.cooled_until, now);  // it answers again
  state.limit.on_success();
}

void EndpointPool::on_failure(std::size_t endpoint, SteadyClock::time_point request_sent,
                              SteadyClock::time_point now) {
  auto& state = endpoints_[endpoint];
  finish(state, request_sent);
  // In flight when the last cooldown began: the failure that cooldown already answered.
  if (request_sent < state.cooled_until) return;
  if (++state.consecutive_failures < policy_.failures_before_cooldown) return;
  cool_down(state, now);
}

void EndpointPool::cool_down(EndpointState& state, SteadyClock::time_point now) {
  // Reaching the threshold cools for the base time; failing again after a cooldown, longer.
  state.last_cooldown = state.last_cooldown.count() == 0
                            ? policy_.cooldown
                            : std::min(policy_.max_cooldown, state.last_cooldown * 2);
  state.cooled_until = now + state.last_cooldown;
  state.cooldowns += 1;
  state.cooldown_total += state.last_cooldown;
}

void EndpointPool::on_rate_limited(std::size_t endpoint, SteadyClock::time_point request_sent,
                                   SteadyClock::time_point now,
                                   std::optional<std::chrono::milliseconds> retry_after) {
  auto& state = endpoints_[endpoint];
  finish(state, request_sent);
  state.limit.on_rate_limited(request_sent, now);
  if (retry_after) state.paused_until = std::max(state.paused_until, now + *retry_after);
}

void EndpointPool::on_neutral(std::size_t endpoint, SteadyClock::time_point request_sent) {
  finish(endpoints_[endpoint], request_sent);
}

void EndpointPool::on_refused(std::size_t endpoint, SteadyClock::time_point request_sent,
                              SteadyClock::time_point now) {
  auto& state = endpoints_[endpoint];
  on_failure(endpoint, request_sent, now);
  ++state.refused_in_a_row;
  if (!state.answered && state.refused_in_a_row >= policy_.failures_before_cooldown) {
    state.down = true;
  }
}

void EndpointPool::on_answered(std::size_t endpoint) {
  endpoints_[endpoint].answered = true;
  endpoints_[endpoint].refused_in_a_row = 0;
}

bool EndpointPool::all_down() const {
  return std::all_of(endpoints_.begin(), endpoints_.end(),
                     [](const EndpointState& state) { return state.down; });
}

std::chrono::milliseconds backoff_delay(int attempt, std::chrono::milliseconds base,
                                        std::chrono::milliseconds cap, double unit_random) {
  const double exponent = std::min(30, std::max(0, attempt - 1));
  const double full = std::min(static_cast<double>(cap.count()),
                               static_cast<double>(base.count()) * std::pow(2.0, exponent));
  return std::chrono::milliseconds(static_cast<std::int64_t>(full * (0.5 + 0.5 * unit_random)));
}

}  // namespace codebias::generation
