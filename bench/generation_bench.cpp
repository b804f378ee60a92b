// Throughput of the generation engine against a local HttpServer in the same process.
//
//   build/generation_bench [--requests N] [--delay-ms D] [--concurrency C]
//
// The server answers every request with a fixed chat completion after D ms (a timer, not a
// sleeping thread). Prints one JSON line: requests/s, the ideal rate for a delayed server
// (C * 1000 / D), and memory: RSS once the planned samples are built, and peak RSS after the
// run (run two sizes to see whether the engine's memory stays flat).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "generation/generator.h"
#include "generation/simulated/http_server.h"

namespace {

using namespace codebias;

// A field of /proc/self/status in kB ("VmRSS", "VmHWM").
long status_kb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  }
  return -1;
}

long int_option(int argc, char** argv, const std::string& name, long fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::atol(argv[i + 1]);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const long requests = int_option(argc, argv, "--requests", 20000);
  const long delay_ms = int_option(argc, argv, "--delay-ms", 0);
  const long concurrency = int_option(argc, argv, "--concurrency", 64);

  const std::string answer =
      nlohmann::json{
          {"id", "chatcmpl-bench"},
          {"object", "chat.completion"},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", "def rank(applicants):\n    "
                                                             "return sorted(applicants)\n"}}},
             {"finish_reason", "stop"}}}},
          {"usage", {{"prompt_tokens", 42}, {"completion_tokens", 17}}}}
          .dump();
  serve::HttpServer server([&](const serve::HttpRequest&) {
    serve::HttpResponse response;
    response.body = answer;
    response.delay = std::chrono::milliseconds(delay_ms);
    return response;
  });
  server.start();

  std::vector<generation::PlannedSample> samples(static_cast<std::size_t>(requests));
  for (long k = 0; k < requests; ++k) {
    auto& sample = samples[static_cast<std::size_t>(k)];
    sample.id = "p" + std::to_string(k / 10) + "#" + std::to_string(k % 10);
    sample.prompt_id = "p" + std::to_string(k / 10);
    sample.sample_index = static_cast<int>(k % 10);
    sample.seed = 1000 + k % 10;
    sample.body = {{"model", "bench"},
                   {"messages", {{{"role", "user"}, {"content", "Write a function that ranks "
                                                                "job applicants."}}}},
                   {"temperature", 0.7},
                   {"seed", *sample.seed}};
  }
  const long rss_before_kb = status_kb("VmRSS");

  generation::GenerationConfig config;
  config.endpoints.push_back({server.base_url(), 0});
  config.concurrency = static_cast<int>(concurrency);
  generation::Generator generator(config);
  std::size_t done = 0;
  std::size_t errors = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto stats = generator.run(samples, [&](const generation::SampleResult& result) {
    (result.status == generation::SampleStatus::done ? done : errors) += 1;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server.stop();

  nlohmann::json report = {
      {"requests", requests},
      {"delay_ms", delay_ms},
      {"concurrency", concurrency},
      {"done", done},
      {"errors", errors},
      {"seconds", seconds},
      {"requests_per_s", static_cast<double>(done + errors) / seconds},
      {"rss_after_planning_kb", rss_before_kb},
      {"peak_rss_kb", status_kb("VmHWM")},
      {"mean_latency_ms", 1000.0 * stats.endpoints[0].latency_total_s /
                              static_cast<double>(std::max<std::int64_t>(1, stats.endpoints[0].successes))},
  };
  if (delay_ms > 0) {
    const double ideal = static_cast<double>(concurrency) * 1000.0 / static_cast<double>(delay_ms);
    report["ideal_requests_per_s"] = ideal;
    report["fraction_of_ideal"] = report["requests_per_s"].get<double>() / ideal;
  }
  std::cout << report.dump() << "\n";
  return errors == 0 ? 0 : 1;
}
