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
                           const std::vector<int>& max_in_flight, CooldownPolicy policy)
    : policy_(policy) {
  if (base_urls.empty()) throw std::invalid_argument("no endpoint to send requests to");
  for (std::size_t i = 0; i < base_urls.size(); ++i) {
    const int maximum = i < max_in_flight.size() ? max_in_flight[i] : 1;
    EndpointState state{base_urls[i], AimdLimit(maximum), 0, 0, std::chrono::milliseconds(0), {}};
    endpoints_.push_back(std::move(state));
  }
}

std::optional<std::size_t> EndpointPool::pick(SteadyClock::time_point now,
                                              std::optional<std::size_t> avoid) const {
  std::optional<std::size_t> best;
  std::optional<std::size_t> avoided;
  for (std::size_t i = 0; i < endpoints_.size(); ++i) {
    const auto& endpoint = endpoints_[i];
    if (endpoint.available_at > now || endpoint.in_flight >= endpoint.limit.limit()) continue;
    if (avoid && *avoid == i && endpoints_.size() > 1) {
      avoided = i;
      continue;
    }
    if (!best || endpoint.in_flight < endpoints_[*best].in_flight) best = i;
  }
  return best ? best : avoided;
}

std::optional<SteadyClock::time_point> EndpointPool::next_available(
    SteadyClock::time_point now) const {
  std::optional<SteadyClock::time_point> earliest;
  for (const auto& endpoint : endpoints_) {
    if (endpoint.available_at > now && (!earliest || endpoint.available_at < *earliest)) {
      earliest = endpoint.available_at;
    }
  }
  return earliest;
}

void EndpointPool::on_sent(std::size_t endpoint) { ++endpoints_[endpoint].in_flight; }

void EndpointPool::on_success(std::size_t endpoint) {
  auto& state = endpoints_[endpoint];
  --state.in_flight;
  state.consecutive_failures = 0;
  state.last_cooldown = std::chrono::milliseconds(0);
  state.limit.on_success();
}

void EndpointPool::on_failure(std::size_t endpoint, SteadyClock::time_point now) {
  auto& state = endpoints_[endpoint];
  --state.in_flight;
  if (++state.consecutive_failures < policy_.failures_before_cooldown) return;
  // Still failing after a cooldown (or just reached the threshold): cool down again, longer.
  state.last_cooldown = state.last_cooldown.count() == 0
                            ? policy_.cooldown
                            : std::min(policy_.max_cooldown, state.last_cooldown * 2);
  state.available_at = std::max(state.available_at, now + state.last_cooldown);
}

void EndpointPool::on_rate_limited(std::size_t endpoint, SteadyClock::time_point request_sent,
                                   SteadyClock::time_point now,
                                   std::optional<std::chrono::milliseconds> retry_after) {
  auto& state = endpoints_[endpoint];
  --state.in_flight;
  state.limit.on_rate_limited(request_sent, now);
  if (retry_after) state.available_at = std::max(state.available_at, now + *retry_after);
}

void EndpointPool::on_neutral(std::size_t endpoint) { --endpoints_[endpoint].in_flight; }

std::chrono::milliseconds backoff_delay(int attempt, std::chrono::milliseconds base,
                                        std::chrono::milliseconds cap, double unit_random) {
  const double exponent = std::min(30, std::max(0, attempt - 1));
  const double full = std::min(static_cast<double>(cap.count()),
                               static_cast<double>(base.count()) * std::pow(2.0, exponent));
  return std::chrono::milliseconds(static_cast<std::int64_t>(full * (0.5 + 0.5 * unit_random)));
}

}  // namespace codebias::generation
