// The generation engine: sends every planned sample to one or more OpenAI-compatible endpoints
// and hands each result back as soon as it is final.
//
// Scheduling. At most `concurrency` requests are in flight in total; each endpoint also has an
// AIMD limit (starting at its max_in_flight) that halves on HTTP 429, once per episode, and grows
// back by one per limit's worth of successes. A request in flight `overdue.latency_multiple`
// times the endpoint's average latency (at least `overdue.floor`) stops counting against that
// limit, so a hung request cannot hold the last slot; it still runs to its answer or timeout and
// is never sent twice at once. Retry-After (seconds, HTTP date, retry-after-ms) pauses the
// endpoint and delays that sample's retry. 5xx, 408/409, timeouts, cut connections and invalid
// 200 bodies are retried with jittered exponential backoff, preferably on another endpoint; an
// endpoint failing `failures_before_cooldown` times in a row is cooled down, once per burst (see
// CooldownPolicy). Errors that cannot recover (401/403, context length, other 4xx, exhausted
// quota) are not retried. Requests go to the endpoint with the fewest outstanding requests.
//
// Batching with `n` (max_batch_n > 1): consecutive samples of one prompt whose bodies differ only
// in `seed`, with seeds base+k, base+k+1, ..., are sent as one request with `n` = their count and
// `seed` = the first one's. vLLM gives child i of an n-request the seed seed+i, so choice i is
// exactly what sample k+i alone would have produced; engines without that guarantee (SGLang,
// llama.cpp, Ollama, TGI, OpenAI) must keep max_batch_n = 1. A batch's usage is split evenly over
// its samples, and each sample's raw_response is the whole batch body.
//
// Secrets. The API key is read from the environment variable `api_key_env` once, held by the
// transport only, and scrubbed from every response body and message the engine records.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "generation/endpoint_pool.h"
#include "generation/request_builder.h"
#include "generation/sample.h"

namespace codebias::generation {

struct EndpointConfig {
  std::string base_url;   // "http://host:8000" or ".../v1" (the sample's api_path is appended)
  int max_in_flight = 0;  // this endpoint's AIMD ceiling; 0 = GenerationConfig::concurrency
};

struct GenerationConfig {
  std::vector<EndpointConfig> endpoints;  // the same URL may repeat (more capacity for it)
  std::string api_key_env;                // e.g. "OPENAI_API_KEY"; "" = no key
  std::chrono::milliseconds timeout{600'000};  // per attempt, whole request
  std::chrono::milliseconds connect_timeout{10'000};
  int max_attempts = 6;                   // per sample, all retryable errors together
  int max_invalid_response_attempts = 3;  // of those, answers with an unusable 200 body
  int concurrency = 16;                   // requests in flight across all endpoints
  int max_batch_n = 1;                    // see "Batching with n" above
  std::chrono::milliseconds backoff_base{1000};
  std::chrono::milliseconds backoff_cap{60'000};
  std::chrono::milliseconds max_retry_after{600'000};  // longer Retry-After values are capped
  CooldownPolicy cooldown;
  OverduePolicy overdue;
  std::optional<double> input_price_per_million;   // USD per million prompt tokens
  std::optional<double> output_price_per_million;  // USD per million completion tokens
  // How the planner shapes bodies (build_request_body); the engine sends PlannedSample::body.
  RequestConfig request;
};

struct TokenTotals {
  std::int64_t prompt = 0;
  std::int64_t completion = 0;
  std::int64_t reasoning = 0;
};

struct EndpointStats {
  std::string base_url;
  int in_flight = 0;
  int concurrency_limit = 0;  // current AIMD limit
  bool available = true;      // false while paused by Retry-After or cooled down
  int cooldowns = 0;          // cooldowns begun
  double cooldown_s = 0;      // their total length as set (a success ends one early)
  std::int64_t requests = 0;
  std::int64_t successes = 0;
  std::int64_t failures = 0;  // any attempt without a usable answer
  std::int64_t rate_limited = 0;
  TokenTotals tokens;
  double latency_total_s = 0;  // over successful requests
  std::optional<double> cost;  // USD, when prices are configured
};

struct GenerationStats {
  std::size_t total = 0;          // samples given to run()
  std::size_t done = 0;
  std::size_t errors = 0;
  std::size_t in_flight = 0;      // samples whose request is outstanding
  std::size_t waiting_retry = 0;  // samples waiting out a backoff
  std::int64_t requests = 0;      // HTTP attempts
  std::int64_t retries = 0;
  std::int64_t rate_limited = 0;
  std::map<std::string, std::size_t> errors_by_kind;  // final errors, e.g. {"auth": 12}
  TokenTotals tokens;
  std::optional<double> cost;     // USD, when prices are configured
  double elapsed_s = 0;
  double samples_per_s = 0;       // finished (done + errors) per second
  std::vector<EndpointStats> endpoints;
};

class CurlTransport;

// The API key held by the environment variable `variable` ("" for no variable). Throws
// std::invalid_argument naming `flag` and the variable when it is unset or empty, so that a run
// can check it before it creates anything.
std::string api_key_from_env(const std::string& variable, std::string_view flag = "--api-key-env");

class Generator {
 public:
  // Throws std::invalid_argument for a config that cannot run (no endpoint, api_key_env naming
  // an unset variable, concurrency < 1).
  explicit Generator(GenerationConfig config);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Sends every sample; calls on_result on this thread, in completion order, once per sample
  // whose outcome is final. Returns when all are final or cancel() was called: samples already
  // sent are then reported with error_kind "cancelled"; samples never sent are not reported.
  // An exception from on_result abandons the run and propagates.
  GenerationStats run(std::span<const PlannedSample> samples,
                      const std::function<void(const SampleResult&)>& on_result);
  // Thread-safe; a cancelled Generator stays cancelled.
  void cancel();
  // Thread-safe snapshot for progress display.
  GenerationStats stats() const;

 private:
  class Run;
  GenerationConfig config_;
  std::string api_key_;
  std::unique_ptr<CurlTransport> transport_;
  std::atomic<bool> cancelled_{false};
  mutable std::mutex stats_mutex_;
  GenerationStats stats_;
};

// base_url + api_path, without a doubled "/v1" when the base already ends with it.
std::string endpoint_url(std::string_view base_url, std::string_view api_path);

}  // namespace codebias::generation
