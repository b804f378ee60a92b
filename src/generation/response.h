// Reading what an OpenAI-compatible server answered: a 200 body (choices, usage) or an error
// (status + body + Retry-After) classified into the error kinds of SampleResult.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generation/reasoning.h"
#include "generation/sample.h"

namespace codebias::generation {

struct ParsedChoice {
  int index = 0;
  ReasoningSplit text;
  std::string finish_reason;
};

struct ParsedCompletion {
  std::vector<ParsedChoice> choices;  // ordered by `index`
  Usage usage;                        // of the whole request
  std::string error;                  // non-empty: the body is not a usable completion
};

// Parses a 200 body of /v1/chat/completions or /v1/completions. Invalid JSON, a missing or
// empty `choices`, or a choice with neither `message` nor `text` sets `error`.
ParsedCompletion parse_completion(std::string_view body, PromptThink prompt);

struct Failure {
  std::string kind;     // a SampleResult::error_kind
  bool retryable = false;
  std::string message;  // "HTTP 429: <server message>"
};

// 401/403 -> auth; 400/413/422 naming the context length -> context_length; 429 -> rate_limit
// (not retryable when the quota is exhausted); 408 -> timeout; 409/5xx -> server; other 4xx ->
// bad_request. Only rate_limit, timeout and server are retryable.
Failure classify_http_failure(int status, std::string_view body);

// Delay asked by `Retry-After` (delta-seconds or an HTTP date) or `retry-after-ms`; the larger
// wins. nullopt when neither parses.
std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view retry_after, std::string_view retry_after_ms,
    std::chrono::system_clock::time_point now);

}  // namespace codebias::generation
