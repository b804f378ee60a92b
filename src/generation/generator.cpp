#include "generation/generator.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <unordered_map>

#include "generation/curl_transport.h"
#include "generation/reasoning.h"
#include "generation/response.h"

namespace codebias::generation {
namespace {

constexpr std::size_t kMinimumKeyLengthToScrub = 4;  // shorter "keys" would mangle every text

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void scrub(std::string& text, const std::string& secret) {
  if (secret.size() < kMinimumKeyLengthToScrub) return;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
    text.replace(at, secret.size(), "[redacted]");
  }
}

std::optional<double> cost_of(const Usage& usage, const GenerationConfig& config) {
  if (!config.input_price_per_million && !config.output_price_per_million) return std::nullopt;
  return (static_cast<double>(usage.prompt_tokens) * config.input_price_per_million.value_or(0) +
          static_cast<double>(usage.completion_tokens) *
              config.output_price_per_million.value_or(0)) /
         1e6;
}

void add_tokens(TokenTotals& totals, const Usage& usage) {
  totals.prompt += usage.prompt_tokens;
  totals.completion += usage.completion_tokens;
  totals.reasoning += usage.reasoning_tokens;
}

void add_cost(std::optional<double>& total, std::optional<double> cost) {
  if (cost) total = total.value_or(0) + *cost;
}

// Share i of n of a request's usage (the remainder goes to the first share).
Usage share_of(const Usage& usage, std::size_t i, std::size_t n) {
  auto part = [&](std::int64_t value) {
    const auto count = static_cast<std::int64_t>(n);
    return value / count + (i == 0 ? value % count : 0);
  };
  return Usage{part(usage.prompt_tokens), part(usage.completion_tokens),
               part(usage.reasoning_tokens)};
}

bool batchable(const PlannedSample& first, const PlannedSample& candidate, std::size_t offset) {
  if (candidate.prompt_id != first.prompt_id || candidate.config != first.config ||
      candidate.api_path != first.api_path || candidate.seed.has_value() != first.seed.has_value()) {
    return false;
  }
  if (first.seed && *candidate.seed != *first.seed + static_cast<std::int64_t>(offset)) return false;
  auto without_seed = [](nlohmann::json body) {
    if (body.is_object()) body.erase("seed");
    return body;
  };
  return without_seed(candidate.body) == without_seed(first.body);
}

}  // namespace

std::string endpoint_url(std::string_view base_url, std::string_view api_path) {
  while (!base_url.empty() && base_url.back() == '/') base_url.remove_suffix(1);
  if (base_url.size() >= 3 && base_url.substr(base_url.size() - 3) == "/v1" &&
      api_path.rfind("/v1/", 0) == 0) {
    api_path.remove_prefix(3);
  }
  std::string url(base_url);
  if (!api_path.empty() && api_path.front() != '/') url += '/';
  url += api_path;
  return url;
}

// One run() call: the engine loop and its bookkeeping.
class Generator::Run {
 public:
  Run(Generator& owner, std::span<const PlannedSample> samples,
      const std::function<void(const SampleResult&)>& on_result)
      : owner_(owner),
        config_(owner.config_),
        samples_(samples),
        on_result_(on_result),
        pool_(base_urls(config_), max_in_flight(config_), config_.cooldown, config_.overdue),
        random_(std::random_device{}()) {
    std::lock_guard lock(owner_.stats_mutex_);
    owner_.stats_ = GenerationStats{};
    owner_.stats_.total = samples.size();
    for (const auto& endpoint : config_.endpoints) {
      EndpointStats endpoint_stats;
      endpoint_stats.base_url = endpoint.base_url;
      owner_.stats_.endpoints.push_back(std::move(endpoint_stats));
    }
  }

  void execute() {
    try {
      loop();
    } catch (...) {
      owner_.transport_->abort_all();
      throw;
    }
    if (owner_.cancelled_.load()) report_cancelled();
    publish_progress();
  }

 private:
  struct Job {
    std::vector<std::size_t> samples;  // indices into samples_
    int attempts = 0;
    int invalid_responses = 0;
    double started_at = 0;
    std::optional<std::size_t> last_endpoint;
    std::size_t endpoint = 0;
    SteadyClock::time_point ready_at{};
    SteadyClock::time_point sent_at{};
    PromptThink prompt_think = PromptThink::unknown;
  };
  static bool later(const Job& a, const Job& b) { return a.ready_at > b.ready_at; }

  static std::vector<std::string> base_urls(const GenerationConfig& config) {
    std::vector<std::string> urls;
    for (const auto& endpoint : config.endpoints) urls.push_back(endpoint.base_url);
    return urls;
  }
  static std::vector<int> max_in_flight(const GenerationConfig& config) {
    std::vector<int> limits;
    for (const auto& endpoint : config.endpoints) {
      limits.push_back(endpoint.max_in_flight > 0 ? endpoint.max_in_flight : config.concurrency);
    }
    return limits;
  }

  void loop() {
    while (!owner_.cancelled_.load()) {
      auto now = SteadyClock::now();
      pool_.release_overdue(now);
      dispatch(now);
      const bool work_waiting = !retries_.empty() || next_fresh_ < samples_.size();
      if (in_flight_.empty() && !work_waiting) return;

      auto wait = std::chrono::milliseconds(1000);
      auto wait_until = [&](SteadyClock::time_point when) {
        wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(when - now));
      };
      // A retry that is due but finds no endpoint waits for one, not for its own (past) time.
      if (!retries_.empty() && retries_.front().ready_at > now) wait_until(retries_.front().ready_at);
      if (const auto available = pool_.next_available(now)) wait_until(*available);
      if (const auto overdue = pool_.next_overdue(); overdue && work_waiting) wait_until(*overdue);
      wait = std::max(wait, std::chrono::milliseconds(0));

      for (auto& outcome : owner_.transport_->poll(wait)) handle(std::move(outcome));
      if (pool_.all_down()) fail_unsendable();
      publish_progress();
    }
  }

  void dispatch(SteadyClock::time_point now) {
    while (static_cast<int>(in_flight_.size()) < config_.concurrency) {
      const bool retry_ready = !retries_.empty() && retries_.front().ready_at <= now;
      if (!retry_ready && next_fresh_ >= samples_.size()) return;
      const std::optional<std::size_t> avoid =
          retry_ready ? retries_.front().last_endpoint : std::nullopt;
      const auto endpoint = pool_.pick(now, avoid);
      if (!endpoint) return;
      Job job;
      if (retry_ready) {
        std::pop_heap(retries_.begin(), retries_.end(), later);
        job = std::move(retries_.back());
        retries_.pop_back();
        std::lock_guard lock(owner_.stats_mutex_);
        owner_.stats_.retries += 1;
        owner_.stats_.waiting_retry -= job.samples.size();
      } else {
        job = next_fresh_job();
      }
      send(std::move(job), *endpoint, now);
    }
  }

  Job next_fresh_job() {
    Job job;
    const PlannedSample& first = samples_[next_fresh_];
    job.samples.push_back(next_fresh_++);
    while (static_cast<int>(job.samples.size()) < config_.max_batch_n &&
           next_fresh_ < samples_.size() &&
           batchable(first, samples_[next_fresh_], job.samples.size())) {
      job.samples.push_back(next_fresh_++);
    }
    job.prompt_think = prompt_think_state(first.body);
    return job;
  }

  void send(Job job, std::size_t endpoint, SteadyClock::time_point now) {
    const PlannedSample& first = samples_[job.samples.front()];
    std::string payload;
    constexpr auto kReplaceInvalidUtf8 = nlohmann::json::error_handler_t::replace;
    if (job.samples.size() == 1) {
      payload = first.body.dump(-1, ' ', false, kReplaceInvalidUtf8);
    } else {
      nlohmann::json body = first.body;
      body["n"] = job.samples.size();
      payload = body.dump(-1, ' ', false, kReplaceInvalidUtf8);
    }
    if (job.attempts == 0) job.started_at = unix_now();
    ++job.attempts;
    job.endpoint = endpoint;
    job.sent_at = now;
    pool_.on_sent(endpoint, now);
    const std::uint64_t tag = next_tag_++;
    owner_.transport_->start(tag, endpoint_url(pool_.endpoints()[endpoint].base_url, first.api_path),
                             std::move(payload));
    {
      std::lock_guard lock(owner_.stats_mutex_);
      owner_.stats_.requests += 1;
      owner_.stats_.in_flight += job.samples.size();
      owner_.stats_.endpoints[endpoint].requests += 1;
    }
    in_flight_.emplace(tag, std::move(job));
  }

  void handle(HttpOutcome outcome) {
    const auto found = in_flight_.find(outcome.tag);
    if (found == in_flight_.end()) return;
    Job job = std::move(found->second);
    in_flight_.erase(found);
    const auto now = SteadyClock::now();
    {
      std::lock_guard lock(owner_.stats_mutex_);
      owner_.stats_.in_flight -= job.samples.size();
    }
    scrub(outcome.body, owner_.api_key_);
    scrub(outcome.transport_error, owner_.api_key_);

    Failure failure;
    std::optional<std::chrono::milliseconds> retry_after;
    if (!outcome.transport_failed) pool_.on_answered(job.endpoint);
    if (outcome.refused) {
      failure = {"connection", true,
                 "cannot connect to " + pool_.endpoints()[job.endpoint].base_url + " (" +
                     outcome.transport_error + "): is the server running, and is this its URL?"};
      pool_.on_refused(job.endpoint, job.sent_at, now);
      last_refusal_ = failure;
    } else if (outcome.transport_failed) {
      failure.kind = outcome.timed_out ? "timeout" : "connection";
      failure.retryable = true;
      failure.message = outcome.transport_error;
      pool_.on_failure(job.endpoint, job.sent_at, now);
    } else if (outcome.status >= 200 && outcome.status < 300) {
      ParsedCompletion parsed = parse_completion(outcome.body, job.prompt_think);
      if (parsed.error.empty() && parsed.choices.size() != job.samples.size()) {
        parsed.error = "expected " + std::to_string(job.samples.size()) + " choices, got " +
                       std::to_string(parsed.choices.size());
      }
      if (parsed.error.empty()) {
        pool_.on_success(job.endpoint, job.sent_at, now);
        succeed(job, outcome, parsed);
        return;
      }
      ++job.invalid_responses;
      failure.kind = "invalid_response";
      failure.retryable = job.invalid_responses < config_.max_invalid_response_attempts;
      failure.message = parsed.error;
      pool_.on_neutral(job.endpoint, job.sent_at);
    } else {
      failure = classify_http_failure(outcome.status, outcome.body);
      if (outcome.status == 429) {
        retry_after =
            parse_retry_after(outcome.retry_after, outcome.retry_after_ms,
                              std::chrono::system_clock::now());
        if (retry_after) retry_after = std::min(*retry_after, config_.max_retry_after);
        pool_.on_rate_limited(job.endpoint, job.sent_at, now, retry_after);
        std::lock_guard lock(owner_.stats_mutex_);
        owner_.stats_.rate_limited += 1;
        owner_.stats_.endpoints[job.endpoint].rate_limited += 1;
      } else if (failure.retryable) {
        pool_.on_failure(job.endpoint, job.sent_at, now);
      } else {
        pool_.on_neutral(job.endpoint, job.sent_at);
      }
    }
    {
      std::lock_guard lock(owner_.stats_mutex_);
      owner_.stats_.endpoints[job.endpoint].failures += 1;
    }
    if (failure.retryable && job.attempts < config_.max_attempts) {
      const auto delay =
          retry_after ? *retry_after
                      : backoff_delay(job.attempts, config_.backoff_base, config_.backoff_cap,
                                      std::uniform_real_distribution<double>(0, 1)(random_));
      job.ready_at = now + delay;
      job.last_endpoint = job.endpoint;
      {
        std::lock_guard lock(owner_.stats_mutex_);
        owner_.stats_.waiting_retry += job.samples.size();
      }
      retries_.push_back(std::move(job));
      std::push_heap(retries_.begin(), retries_.end(), later);
      return;
    }
    scrub(failure.message, owner_.api_key_);
    fail(job, outcome, failure);
  }

  SampleResult result_for(const Job& job, std::size_t sample, const HttpOutcome& outcome) const {
    SampleResult result;
    result.id = samples_[sample].id;
    result.endpoint = pool_.endpoints()[job.endpoint].base_url;
    result.http_status = outcome.status;
    result.attempts = job.attempts;
    result.raw_response = outcome.body;
    result.latency_s = outcome.latency_s;
    result.started_at = job.started_at;
    result.finished_at = unix_now();
    return result;
  }

  void succeed(const Job& job, const HttpOutcome& outcome, ParsedCompletion& parsed) {
    const auto cost = cost_of(parsed.usage, config_);
    {
      std::lock_guard lock(owner_.stats_mutex_);
      auto& stats = owner_.stats_;
      stats.done += job.samples.size();
      add_tokens(stats.tokens, parsed.usage);
      add_cost(stats.cost, cost);
      auto& endpoint = stats.endpoints[job.endpoint];
      endpoint.successes += 1;
      endpoint.latency_total_s += outcome.latency_s;
      add_tokens(endpoint.tokens, parsed.usage);
      add_cost(endpoint.cost, cost);
    }
    for (std::size_t i = 0; i < job.samples.size(); ++i) {
      SampleResult result = result_for(job, job.samples[i], outcome);
      ParsedChoice& choice = parsed.choices[i];
      result.status = SampleStatus::done;
      result.reasoning = std::move(choice.text.reasoning);
      result.reasoning_cut_off = choice.text.cut_off;
      result.answer = std::move(choice.text.answer);
      result.finish_reason = std::move(choice.finish_reason);
      result.usage = share_of(parsed.usage, i, job.samples.size());
      on_result_(result);
    }
  }

  void fail(const Job& job, const HttpOutcome& outcome, const Failure& failure) {
    {
      std::lock_guard lock(owner_.stats_mutex_);
      owner_.stats_.errors += job.samples.size();
      owner_.stats_.errors_by_kind[failure.kind] += job.samples.size();
    }
    for (const std::size_t sample : job.samples) {
      SampleResult result = result_for(job, sample, outcome);
      result.status = SampleStatus::error;
      result.error_kind = failure.kind;
      result.error_message = failure.message;
      on_result_(result);
    }
  }

  // Every endpoint is down: the samples waiting to be retried and those never sent fail with
  // the last refusal, so the run ends now rather than after every backoff.
  void fail_unsendable() {
    HttpOutcome nothing;
    for (const auto& job : retries_) fail(job, nothing, last_refusal_);
    {
      std::lock_guard lock(owner_.stats_mutex_);
      owner_.stats_.waiting_retry = 0;
    }
    retries_.clear();
    while (next_fresh_ < samples_.size()) fail(next_fresh_job(), nothing, last_refusal_);
  }

  void report_cancelled() {
    owner_.transport_->abort_all();
    Failure cancelled{"cancelled", false, "the run was cancelled"};
    HttpOutcome nothing;
    for (auto& [tag, job] : in_flight_) {
      pool_.on_neutral(job.endpoint, job.sent_at);
      fail(job, nothing, cancelled);
    }
    for (const auto& job : retries_) fail(job, nothing, cancelled);
    std::lock_guard lock(owner_.stats_mutex_);
    owner_.stats_.in_flight = 0;
    owner_.stats_.waiting_retry = 0;
    in_flight_.clear();
    retries_.clear();
  }

  void publish_progress() {
    const auto now = SteadyClock::now();
    std::lock_guard lock(owner_.stats_mutex_);
    auto& stats = owner_.stats_;
    stats.elapsed_s = std::chrono::duration<double>(now - started_).count();
    if (stats.elapsed_s > 0) {
      stats.samples_per_s = static_cast<double>(stats.done + stats.errors) / stats.elapsed_s;
    }
    const auto& endpoints = pool_.endpoints();
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      auto& endpoint = stats.endpoints[i];
      endpoint.in_flight = endpoints[i].in_flight();
      endpoint.concurrency_limit = endpoints[i].limit.limit();
      endpoint.available = endpoints[i].available_at() <= now;
      endpoint.cooldowns = endpoints[i].cooldowns;
      endpoint.cooldown_s = std::chrono::duration<double>(endpoints[i].cooldown_total).count();
    }
  }

  Generator& owner_;
  const GenerationConfig& config_;
  std::span<const PlannedSample> samples_;
  const std::function<void(const SampleResult&)>& on_result_;
  EndpointPool pool_;
  std::mt19937_64 random_;
  const SteadyClock::time_point started_ = SteadyClock::now();
  std::size_t next_fresh_ = 0;
  std::uint64_t next_tag_ = 1;
  std::unordered_map<std::uint64_t, Job> in_flight_;
  std::vector<Job> retries_;  // min-heap on ready_at
  Failure last_refusal_;      // the message of samples failed because every endpoint is down
};

std::string api_key_from_env(const std::string& variable, std::string_view flag) {
  if (variable.empty()) return "";
  const char* key = std::getenv(variable.c_str());
  if (key == nullptr || *key == '\0') {
    throw std::invalid_argument(std::string(flag) + ": environment variable " + variable + " (the API key) is not set");
  }
  return key;
}

Generator::Generator(GenerationConfig config) : config_(std::move(config)) {
  if (config_.endpoints.empty()) throw std::invalid_argument("no endpoint configured");
  if (config_.concurrency < 1) throw std::invalid_argument("concurrency must be at least 1");
  if (config_.max_attempts < 1) throw std::invalid_argument("max_attempts must be at least 1");
  api_key_ = api_key_from_env(config_.api_key_env);
  TransportSettings settings;
  settings.api_key = api_key_;
  settings.timeout = config_.timeout;
  settings.connect_timeout = config_.connect_timeout;
  settings.max_connections = config_.concurrency + 8;
  transport_ = std::make_unique<CurlTransport>(std::move(settings));
}

Generator::~Generator() = default;

GenerationStats Generator::run(std::span<const PlannedSample> samples,
                               const std::function<void(const SampleResult&)>& on_result) {
  Run run(*this, samples, on_result);
  run.execute();
  return stats();
}

void Generator::cancel() {
  cancelled_.store(true);
  transport_->wakeup();
}

GenerationStats Generator::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

}  // namespace codebias::generation
