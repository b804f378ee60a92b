// The OpenAI-compatible surface of the simulated model: request validation, choices, token
// limits, stop strings, usage, and the route table of handle().
#include "generation/simulated/simulated_model.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>

#include "base/strings.h"
#include "generation/simulated/simulated_model_trace.h"
#include "generation/simulated/simulated_model_random.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve {
namespace {

using json = nlohmann::json;

// A bad request: `param` is the offending field, reported in the OpenAI error object.
struct RequestError : std::invalid_argument {
  RequestError(std::string field, const std::string& what)
      : std::invalid_argument(field + ": " + what), param(std::move(field)) {}
  std::string param;
};

constexpr int kMaxChoices = 128;

int approximate_tokens(size_t bytes) { return static_cast<int>((bytes + 3) / 4); }

std::string text_of_content(const json& content, const std::string& field) {
  if (content.is_null()) return "";
  if (content.is_string()) return content.get<std::string>();
  if (content.is_array()) {  // [{"type": "text", "text": "..."}, ...]
    std::string text;
    for (size_t i = 0; i < content.size(); ++i) {
      const json& part = content[i];
      if (!part.is_object() || !part.contains("text") || !part["text"].is_string())
        throw RequestError(field + "[" + std::to_string(i) + "]",
                           "expected a text part {\"type\": \"text\", \"text\": ...}");
      text += part["text"].get<std::string>();
    }
    return text;
  }
  throw RequestError(field, "expected a string or a list of text parts");
}

struct Options {
  int n = 1;
  std::optional<int> max_tokens;
  std::vector<std::string> stop;
  std::optional<std::int64_t> seed;
  std::optional<bool> enable_thinking;
  std::string model;
};

Options read_options(const json& body, const BiasProfile& profile) {
  Options options;
  options.model = profile.model;
  if (body.contains("model") && !body["model"].is_null()) {
    if (!body["model"].is_string()) throw RequestError("model", "expected a string");
    options.model = body["model"].get<std::string>();
  }
  if (body.contains("stream") && !body["stream"].is_null()) {
    if (!body["stream"].is_boolean()) throw RequestError("stream", "expected true or false");
    if (body["stream"].get<bool>()) throw RequestError("stream", "streaming is not supported by the simulated model");
  }
  if (body.contains("n") && !body["n"].is_null()) {
    if (!body["n"].is_number_integer() || body["n"].get<std::int64_t>() < 1 ||
        body["n"].get<std::int64_t>() > kMaxChoices)
      throw RequestError("n", "expected a whole number from 1 to " + std::to_string(kMaxChoices));
    options.n = body["n"].get<int>();
  }
  for (const char* key : {"max_tokens", "max_completion_tokens"})
    if (body.contains(key) && !body[key].is_null()) {
      if (!body[key].is_number_integer() || body[key].get<std::int64_t>() < 1 ||
          body[key].get<std::int64_t>() > 1'000'000)
        throw RequestError(key, "expected a whole number from 1 to 1000000");
      options.max_tokens = body[key].get<int>();
    }
  if (body.contains("stop") && !body["stop"].is_null()) {
    const json& stop = body["stop"];
    if (stop.is_string()) {
      options.stop.push_back(stop.get<std::string>());
    } else if (stop.is_array()) {
      for (size_t i = 0; i < stop.size(); ++i) {
        if (!stop[i].is_string()) throw RequestError("stop[" + std::to_string(i) + "]", "expected a string");
        options.stop.push_back(stop[i].get<std::string>());
      }
    } else {
      throw RequestError("stop", "expected a string or a list of strings");
    }
    std::erase(options.stop, std::string());
  }
  if (body.contains("seed") && !body["seed"].is_null()) {
    if (!body["seed"].is_number_integer()) throw RequestError("seed", "expected an integer");
    options.seed = body["seed"].get<std::int64_t>();
  }
  if (body.contains("chat_template_kwargs") && !body["chat_template_kwargs"].is_null()) {
    const json& kwargs = body["chat_template_kwargs"];
    if (!kwargs.is_object()) throw RequestError("chat_template_kwargs", "expected an object");
    if (kwargs.contains("enable_thinking")) {
      if (!kwargs["enable_thinking"].is_boolean())
        throw RequestError("chat_template_kwargs.enable_thinking", "expected true or false");
      options.enable_thinking = kwargs["enable_thinking"].get<bool>();
    }
  }
  return options;
}

std::vector<ChatMessage> read_messages(const json& body) {
  if (!body.contains("messages")) throw RequestError("messages", "required");
  const json& messages = body["messages"];
  if (!messages.is_array() || messages.empty()) throw RequestError("messages", "expected a non-empty list of messages");
  std::vector<ChatMessage> out;
  for (size_t i = 0; i < messages.size(); ++i) {
    const std::string field = "messages[" + std::to_string(i) + "]";
    const json& m = messages[i];
    if (!m.is_object()) throw RequestError(field, "expected an object with role and content");
    if (!m.contains("role") || !m["role"].is_string()) throw RequestError(field + ".role", "expected a string");
    out.push_back({m["role"].get<std::string>(), text_of_content(m.value("content", json()), field + ".content")});
  }
  return out;
}

// The assistant message a request asks the model to continue (vLLM / SGLang
// `continue_final_message: true` with `add_generation_prompt: false`), taken off `messages`.
// Returns the think block's trace when the message opens with a closed, non-empty one; an empty
// block (a thinking-off prefill) or other text returns nullopt and the answer is drawn as usual.
std::optional<std::string> take_prefilled_trace(const json& body, std::vector<ChatMessage>& messages) {
  const auto continues = body.find("continue_final_message");
  if (continues == body.end() || continues->is_null()) return std::nullopt;
  if (!continues->is_boolean()) throw RequestError("continue_final_message", "expected true or false");
  if (!continues->get<bool>()) return std::nullopt;
  const auto generation_prompt = body.find("add_generation_prompt");
  if (generation_prompt == body.end() || !generation_prompt->is_boolean() || generation_prompt->get<bool>())
    throw RequestError("add_generation_prompt",
                       "must be false when continue_final_message is true (the engine's default is true)");
  if (messages.back().role != "assistant")
    throw RequestError("messages[" + std::to_string(messages.size() - 1) + "].role",
                       "continue_final_message needs a final assistant message to continue");
  const std::string prefill = std::move(messages.back().content);
  messages.pop_back();
  if (messages.empty()) throw RequestError("messages", "a prefilled assistant message needs a request before it");
  constexpr std::string_view open = "<think>", close = "</think>";
  const size_t start = prefill.find_first_not_of(" \n");
  if (start == std::string::npos || prefill.compare(start, open.size(), open) != 0) return std::nullopt;
  const size_t end = prefill.find(close, start);
  if (end == std::string::npos) return std::nullopt;
  std::string trace = prefill.substr(start + open.size(), end - start - open.size());
  const size_t first = trace.find_first_not_of(" \n");
  if (first == std::string::npos) return std::nullopt;
  trace = trace.substr(first, trace.find_last_not_of(" \n") + 1 - first);
  return trace;
}

// The seed of choice `index`: the conversation's hash, the request seed when given, the index.
std::uint64_t answer_seed(const std::vector<ChatMessage>& messages, const std::optional<std::int64_t>& seed,
                          int index) {
  std::uint64_t hash = sim::kFnvOffset;
  for (const ChatMessage& m : messages) {
    hash = sim::fnv1a(m.role, hash);
    hash = sim::fnv1a(std::string_view("\0", 1), hash);
    hash = sim::fnv1a(m.content, hash);
    hash = sim::fnv1a(std::string_view("\0", 1), hash);
  }
  std::uint64_t state = hash;
  if (seed) {
    state ^= static_cast<std::uint64_t>(*seed);
    state = sim::splitmix64(state);
  }
  state ^= static_cast<std::uint64_t>(index) * 0xD1B54A32D192ED03ull;
  return sim::splitmix64(state);
}

// The seed the conversation's first answer had: that of the messages before the first assistant
// turn, with the same request seed and choice (AnswerRequest::first_turn_seed).
std::uint64_t first_turn_seed(const std::vector<ChatMessage>& messages, const std::optional<std::int64_t>& seed,
                              int index) {
  const auto first_answer =
      std::find_if(messages.begin(), messages.end(), [](const ChatMessage& m) { return m.role == "assistant"; });
  return answer_seed(std::vector<ChatMessage>(messages.begin(), first_answer), seed, index);
}

struct Finished {
  std::string reasoning;
  std::string content;
  std::string finish_reason = "stop";
};

// Stop strings cut the visible text; then max_tokens cuts reasoning first, then content.
Finished finish(SimulatedAnswer answer, const Options& options) {
  Finished out{std::move(answer.reasoning), std::move(answer.content), answer.cut_short ? "length" : "stop"};
  size_t cut = out.content.size();
  for (const std::string& stop : options.stop) cut = std::min(cut, out.content.find(stop));
  if (cut < out.content.size()) {
    out.content.resize(cut);
    out.finish_reason = "stop";
  }
  if (options.max_tokens) {
    const size_t budget = static_cast<size_t>(*options.max_tokens) * 4;
    if (out.reasoning.size() + out.content.size() > budget) {
      out.finish_reason = "length";
      if (out.reasoning.size() >= budget) {
        base::cut_utf8(out.reasoning, budget);
        out.content.clear();
      } else {
        base::cut_utf8(out.content, budget - out.reasoning.size());
      }
    }
  }
  return out;
}

std::string hex_id(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

json usage(size_t prompt_bytes, int completion_tokens) {
  const int prompt_tokens = approximate_tokens(prompt_bytes);
  return {{"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"total_tokens", prompt_tokens + completion_tokens}};
}

size_t prompt_bytes(const std::vector<ChatMessage>& messages) {
  size_t bytes = 0;
  for (const ChatMessage& m : messages) bytes += m.content.size();
  return bytes;
}

// Error messages may quote request bytes that are not UTF-8; those are replaced, never thrown on.
std::string error_body(const std::string& message, const std::string& type, const json& param) {
  const json error = {{"error", {{"message", message}, {"type", type}, {"param", param}, {"code", nullptr}}}};
  return error.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

SimulatedModel::SimulatedModel(BiasProfile profile, TaskAnswerers task_answerers)
    : profile_(std::move(profile)), task_answerers_(std::move(task_answerers)) {
  if (profile_.refusals.empty()) profile_.refusals = default_bias_profile().refusals;
  if (profile_.reasoning_cues.empty()) profile_.reasoning_cues = default_bias_profile().reasoning_cues;
  if (task_answerers_.unclaimed == nullptr)
    throw std::invalid_argument("simulated model: no task answers requests that name none (TaskAnswerers::unclaimed)");
  // Profiles built in code skip parse_bias_profile's checks; the draws need these.
  auto check = [](const std::vector<WeightedName>& list, const char* field,
                  std::initializer_list<std::string_view> known) {
    if (list.empty()) throw std::invalid_argument(std::string("bias profile: ") + field + ": empty");
    for (const WeightedName& w : list)
      if (!(w.weight > 0) || std::find(known.begin(), known.end(), w.name) == known.end())
        throw std::invalid_argument(std::string("bias profile: ") + field + "." + w.name +
                                    ": unknown name or weight <= 0");
  };
  check(profile_.languages, "languages", {"python", "javascript", "java", "cpp"});
  check(profile_.styles, "styles",
        {"if_chain", "weight_table", "membership", "conditional", "helper_function", "early_return"});
  for (const AttributeBias& a : profile_.attributes)
    for (const FavouredGroups& f : a.favoured)
      if (!(f.weight > 0) || f.groups.empty())
        throw std::invalid_argument("bias profile: attributes." + a.attribute +
                                    ".favoured: empty group list or weight <= 0");
  for (const TestcaseFill& t : profile_.testcase)
    if (t.groups.empty()) throw std::invalid_argument("bias profile: testcase." + t.attribute + ".groups: empty");
}

namespace {

// A mitigation strategy's rewrite request (its metadata's "step" is "rewrite", run/mitigation_steps.h):
// the trace between the <reasoning> tags of the last user message, rewritten as the strategy asks.
std::optional<std::string> rewrite_answer(const std::optional<prompts::PromptMetadata>& metadata,
                                          const std::vector<ChatMessage>& messages) {
  if (!metadata || metadata->step != "rewrite") return std::nullopt;
  const std::string& request = messages.back().content;
  const size_t open = request.rfind("<reasoning>\n"), close = request.rfind("\n</reasoning>");
  if (open == std::string::npos || close == std::string::npos || close < open)
    throw RequestError("messages", "a rewrite request needs the trace between <reasoning> tags");
  const std::string trace = request.substr(open + 12, close - open - 12);
  const std::string& strategy = metadata->mitigation;
  return sim::rewritten_trace(trace, strategy != "summary-only", strategy != "debias-only");
}

// A chat request, read once for all its choices.
struct ChatRequest {
  Options options;
  std::vector<ChatMessage> messages;  // as sent (the choices' seeds hash them)
  std::vector<ChatMessage> asked;     // without a prefilled assistant message
  std::optional<std::string> prefilled_trace;
  std::optional<prompts::PromptMetadata> metadata;
  std::optional<std::string> rewritten;  // a rewrite step's answer, the same for every choice
  TaskAnswerer answerer = nullptr;
  std::string answered_by;  // AnswerPlan::answered_by
};

ChatRequest read_chat_request(const json& body, const BiasProfile& profile, const TaskAnswerers& answerers) {
  if (!body.is_object()) throw RequestError("(body)", "expected a JSON object");
  ChatRequest request;
  request.options = read_options(body, profile);
  request.messages = read_messages(body);
  request.metadata = sim::prompt_metadata(body, request.messages, answerers);
  request.rewritten = rewrite_answer(request.metadata, request.messages);
  request.asked = request.messages;
  request.prefilled_trace = take_prefilled_trace(body, request.asked);
  const prompts::PromptMetadata* declared = request.metadata ? &*request.metadata : nullptr;
  request.answerer = sim::answerer_for(request.asked, declared, answerers);
  if (declared != nullptr && answerers.by_task.find(declared->task) != answerers.by_task.end())
    request.answered_by = declared->task;
  return request;
}

SimulatedAnswer answer_choice(const ChatRequest& request, const BiasProfile& profile, int index) {
  const std::uint64_t seed = answer_seed(request.messages, request.options.seed, index);
  SimulatedAnswer answer;
  if (request.rewritten) {
    answer.content = *request.rewritten;
    return answer;
  }
  const AnswerRequest asked{profile,
                            request.metadata ? &*request.metadata : nullptr,
                            request.asked,
                            seed,
                            first_turn_seed(request.asked, request.options.seed, index),
                            request.options.enable_thinking,
                            request.prefilled_trace};
  answer = request.answerer(asked);
  answer.plan.answered_by = request.answered_by;
  return answer;
}

}  // namespace

AnswerPlan SimulatedModel::plan(const nlohmann::json& body, int index) const {
  return answer_choice(read_chat_request(body, profile_, task_answerers_), profile_, index).plan;
}

nlohmann::json SimulatedModel::chat_completion(const nlohmann::json& body) const {
  const ChatRequest request = read_chat_request(body, profile_, task_answerers_);
  const Options& options = request.options;
  const std::vector<ChatMessage>& messages = request.messages;
  json choices = json::array();
  int completion_tokens = 0;
  for (int i = 0; i < options.n; ++i) {
    SimulatedAnswer answer = answer_choice(request, profile_, i);
    if (!answer.reasoning.empty() && profile_.reasoning_placement == ReasoningPlacement::think_tags) {
      answer.content = "<think>\n" + answer.reasoning + "\n</think>\n\n" + answer.content;
      answer.reasoning.clear();
    }
    const Finished done = finish(std::move(answer), options);
    completion_tokens += approximate_tokens(done.reasoning.size() + done.content.size());
    json message = {{"role", "assistant"}, {"content", done.content}};
    if (!done.reasoning.empty()) message["reasoning_content"] = done.reasoning;
    choices.push_back(
        {{"index", i}, {"message", message}, {"logprobs", nullptr}, {"finish_reason", done.finish_reason}});
  }
  return {{"id", "chatcmpl-sim-" + hex_id(answer_seed(messages, options.seed, -1))},
          {"object", "chat.completion"},
          {"created", 0},
          {"model", options.model},
          {"system_fingerprint", "codebias-simulated"},
          {"choices", choices},
          {"usage", usage(prompt_bytes(messages), completion_tokens)}};
}

namespace {

bool flag(const json& body, const char* key) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) return false;
  if (!it->is_boolean()) throw RequestError(key, "expected true or false");
  return it->get<bool>();
}

// choices[].logprobs of a completion: the echoed prompt's tokens (the first without a
// log-probability, as vLLM returns it) and then the generated text's.
json completion_logprobs(const std::string& echoed, const std::string& generated) {
  const std::string text = echoed + generated;
  const std::vector<sim::PromptToken> tokens = sim::pseudo_tokens(text);
  const std::vector<std::optional<double>> values = sim::token_logprobs(text, tokens);
  json out = {{"tokens", json::array()}, {"token_logprobs", json::array()}, {"text_offset", json::array()},
              {"top_logprobs", json::array()}};
  for (size_t i = 0; i < tokens.size(); ++i) {
    out["tokens"].push_back(tokens[i].text);
    out["token_logprobs"].push_back(values[i] ? json(*values[i]) : json(nullptr));
    out["text_offset"].push_back(tokens[i].offset);
    out["top_logprobs"].push_back(values[i] ? json{{tokens[i].text, *values[i]}} : json(nullptr));
  }
  return out;
}

}  // namespace

nlohmann::json SimulatedModel::completion(const nlohmann::json& body) const {
  if (!body.is_object()) throw RequestError("(body)", "expected a JSON object");
  const Options options = read_options(body, profile_);
  if (!body.contains("prompt")) throw RequestError("prompt", "required");
  std::vector<std::string> prompts;
  if (body["prompt"].is_string()) {
    prompts.push_back(body["prompt"].get<std::string>());
  } else if (body["prompt"].is_array() && !body["prompt"].empty()) {
    for (size_t i = 0; i < body["prompt"].size(); ++i) {
      if (!body["prompt"][i].is_string())
        throw RequestError("prompt[" + std::to_string(i) + "]", "expected a string (token lists are not supported)");
      prompts.push_back(body["prompt"][i].get<std::string>());
    }
  } else {
    throw RequestError("prompt", "expected a string or a non-empty list of strings");
  }
  const bool echo = flag(body, "echo");
  // vLLM / SGLang: an integer (0 = the chosen token's only); OpenAI's legacy API caps it at 5.
  bool logprobs = false;
  if (const auto it = body.find("logprobs"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<int>() < 0) throw RequestError("logprobs", "expected a non-negative integer");
    logprobs = true;
  }
  json choices = json::array();
  int completion_tokens = 0;
  size_t bytes = 0;
  std::uint64_t id = sim::kFnvOffset;
  for (size_t p = 0; p < prompts.size(); ++p) {
    const std::vector<ChatMessage> messages = {{"user", prompts[p]}};
    bytes += prompts[p].size();
    id = sim::fnv1a(prompts[p], id);
    const TaskAnswerer answerer = sim::answerer_for(messages, nullptr, task_answerers_);
    for (int i = 0; i < options.n; ++i) {
      const std::uint64_t seed = answer_seed(messages, options.seed, i);
      SimulatedAnswer answer = answerer({profile_, nullptr, messages, seed, seed, options.enable_thinking, std::nullopt});
      // A completion has no reasoning field: the trace stays in the text, as raw models emit it.
      if (!answer.reasoning.empty())
        answer.content = "<think>\n" + answer.reasoning + "\n</think>\n\n" + answer.content;
      answer.reasoning.clear();
      const Finished done = finish(std::move(answer), options);
      completion_tokens += approximate_tokens(done.content.size());
      choices.push_back({{"index", static_cast<int>(p) * options.n + i},
                         {"text", echo ? prompts[p] + done.content : done.content},
                         {"logprobs", logprobs ? completion_logprobs(echo ? prompts[p] : "", done.content) : json(nullptr)},
                         {"finish_reason", done.finish_reason}});
    }
  }
  return {{"id", "cmpl-sim-" + hex_id(id)},
          {"object", "text_completion"},
          {"created", 0},
          {"model", options.model},
          {"system_fingerprint", "codebias-simulated"},
          {"choices", choices},
          {"usage", usage(bytes, completion_tokens)}};
}

SimulatedModel::Reply SimulatedModel::handle(std::string_view method, std::string_view path,
                                             std::string_view body) const {
  const std::string_view route = path.substr(0, path.find('?'));
  const bool chat = route == "/v1/chat/completions", legacy = route == "/v1/completions";
  const bool models = route == "/v1/models", health = route == "/health";
  if (!chat && !legacy && !models && !health)
    return {404, error_body("no route " + std::string(route), "not_found_error", nullptr)};
  const std::string_view wanted = chat || legacy ? "POST" : "GET";
  if (method != wanted)
    return {405, error_body(
                     std::string(method) + " is not allowed on " + std::string(route) + "; use " + std::string(wanted),
                     "invalid_request_error", nullptr)};
  if (health) return {200, json{{"status", "ok"}}.dump()};
  if (models)
    return {200, json{{"object", "list"},
                      {"data", json::array({{{"id", profile_.model},
                                             {"object", "model"},
                                             {"created", 0},
                                             {"owned_by", "codebias (simulated)"}}})}}
                     .dump(-1, ' ', false, json::error_handler_t::replace)};
  json request;
  try {
    request = json::parse(body);
  } catch (const json::parse_error& e) {
    return {400,
            error_body(std::string("request body is not valid JSON: ") + e.what(), "invalid_request_error", nullptr)};
  }
  try {
    const json reply = chat ? chat_completion(request) : completion(request);
    return {200, reply.dump(-1, ' ', false, json::error_handler_t::replace)};
  } catch (const RequestError& e) {
    return {400, error_body(e.what(), "invalid_request_error", e.param)};
  } catch (const std::exception& e) {
    return {500, error_body(std::string("simulated model failed: ") + e.what(), "server_error", nullptr)};
  }
}

}  // namespace codebias::serve
