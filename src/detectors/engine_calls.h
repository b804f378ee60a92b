// The requests the engine-backed detectors (probe, judge) send: one batch of bodies to one
// OpenAI-compatible endpoint through the generation engine (retries, rate limits, concurrency;
// generation/generator.h), each answer's raw body handed back in order.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::detectors {

// Where an engine-backed detector sends its requests.
struct EngineConfig {
  std::string endpoint;     // base URL ("http://127.0.0.1:8000" or ".../v1")
  std::string model;        // the model name the endpoint serves
  std::string api_key_env;  // the variable holding the key ("" = none); the key never leaves the transport
  int concurrency = 8;
  double timeout_s = 300;
  int max_attempts = 4;
};

// POSTs every body to `api_path` and returns the response bodies in order. Throws
// std::runtime_error naming the request and the engine's error for a request that failed for
// good (after the engine's retries).
std::vector<nlohmann::json> post_all(const EngineConfig& engine, const std::string& api_path,
                                     const std::vector<nlohmann::json>& bodies);

}  // namespace codebias::detectors
