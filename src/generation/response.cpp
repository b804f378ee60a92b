#include "generation/response.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>

namespace codebias::generation {
namespace {

std::int64_t integer_field(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_number_integer() ? found->get<std::int64_t>() : 0;
}

Usage read_usage(const nlohmann::json& body) {
  Usage usage;
  const auto found = body.find("usage");
  if (found == body.end() || !found->is_object()) return usage;
  usage.prompt_tokens = integer_field(*found, "prompt_tokens");
  usage.completion_tokens = integer_field(*found, "completion_tokens");
  usage.reasoning_tokens = integer_field(*found, "reasoning_tokens");  // SGLang
  if (const auto details = found->find("completion_tokens_details");
      details != found->end() && details->is_object()) {
    usage.reasoning_tokens = std::max(usage.reasoning_tokens,
                                      integer_field(*details, "reasoning_tokens"));
  }
  return usage;
}

std::string lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

bool mentions_context_length(std::string_view body) {
  const std::string lower = lowercase(body);
  for (const char* marker : {"context length", "context_length", "maximum context",
                             "context window", "exceed_context_size", "prompt is too long",
                             "too many tokens", "reduce the length"}) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

// The server's own message ({"error":{"message":...}}, {"message":...}, or the body's start).
std::string server_message(std::string_view body) {
  const auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object()) {
    const auto error = json.find("error");
    if (error != json.end() && error->is_object() && error->contains("message") &&
        (*error)["message"].is_string()) {
      return (*error)["message"].get<std::string>();
    }
    if (error != json.end() && error->is_string()) return error->get<std::string>();
    if (json.contains("message") && json["message"].is_string()) {
      return json["message"].get<std::string>();
    }
  }
  constexpr std::size_t kExcerpt = 300;
  return std::string(body.substr(0, kExcerpt));
}

std::optional<double> parse_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// IMF-fixdate, e.g. "Wed, 21 Oct 2015 07:28:00 GMT".
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text) {
  std::tm parts{};
  const std::string copy(text);
  const char* end = ::strptime(copy.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
  if (end == nullptr) return std::nullopt;
  return std::chrono::system_clock::from_time_t(::timegm(&parts));
}

}  // namespace

ParsedCompletion parse_completion(std::string_view body, PromptThink prompt) {
  ParsedCompletion parsed;
  const auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_discarded()) {
    parsed.error = "response is not valid JSON";
    return parsed;
  }
  const auto choices = json.is_object() ? json.find("choices") : json.end();
  if (!json.is_object() || choices == json.end() || !choices->is_array() || choices->empty()) {
    parsed.error = "response has no choices";
    return parsed;
  }
  int position = 0;
  for (const auto& choice : *choices) {
    const bool has_message = choice.is_object() && choice.contains("message") &&
                             choice["message"].is_object();
    const bool has_text = choice.is_object() && choice.contains("text") &&
                          choice["text"].is_string();
    if (!has_message && !has_text) {
      parsed.error = "choice " + std::to_string(position) + " has neither message nor text";
      return parsed;
    }
    ParsedChoice parsed_choice;
    parsed_choice.index = choice.contains("index") && choice["index"].is_number_integer()
                              ? choice["index"].get<int>()
                              : position;
    parsed_choice.text = extract_reasoning(choice, prompt);
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) {
      parsed_choice.finish_reason = choice["finish_reason"].get<std::string>();
    }
    parsed.choices.push_back(std::move(parsed_choice));
    ++position;
  }
  std::stable_sort(parsed.choices.begin(), parsed.choices.end(),
                   [](const ParsedChoice& a, const ParsedChoice& b) { return a.index < b.index; });
  parsed.usage = read_usage(json);
  return parsed;
}

Failure classify_http_failure(int status, std::string_view body) {
  Failure failure;
  failure.message = "HTTP " + std::to_string(status) + ": " + server_message(body);
  if (status == 401 || status == 403) {
    failure.kind = "auth";
  } else if ((status == 400 || status == 413 || status == 422) && mentions_context_length(body)) {
    failure.kind = "context_length";
  } else if (status == 429) {
    failure.kind = "rate_limit";
    // Retrying a spent quota loops forever.
    failure.retryable = lowercase(body).find("insufficient_quota") == std::string::npos;
  } else if (status == 408) {
    failure.kind = "timeout";
    failure.retryable = true;
  } else if (status == 409 || status >= 500) {
    failure.kind = "server";
    failure.retryable = true;
  } else {
    failure.kind = "bad_request";
  }
  return failure;
}

std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view retry_after, std::string_view retry_after_ms,
    std::chrono::system_clock::time_point now) {
  std::optional<std::chrono::milliseconds> delay;
  auto consider = [&delay](std::chrono::milliseconds candidate) {
    if (!delay || candidate > *delay) delay = candidate;
  };
  if (!retry_after.empty()) {
    if (const auto seconds = parse_number(retry_after)) {
      consider(std::chrono::milliseconds(static_cast<std::int64_t>(*seconds * 1000)));
    } else if (const auto date = parse_http_date(retry_after)) {
      consider(std::max(std::chrono::milliseconds(0),
                        std::chrono::duration_cast<std::chrono::milliseconds>(*date - now)));
    }
  }
  if (const auto milliseconds = parse_number(retry_after_ms)) {
    consider(std::chrono::milliseconds(static_cast<std::int64_t>(*milliseconds)));
  }
  return delay;
}

}  // namespace codebias::generation
