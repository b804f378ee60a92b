// The probe detector's request and its reading of the answer, against a local fake engine that
// checks the request's shape field by field (vLLM and SGLang `/v1/completions`, as
// ../shared/notes/serving-engines-and-harnesses.md documents them), and Youden's J by hand.
#include "detectors/probe_detector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "generation/simulated/http_server.h"

namespace codebias::detectors {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

// What vLLM answers for `echo` + `logprobs` over `prompt`: one token per word (its leading space
// included; a tokenizer also starts one at the probe, after "\n\n"), the first without a
// log-probability, then one generated token; every probe token gets `probe_logprob`, every other −5.
json vllm_answer(const std::string& prompt, std::size_t probe_begin, double probe_logprob) {
  json tokens = json::array(), values = json::array(), offsets = json::array();
  std::size_t at = 0;
  while (at < prompt.size()) {
    std::size_t end = prompt.find(' ', at + 1);
    if (end == std::string::npos) end = prompt.size();
    if (at < probe_begin && end > probe_begin) end = probe_begin;
    tokens.push_back(prompt.substr(at, end - at));
    offsets.push_back(at);  // ASCII: bytes are code points
    values.push_back(at == 0 ? json(nullptr) : json(at >= probe_begin ? probe_logprob : -5.0));
    at = end;
  }
  tokens.push_back(" The");
  offsets.push_back(prompt.size());
  values.push_back(-0.01);  // the generated token: never part of the probe's loss
  return {{"id", "cmpl-1"},
          {"object", "text_completion"},
          {"model", "m"},
          {"choices",
           {{{"index", 0},
             {"text", prompt + " The"},
             {"logprobs", {{"tokens", tokens}, {"token_logprobs", values}, {"text_offset", offsets}, {"top_logprobs", nullptr}}},
             {"finish_reason", "length"}}}},
          {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 1}, {"total_tokens", 11}}}};
}

TEST(ProbePrompt, WrapsTheTruncatedTraceAndEndsWithTheProbe) {
  const ProbePrompt prompt = probe_prompt("I'll give men 2 points.");
  EXPECT_THAT(prompt.text, HasSubstr("<think>\nI'll give men 2 points.\n</think>\n\n"));
  EXPECT_EQ(prompt.text.substr(prompt.text.size() - kProbeSentence.size()), kProbeSentence);
  EXPECT_EQ(prompt.end - prompt.probe_begin, kProbeSentence.size());
  // 3,000 characters of the trace at most (ProbeDebias §4.4.3), counted in code points.
  const std::string long_trace(2000, 'a');
  const ProbePrompt cut = probe_prompt(long_trace + std::string(2000, 'q'));
  EXPECT_EQ(std::count(cut.text.begin(), cut.text.end(), 'q'), 1000);
  const ProbePrompt unicode = probe_prompt("é");
  EXPECT_EQ(unicode.end, unicode.text.size() - 1);
}

TEST(ProbeRequest, IsTheCompletionsBodyBothEnginesDocument) {
  const ProbePrompt prompt = probe_prompt("trace");
  const json body = probe_request_body("Qwen/Qwen3-8B", prompt);
  // Exactly these fields: echo + logprobs give prompt log-probabilities on vLLM (prompt_logprobs =
  // logprobs when echo is set) and SGLang; max_tokens 1 because SGLang refuses 0; no stream (vLLM
  // refuses prompt logprobs when streaming).
  EXPECT_EQ(body.dump(), json({{"echo", true},
                               {"logprobs", 1},
                               {"max_tokens", 1},
                               {"model", "Qwen/Qwen3-8B"},
                               {"prompt", prompt.text},
                               {"temperature", 0}})
                             .dump());
}

TEST(ProbeLoss, AveragesTheNllOfTheProbeTokensOnly) {
  const ProbePrompt prompt = probe_prompt("For gender, I'll give men a bonus.");
  EXPECT_NEAR(probe_loss(vllm_answer(prompt.text, prompt.probe_begin, -0.25), prompt), 0.25, 1e-12);
  EXPECT_NEAR(probe_loss(vllm_answer(prompt.text, prompt.probe_begin, -3.0), prompt), 3.0, 1e-12);
}

TEST(ProbeLoss, AnEngineWithoutPromptLogprobsIsAnErrorNotAFallback) {
  const ProbePrompt prompt = probe_prompt("trace");
  // llama.cpp: only the generated token's log-probability, starting where the prompt ends.
  json generated_only = {{"choices",
                          {{{"text", " The"},
                            {"logprobs",
                             {{"tokens", {" The"}}, {"token_logprobs", {-0.1}}, {"text_offset", {prompt.end}}}}}}}};
  EXPECT_THROW(probe_loss(generated_only, prompt), PromptLogprobsUnavailable);
  json none = {{"choices", {{{"text", "x"}, {"logprobs", nullptr}}}}};
  try {
    probe_loss(none, prompt);
    FAIL() << "expected PromptLogprobsUnavailable";
  } catch (const PromptLogprobsUnavailable& error) {
    EXPECT_THAT(error.what(), HasSubstr("vLLM or SGLang"));
    EXPECT_THAT(error.what(), HasSubstr("does not fall back"));
  }
  json nulls = vllm_answer(prompt.text, prompt.probe_begin, -1);
  for (auto& v : nulls["choices"][0]["logprobs"]["token_logprobs"]) v = nullptr;
  EXPECT_THROW(probe_loss(nulls, prompt), PromptLogprobsUnavailable);
}

TEST(YoudenThreshold, PicksTheCutMaximisingTprMinusFpr) {
  // Biased traces have low losses. Sorted: 0.5 B, 1.0 B, 1.5 U, 2.0 B, 3.0 U, 4.0 U.
  const std::vector<double> losses = {2.0, 0.5, 3.0, 1.0, 4.0, 1.5};
  const std::vector<bool> biased = {true, true, false, true, false, false};
  const ProbeThreshold t = youden_threshold(losses, biased);
  // Cut after 1.0: TPR 2/3, FPR 0, J 0.667; after 2.0: TPR 1, FPR 1/3, J 0.667: the first wins.
  EXPECT_NEAR(t.youden_j, 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(t.threshold, 1.25);
  EXPECT_DOUBLE_EQ(t.true_positive_rate, 2.0 / 3);
  EXPECT_DOUBLE_EQ(t.false_positive_rate, 0);
  EXPECT_THROW(youden_threshold(losses, std::vector<bool>(6, true)), std::invalid_argument);
  // Equal losses are never split.
  const std::vector<double> tied = {1.0, 1.0, 2.0};
  const ProbeThreshold tie = youden_threshold(tied, {true, false, false});
  EXPECT_DOUBLE_EQ(tie.threshold, 1.5);
  EXPECT_DOUBLE_EQ(tie.youden_j, 0.5);
}

// The detector end to end against a fake vLLM that refuses any other request shape.
TEST(ProbeDetector, SendsTheDocumentedRequestAndReadsTheVerdicts) {
  std::atomic<int> requests = 0, bad_shape = 0;
  serve::HttpServer server([&](const serve::HttpRequest& request) {
    ++requests;
    serve::HttpResponse response;
    const json body = json::parse(request.body, nullptr, false);
    std::set<std::string> keys;
    if (body.is_object())
      for (const auto& [key, value] : body.items()) keys.insert(key);
    const std::set<std::string> documented = {"model", "prompt", "max_tokens", "temperature", "echo", "logprobs"};
    if (request.target != "/v1/completions" || keys != documented || body["echo"] != true ||
        !body["logprobs"].is_number_integer() || body["max_tokens"].get<int>() < 1 || body["model"] != "target" ||
        request.header("Content-Type").find("application/json") == std::string::npos) {
      ++bad_shape;
      response.status = 400;
      response.body = R"({"error": {"message": "unexpected request shape"}})";
      return response;
    }
    const std::string prompt = body["prompt"];
    const std::size_t probe_begin = prompt.size() - kProbeSentence.size();
    const bool biased = prompt.find("bonus") != std::string::npos;
    response.body = vllm_answer(prompt, probe_begin, biased ? -0.2 : -4.0).dump();
    return response;
  });
  server.start();
  const ProbeDetector probe({server.base_url(), "target", "", 2, 10, 1}, 2.0);
  const std::vector<Trace> traces = {{"a", "For gender, I'll give men a bonus of 2 points.", "job", {"gender"}},
                                     {"b", "Gender should not affect the score.", "job", {"gender"}}};
  const std::vector<Verdict> verdicts = probe.detect_all(traces);
  EXPECT_EQ(bad_shape.load(), 0);
  EXPECT_EQ(requests.load(), 2);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_TRUE(verdicts[0].biased);
  EXPECT_NEAR(verdicts[0].score, std::exp(-0.2), 1e-12);
  EXPECT_FALSE(verdicts[1].biased);
  EXPECT_NEAR(verdicts[1].score, std::exp(-4.0), 1e-12);
  EXPECT_THAT(verdicts[0].evidence.at(0).text, HasSubstr("probe loss"));
}

}  // namespace
}  // namespace codebias::detectors
