// Scripted loopback servers, samples and a fast engine configuration for the generation engine
// tests (tests/unit/generation/generator_*_test.cpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generation/generator.h"
#include "generation/simulated/http_server.h"

namespace codebias::generation::testing_support {

using namespace std::chrono_literals;
using serve::HttpRequest;
using serve::HttpResponse;
using serve::HttpServer;

inline std::string chat_answer(const nlohmann::json& message, const char* finish_reason = "stop") {
  nlohmann::json full = message;
  full["role"] = "assistant";
  return nlohmann::json{{"choices", {{{"index", 0}, {"message", full}, {"finish_reason", finish_reason}}}},
                        {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 20}}}}
      .dump();
}

inline HttpResponse ok(const std::string& content) {
  HttpResponse response;
  response.body = chat_answer({{"content", content}});
  return response;
}

inline HttpResponse status(int code, std::string body = "{}") {
  HttpResponse response;
  response.status = code;
  response.body = std::move(body);
  return response;
}

inline PlannedSample sample(const std::string& id, std::optional<std::int64_t> seed = std::nullopt) {
  PlannedSample planned;
  planned.id = id;
  planned.prompt_id = "p";
  planned.seed = seed;
  planned.body = {{"model", "m"}, {"messages", {{{"role", "user"}, {"content", "write f"}}}}};
  if (seed) planned.body["seed"] = *seed;
  return planned;
}

inline GenerationConfig fast_config(std::vector<std::string> urls) {
  GenerationConfig config;
  for (auto& url : urls) config.endpoints.push_back({std::move(url), 0});
  config.concurrency = 4;
  config.backoff_base = 1ms;
  config.backoff_cap = 5ms;
  config.timeout = 5000ms;
  config.cooldown = CooldownPolicy{3, 20ms, 50ms};
  return config;
}

struct Outcome {
  std::vector<SampleResult> results;
  GenerationStats stats;
  const SampleResult& only() const { return results.at(0); }
};

inline Outcome run_samples(const GenerationConfig& config, const std::vector<PlannedSample>& samples) {
  Generator generator(config);
  Outcome outcome;
  outcome.stats = generator.run(samples, [&](const SampleResult& r) { outcome.results.push_back(r); });
  return outcome;
}

// A handler that answers the n-th request (counting from 0) with responses[min(n, last)].
struct Script {
  explicit Script(std::vector<HttpResponse> scripted) : responses(std::move(scripted)) {}
  std::vector<HttpResponse> responses;
  std::mutex mutex;
  int calls = 0;
  std::vector<HttpRequest> requests;
  serve::Handler handler() {
    return [this](const HttpRequest& request) {
      std::lock_guard lock(mutex);
      requests.push_back(request);
      const auto at = std::min<std::size_t>(static_cast<std::size_t>(calls++), responses.size() - 1);
      return responses[at];
    };
  }
};

}  // namespace codebias::generation::testing_support
