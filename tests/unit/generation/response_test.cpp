#include "generation/response.h"

#include <gtest/gtest.h>

namespace codebias::generation {
namespace {

using namespace std::chrono_literals;

TEST(ParseCompletion, ReadsChoicesInIndexOrderAndUsage) {
  const auto parsed = parse_completion(
      R"({"choices":[{"index":1,"message":{"content":"b"},"finish_reason":"length"},
                     {"index":0,"message":{"content":"a"},"finish_reason":"stop"}],
          "usage":{"prompt_tokens":10,"completion_tokens":20,
                   "completion_tokens_details":{"reasoning_tokens":5}}})",
      PromptThink::unknown);
  ASSERT_EQ(parsed.error, "");
  ASSERT_EQ(parsed.choices.size(), 2u);
  EXPECT_EQ(parsed.choices[0].text.answer, "a");
  EXPECT_EQ(parsed.choices[1].text.answer, "b");
  EXPECT_EQ(parsed.choices[1].finish_reason, "length");
  EXPECT_EQ(parsed.usage.prompt_tokens, 10);
  EXPECT_EQ(parsed.usage.completion_tokens, 20);
  EXPECT_EQ(parsed.usage.reasoning_tokens, 5);
}

TEST(ParseCompletion, RejectsUnusableBodies) {
  EXPECT_EQ(parse_completion("{not json", PromptThink::unknown).error,
            "response is not valid JSON");
  EXPECT_EQ(parse_completion(R"({"choices":[{"message":{"content":"a"})", PromptThink::unknown)
                .error,
            "response is not valid JSON");
  EXPECT_EQ(parse_completion(R"({"choices":[]})", PromptThink::unknown).error,
            "response has no choices");
  EXPECT_EQ(parse_completion(R"({"id":"x"})", PromptThink::unknown).error,
            "response has no choices");
  EXPECT_EQ(parse_completion(R"({"choices":[{"index":0}]})", PromptThink::unknown).error,
            "choice 0 has neither message nor text");
}

TEST(ClassifyHttpFailure, SortsStatusesIntoKinds) {
  EXPECT_EQ(classify_http_failure(401, "{}").kind, "auth");
  EXPECT_FALSE(classify_http_failure(403, "{}").retryable);
  const auto context = classify_http_failure(
      400, R"({"error":{"message":"This model's maximum context length is 16384 tokens.","code":400}})");
  EXPECT_EQ(context.kind, "context_length");
  EXPECT_FALSE(context.retryable);
  EXPECT_EQ(context.message, "HTTP 400: This model's maximum context length is 16384 tokens.");
  EXPECT_EQ(classify_http_failure(400, R"({"error":{"message":"bad temperature"}})").kind,
            "bad_request");
  EXPECT_FALSE(classify_http_failure(404, "").retryable);
  EXPECT_TRUE(classify_http_failure(429, R"({"error":{"code":"rate_limit_exceeded"}})").retryable);
  EXPECT_FALSE(classify_http_failure(429, R"({"error":{"code":"insufficient_quota"}})").retryable);
  EXPECT_EQ(classify_http_failure(503, "").kind, "server");
  EXPECT_TRUE(classify_http_failure(503, "").retryable);
  EXPECT_EQ(classify_http_failure(408, "").kind, "timeout");
}

TEST(ParseRetryAfter, ReadsSecondsDatesAndMilliseconds) {
  const auto now = std::chrono::system_clock::from_time_t(1445412480);  // 2015-10-21 07:28:00
  EXPECT_EQ(parse_retry_after("3", "", now), 3000ms);
  EXPECT_EQ(parse_retry_after("1.5", "", now), 1500ms);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", "", now), 10000ms);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", "", now), 0ms);  // in the past
  EXPECT_EQ(parse_retry_after("", "250", now), 250ms);
  EXPECT_EQ(parse_retry_after("1", "2500", now), 2500ms);  // the larger wins
  EXPECT_EQ(parse_retry_after("soon", "", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("", "", now), std::nullopt);
}

}  // namespace
}  // namespace codebias::generation
