// The engine against HttpServer instances on 127.0.0.1 that misbehave on purpose.
#include "generation/generator.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "generator_test_support.h"

namespace codebias::generation {
namespace {

using namespace std::chrono_literals;
using namespace testing_support;
using serve::HttpRequest;
using serve::HttpResponse;
using serve::HttpServer;

TEST(Generator, RateLimitWithRetryAfterThenSuccess) {
  HttpResponse limited = status(429, R"({"error":{"code":"rate_limit_exceeded"}})");
  limited.headers = {{"Retry-After", "1"}};
  Script script({limited, ok("def f(): pass")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::done);
  EXPECT_EQ(outcome.only().answer, "def f(): pass");
  EXPECT_EQ(outcome.only().attempts, 2);
  EXPECT_EQ(outcome.stats.rate_limited, 1);
  EXPECT_EQ(outcome.stats.retries, 1);
  EXPECT_EQ(outcome.stats.done, 1u);
  // The 429 halved the endpoint's limit (4 -> 2); one success is not yet a window's worth.
  EXPECT_EQ(outcome.stats.endpoints[0].concurrency_limit, 2);
}

TEST(Generator, ServerErrorsThenSuccess) {
  Script script({status(500), status(503), ok("x = 1")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::done);
  EXPECT_EQ(outcome.only().attempts, 3);
  EXPECT_EQ(outcome.only().http_status, 200);
}

TEST(Generator, ServerErrorsUntilAttemptsRunOut) {
  Script script({status(502, R"({"error":{"message":"upstream down"}})")});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.max_attempts = 3;
  const auto outcome = run_samples(config, {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::error);
  EXPECT_EQ(outcome.only().error_kind, "server");
  EXPECT_EQ(outcome.only().error_message, "HTTP 502: upstream down");
  EXPECT_EQ(outcome.only().attempts, 3);
  EXPECT_EQ(script.calls, 3);
}

TEST(Generator, SlowResponsesBeyondTheTimeoutAreTimeouts) {
  HttpResponse slow = ok("late");
  slow.delay = 3s;
  Script script({slow});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.timeout = 100ms;
  config.max_attempts = 2;
  const auto outcome = run_samples(config, {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::error);
  EXPECT_EQ(outcome.only().error_kind, "timeout");
  EXPECT_EQ(outcome.only().attempts, 2);
}

TEST(Generator, ConnectionCutBeforeTheAnswerIsRetried) {
  HttpResponse cut;
  cut.fault = HttpResponse::Fault::close_before_answer;
  Script script({cut, ok("fine")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::done);
  EXPECT_EQ(outcome.only().answer, "fine");
  EXPECT_EQ(outcome.only().attempts, 2);
}

TEST(Generator, ConnectionCutMidBodyIsAConnectionError) {
  HttpResponse cut = ok("never whole");
  cut.fault = HttpResponse::Fault::close_mid_body;
  Script script({cut});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.max_attempts = 2;
  const auto outcome = run_samples(config, {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::error);
  EXPECT_EQ(outcome.only().error_kind, "connection");
  EXPECT_EQ(outcome.only().attempts, 2);
}

TEST(Generator, InvalidJsonIsRetriedThenRecorded) {
  Script script({status(200, R"({"choices":[{"message":{"content":"trunc)")});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.max_invalid_response_attempts = 2;
  const auto outcome = run_samples(config, {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::error);
  EXPECT_EQ(outcome.only().error_kind, "invalid_response");
  EXPECT_EQ(outcome.only().error_message, "response is not valid JSON");
  EXPECT_EQ(outcome.only().raw_response, R"({"choices":[{"message":{"content":"trunc)");
  EXPECT_EQ(outcome.only().attempts, 2);
}

TEST(Generator, ResponseWithoutChoicesRetriedOnceThenSucceeds) {
  Script script({status(200, R"({"object":"chat.completion"})"), ok("good")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::done);
  EXPECT_EQ(outcome.only().answer, "good");
}

TEST(Generator, ReasoningIsReadFromEachPlace) {
  Script script({status(200, chat_answer({{"content", "a1"}, {"reasoning", "r1"}})),
                 status(200, chat_answer({{"content", "a2"}, {"reasoning_content", "r2"}})),
                 status(200, chat_answer({{"content", "<think>r3</think>\n\na3"}})),
                 status(200, chat_answer({{"content", "<think>r4 never ends"}}, "length"))});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.concurrency = 1;  // answers in request order
  const auto outcome =
      run_samples(config, {sample("1"), sample("2"), sample("3"), sample("4")});
  ASSERT_EQ(outcome.results.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    const auto& result = outcome.results[static_cast<std::size_t>(i)];
    EXPECT_EQ(result.reasoning, "r" + std::to_string(i + 1));
    EXPECT_EQ(result.answer, "a" + std::to_string(i + 1));
    EXPECT_FALSE(result.reasoning_cut_off);
  }
  const auto& cut = outcome.results[3];
  EXPECT_EQ(cut.status, SampleStatus::done);  // truncation is the analysis's business
  EXPECT_EQ(cut.finish_reason, "length");
  EXPECT_EQ(cut.reasoning, "r4 never ends");
  EXPECT_EQ(cut.answer, "");
  EXPECT_TRUE(cut.reasoning_cut_off);
}

TEST(Generator, AuthErrorIsNotRetried) {
  Script script({status(401, R"({"error":{"message":"invalid key"}})")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().error_kind, "auth");
  EXPECT_EQ(outcome.only().attempts, 1);
  EXPECT_EQ(script.calls, 1);
  EXPECT_EQ(outcome.stats.errors_by_kind.at("auth"), 1u);
}

TEST(Generator, ContextLengthErrorIsNotRetried) {
  Script script({status(400, R"({"error":{"message":"This model's maximum context length is )"
                             R"(16384 tokens. However, you requested 20000 tokens.","code":400}})")});
  HttpServer server(script.handler());
  server.start();
  const auto outcome = run_samples(fast_config({server.base_url()}), {sample("a")});
  EXPECT_EQ(outcome.only().status, SampleStatus::error);
  EXPECT_EQ(outcome.only().error_kind, "context_length");
  EXPECT_EQ(outcome.only().http_status, 400);
  EXPECT_EQ(script.calls, 1);
}

TEST(Generator, FailsOverFromADeadEndpoint) {
  std::string dead_url;
  {
    HttpServer dead([](const HttpRequest&) { return HttpResponse{}; });
    dead.start();
    dead_url = dead.base_url();
  }  // stopped: its port now refuses connections
  Script script({ok("alive")});
  HttpServer live(script.handler());
  live.start();
  std::vector<PlannedSample> samples;
  for (int i = 0; i < 20; ++i) samples.push_back(sample("s" + std::to_string(i)));
  auto config = fast_config({dead_url, live.base_url()});
  config.max_attempts = 3;
  const auto outcome = run_samples(config, samples);
  ASSERT_EQ(outcome.results.size(), 20u);
  for (const auto& result : outcome.results) {
    EXPECT_EQ(result.status, SampleStatus::done) << result.error_message;
    EXPECT_EQ(result.endpoint, live.base_url());
  }
  EXPECT_EQ(script.calls, 20);
  ASSERT_EQ(outcome.stats.endpoints.size(), 2u);
  EXPECT_GT(outcome.stats.endpoints[0].failures, 0);
  EXPECT_EQ(outcome.stats.endpoints[1].successes, 20);
}

// A closed port is an endpoint that is down, not a transient failure: the run ends after one
// round of refused connections (no backoff, no cooldowns), and each sample says why.
TEST(Generator, AClosedPortFailsEverySampleWithCannotConnect) {
  std::string closed_url;
  {
    HttpServer closed([](const HttpRequest&) { return HttpResponse{}; });
    closed.start();
    closed_url = closed.base_url();
  }
  std::vector<PlannedSample> samples;
  for (int i = 0; i < 12; ++i) samples.push_back(sample("s" + std::to_string(i)));
  auto config = fast_config({closed_url});
  config.concurrency = 2;
  config.backoff_base = 60s;  // a retry would wait a minute: the test would time out
  config.backoff_cap = 60s;
  config.cooldown = CooldownPolicy{3, 60s, 60s};
  const auto outcome = run_samples(config, samples);
  ASSERT_EQ(outcome.results.size(), 12u);
  for (const auto& result : outcome.results) {
    EXPECT_EQ(result.status, SampleStatus::error);
    EXPECT_EQ(result.error_kind, "connection");
    EXPECT_EQ(result.error_message.rfind("cannot connect to " + closed_url + " (", 0), 0u)
        << result.error_message;
  }
  EXPECT_LE(outcome.stats.requests, 4);  // down after 3 refusals; at most one more was in flight
  EXPECT_EQ(outcome.stats.retries, 0);
  EXPECT_EQ(outcome.stats.errors_by_kind.at("connection"), 12u);
}

TEST(Generator, ApiKeyIsSentAsBearerButNeverRecorded) {
  const std::string key = "sk-test-7c1e55a0b9d24f6e";
  ::setenv("CODEBIAS_TEST_API_KEY", key.c_str(), 1);
  std::string authorization;
  HttpServer server([&](const HttpRequest& request) {
    authorization = request.header("Authorization");
    // Some servers quote the key they rejected; it must not reach the result.
    return status(401, nlohmann::json{{"error", {{"message", "Incorrect API key provided: " +
                                                                 authorization}}}}
                           .dump());
  });
  server.start();
  auto config = fast_config({server.base_url()});
  config.api_key_env = "CODEBIAS_TEST_API_KEY";
  const auto outcome = run_samples(config, {sample("a")});
  ::unsetenv("CODEBIAS_TEST_API_KEY");
  EXPECT_EQ(authorization, "Bearer " + key);
  const auto& result = outcome.only();
  EXPECT_EQ(result.error_kind, "auth");
  EXPECT_EQ(result.error_message.find(key), std::string::npos);
  EXPECT_EQ(result.raw_response.find(key), std::string::npos);
  EXPECT_NE(result.error_message.find("[redacted]"), std::string::npos);
}

TEST(Generator, MissingApiKeyVariableIsAConfigurationError) {
  ::unsetenv("CODEBIAS_TEST_UNSET_KEY");
  auto config = fast_config({"http://127.0.0.1:1"});
  config.api_key_env = "CODEBIAS_TEST_UNSET_KEY";
  EXPECT_THROW(Generator{config}, std::invalid_argument);
}

TEST(Generator, EachSampleSendsItsOwnSeedAndExtraFields) {
  std::mutex mutex;
  std::set<std::int64_t> seeds;
  std::vector<nlohmann::json> bodies;
  HttpServer server([&](const HttpRequest& request) {
    const auto body = nlohmann::json::parse(request.body);
    std::lock_guard lock(mutex);
    seeds.insert(body["seed"].get<std::int64_t>());
    bodies.push_back(body);
    return ok("x");
  });
  server.start();
  RequestConfig request;
  request.model = "m";
  request.mode = GenerationMode::vanilla;
  request.extra_body = {{"reasoning_effort", "low"}, {"chat_template_kwargs", {{"custom", true}}}};
  std::vector<PlannedSample> samples;
  for (int k = 0; k < 4; ++k) {
    PlannedSample planned = sample("p#" + std::to_string(k), 100 + k);
    planned.body = build_request_body({{"user", "write f"}}, request, 100 + k);
    samples.push_back(planned);
  }
  const auto outcome = run_samples(fast_config({server.base_url()}), samples);
  EXPECT_EQ(outcome.stats.done, 4u);
  EXPECT_EQ(seeds, (std::set<std::int64_t>{100, 101, 102, 103}));
  for (const auto& body : bodies) {
    EXPECT_EQ(body["reasoning_effort"], "low");
    EXPECT_EQ(body["chat_template_kwargs"]["custom"], true);
    EXPECT_EQ(body["chat_template_kwargs"]["enable_thinking"], false);
    EXPECT_FALSE(body.contains("n"));
  }
}

TEST(Generator, BatchingWithNKeepsSeedBasePlusKPerSample) {
  std::vector<nlohmann::json> bodies;
  HttpServer server([&](const HttpRequest& request) {
    const auto body = nlohmann::json::parse(request.body);
    bodies.push_back(body);
    // Like vLLM: child i of an n-request samples with seed + i.
    nlohmann::json choices = nlohmann::json::array();
    const int n = body.value("n", 1);
    for (int i = 0; i < n; ++i) {
      choices.push_back({{"index", i},
                         {"message", {{"role", "assistant"},
                                      {"content", "seed " + std::to_string(
                                                                body["seed"].get<int>() + i)}}},
                         {"finish_reason", "stop"}});
    }
    HttpResponse response;
    response.body = nlohmann::json{{"choices", choices},
                                   {"usage", {{"prompt_tokens", 9}, {"completion_tokens", 8}}}}
                        .dump();
    return response;
  });
  server.start();
  std::vector<PlannedSample> samples;
  for (int k = 0; k < 5; ++k) samples.push_back(sample("p#" + std::to_string(k), 500 + k));
  auto config = fast_config({server.base_url()});
  config.max_batch_n = 4;
  const auto outcome = run_samples(config, samples);
  ASSERT_EQ(bodies.size(), 2u);  // 4 + 1
  EXPECT_EQ(bodies[0]["n"], 4);
  EXPECT_EQ(bodies[0]["seed"], 500);
  std::map<std::string, std::string> answers;
  std::int64_t completion_tokens = 0;
  for (const auto& result : outcome.results) {
    answers[result.id] = result.answer;
    completion_tokens += result.usage.completion_tokens;
  }
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(answers["p#" + std::to_string(k)], "seed " + std::to_string(500 + k));
  }
  EXPECT_EQ(completion_tokens, 16);  // each request's usage is split over its samples
}

TEST(Generator, CountsTokensAndCost) {
  Script script({ok("x")});
  HttpServer server(script.handler());
  server.start();
  auto config = fast_config({server.base_url()});
  config.input_price_per_million = 1.0;
  config.output_price_per_million = 2.0;
  const auto outcome = run_samples(config, {sample("a"), sample("b")});
  EXPECT_EQ(outcome.stats.tokens.prompt, 20);
  EXPECT_EQ(outcome.stats.tokens.completion, 40);
  ASSERT_TRUE(outcome.stats.cost.has_value());
  EXPECT_DOUBLE_EQ(*outcome.stats.cost, (20 * 1.0 + 40 * 2.0) / 1e6);
  EXPECT_EQ(outcome.stats.endpoints[0].tokens.prompt, 20);
  EXPECT_EQ(outcome.stats.requests, 2);
}

TEST(Generator, CancelReportsWhatWasInFlight) {
  Generator* generator = nullptr;
  HttpServer server([&](const HttpRequest&) {
    generator->cancel();
    HttpResponse response = ok("too late");
    response.delay = 10s;
    return response;
  });
  server.start();
  auto config = fast_config({server.base_url()});
  config.concurrency = 1;
  Generator engine(config);
  generator = &engine;
  std::vector<SampleResult> results;
  engine.run(std::vector<PlannedSample>{sample("a"), sample("b")},
             [&](const SampleResult& r) { results.push_back(r); });
  ASSERT_EQ(results.size(), 1u);  // "b" was never sent
  EXPECT_EQ(results[0].id, "a");
  EXPECT_EQ(results[0].error_kind, "cancelled");
}

TEST(EndpointUrl, JoinsWithoutDoublingV1) {
  EXPECT_EQ(endpoint_url("http://h:8000", "/v1/chat/completions"),
            "http://h:8000/v1/chat/completions");
  EXPECT_EQ(endpoint_url("http://h:8000/v1/", "/v1/completions"), "http://h:8000/v1/completions");
  EXPECT_EQ(endpoint_url("https://api.x.com/api/v1", "/v1/chat/completions"),
            "https://api.x.com/api/v1/chat/completions");
}

}  // namespace
}  // namespace codebias::generation
