#include "detectors/engine_calls.h"

#include <chrono>
#include <stdexcept>

#include "base/url.h"
#include "generation/generator.h"

namespace codebias::detectors {

std::vector<nlohmann::json> post_all(const EngineConfig& engine, const std::string& api_path,
                                     const std::vector<nlohmann::json>& bodies) {
  if (engine.endpoint.empty()) throw std::invalid_argument("this detector needs an endpoint (--endpoint URL)");
  if (engine.model.empty()) throw std::invalid_argument("this detector needs the endpoint's model name (--endpoint-model NAME)");
  if (auto problem = base::endpoint_url_problem(engine.endpoint); !problem.empty())
    throw std::invalid_argument("--endpoint: " + problem);
  std::vector<generation::PlannedSample> samples(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    samples[i].id = std::to_string(i);
    samples[i].prompt_id = samples[i].id;
    samples[i].api_path = api_path;
    samples[i].body = bodies[i];
  }
  generation::GenerationConfig config;
  config.endpoints = {{engine.endpoint, 0}};
  config.api_key_env = engine.api_key_env;
  config.concurrency = engine.concurrency;
  config.timeout = std::chrono::milliseconds(static_cast<long>(engine.timeout_s * 1000));
  config.max_attempts = engine.max_attempts;
  generation::Generator generator(config);
  std::vector<nlohmann::json> out(bodies.size());
  std::vector<bool> answered(bodies.size(), false);
  generator.run(samples, [&](const generation::SampleResult& result) {
    const std::size_t i = std::stoul(result.id);
    if (result.status != generation::SampleStatus::done)
      throw std::runtime_error("request " + result.id + " to " + engine.endpoint + api_path + " failed (" +
                               result.error_kind + "): " + result.error_message);
    out[i] = nlohmann::json::parse(result.raw_response, nullptr, false);
    if (out[i].is_discarded())
      throw std::runtime_error("request " + result.id + ": the engine's answer is not JSON");
    answered[i] = true;
  });
  for (std::size_t i = 0; i < answered.size(); ++i)
    if (!answered[i]) throw std::runtime_error("request " + std::to_string(i) + " got no answer (cancelled)");
  return out;
}

}  // namespace codebias::detectors
