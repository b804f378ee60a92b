// One sample of a run: the request codebias plans to send and what came back. Shared by the
// generation engine (which fills results), the run store (which persists both halves) and the
// batch-file export/import (which moves them through OpenAI-style batch engines).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace codebias::generation {

// One request the run makes. The body is exactly what goes over the wire, minus credentials:
// the API key lives only in the client, never here (this struct is stored).
struct PlannedSample {
  std::string id;               // stable: "<prompt id>#<sample index>[@<config>]"
  std::string prompt_id;
  int sample_index = 0;         // k of the prompt's samples
  std::optional<std::int64_t> seed;  // base seed + k when the run is seeded
  std::string api_path = "/v1/chat/completions";  // or "/v1/completions"
  nlohmann::json body;          // model, messages/prompt, temperature, seed, max_tokens, ...
  nlohmann::json metadata;      // the prompt's metadata (suite, scenario, attribute, entity, ...)
  std::string config;           // sweep-axis label ("" when the run has one configuration)
};

struct Usage {
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  std::int64_t reasoning_tokens = 0;  // when the server reports them
};

enum class SampleStatus { pending, done, error };

// What one sample ended as. A sample is `done` when the server answered with a usable
// completion (even a refusal or malformed code: that is for the analysis to judge) and `error`
// when no completion could be obtained; error_kind says why.
struct SampleResult {
  std::string id;
  SampleStatus status = SampleStatus::pending;
  std::string endpoint;          // base URL that answered, without credentials
  int http_status = 0;           // of the last attempt; 0 when no HTTP answer
  int attempts = 0;
  std::string raw_response;      // the last response body exactly as received
  std::string reasoning;         // the reasoning trace ("" when none)
  bool reasoning_cut_off = false;  // a <think> that never closed
  std::string answer;            // the content after the reasoning
  // The answer's size as received when it was stored cut to a run's --max-answer-bytes (the
  // sample then counts as truncated); 0 when it was stored whole.
  std::int64_t answer_bytes_received = 0;
  std::string finish_reason;     // "stop", "length", ... as the server said
  Usage usage;
  double latency_s = 0;          // of the last attempt
  double started_at = 0;         // unix seconds, first attempt
  double finished_at = 0;        // unix seconds, last attempt
  // "" on success; otherwise one of: auth, context_length, bad_request, rate_limit, server,
  // timeout, connection, invalid_response, cancelled.
  std::string error_kind;
  std::string error_message;     // human-readable, never containing the API key
};

// A conversation's further turns are samples of their own (run/follow_ups.h): "<first turn's
// id>+turn<n>", their metadata's "turn" is n (absent on the first turn).
inline constexpr std::string_view kTurnMark = "+turn";

// The id of the conversation's first turn, from the id of any of its turns.
inline std::string first_turn_id(const std::string& id) { return id.substr(0, id.find(kTurnMark)); }

// The id of the conversation's turn `turn` (≥ 2), from the id of any of its turns.
inline std::string turn_id(const std::string& id, int turn) {
  return first_turn_id(id) + std::string(kTurnMark) + std::to_string(turn);
}

// A sample's turn: its metadata's "turn", 1 when absent.
inline int turn_of(const nlohmann::json& metadata) {
  const auto it = metadata.find("turn");
  return it != metadata.end() && it->is_number_integer() ? it->get<int>() : 1;
}

}  // namespace codebias::generation
