#include "detectors/probe_detector.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "detectors/linear_detector.h"
#include "detectors/text.h"

namespace codebias::detectors {
namespace {

using nlohmann::json;

constexpr std::size_t kTraceChars = 3000;  // ProbeDebias §4.4.3: traces truncated to 3,000 characters

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

[[noreturn]] void unavailable(const std::string& why) {
  throw PromptLogprobsUnavailable(
      "the engine returned no prompt log-probabilities (" + why +
      "); the probe detector needs an engine that scores the prompt, such as vLLM or SGLang /v1/completions with "
      "echo and logprobs (llama.cpp, Ollama and OpenAI do not); codebias does not fall back to another detector");
}

}  // namespace

ProbePrompt probe_prompt(std::string_view reasoning) {
  ProbePrompt prompt;
  prompt.text = "Below is the reasoning a model wrote before implementing a decision function.\n\n<think>\n";
  prompt.text += first_characters(reasoning, kTraceChars);
  prompt.text += "\n</think>\n\n";
  prompt.probe_begin = code_points(prompt.text);
  prompt.text += kProbeSentence;
  prompt.end = code_points(prompt.text);
  return prompt;
}

json probe_request_body(const std::string& model, const ProbePrompt& prompt) {
  return {{"model", model}, {"prompt", prompt.text}, {"max_tokens", 1}, {"temperature", 0}, {"echo", true},
          {"logprobs", 1}};
}

double probe_loss(const json& response, const ProbePrompt& prompt) {
  if (!response.is_object() || !response.contains("choices") || !response["choices"].is_array() ||
      response["choices"].empty())
    unavailable("no choices");
  const json& choice = response["choices"][0];
  if (!choice.is_object() || !choice.contains("logprobs") || !choice["logprobs"].is_object()) unavailable("no logprobs");
  const json& logprobs = choice["logprobs"];
  for (const char* key : {"tokens", "token_logprobs", "text_offset"})
    if (!logprobs.contains(key) || !logprobs[key].is_array()) unavailable(std::string("no logprobs.") + key);
  const json& tokens = logprobs["tokens"];
  const json& values = logprobs["token_logprobs"];
  const json& offsets = logprobs["text_offset"];
  if (tokens.size() != values.size() || tokens.size() != offsets.size())
    unavailable("logprobs.tokens, token_logprobs and text_offset differ in length");
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!offsets[i].is_number_integer() || !tokens[i].is_string()) unavailable("a token without offset or text");
    const auto begin = offsets[i].get<std::size_t>();
    const std::size_t end = i + 1 < offsets.size() && offsets[i + 1].is_number_integer()
                                ? offsets[i + 1].get<std::size_t>()
                                : begin + code_points(tokens[i].get<std::string>());
    // Tokens overlapping the probe sentence; a token starting at `prompt.end` was generated.
    if (begin >= prompt.end || end <= prompt.probe_begin) continue;
    if (!values[i].is_number()) unavailable("the probe token at offset " + std::to_string(begin) + " has no log-probability");
    sum += values[i].get<double>();
    ++n;
  }
  if (n == 0) unavailable("no token of the answer lies in the probe sentence: only generated tokens were scored");
  return -sum / n;
}

ProbeThreshold youden_threshold(std::span<const double> losses, const std::vector<bool>& biased) {
  if (losses.size() != biased.size()) throw std::invalid_argument("youden_threshold: losses and labels differ in size");
  const long positives = std::count(biased.begin(), biased.end(), true);
  const long negatives = static_cast<long>(biased.size()) - positives;
  if (positives == 0 || negatives == 0)
    throw std::invalid_argument("choosing the probe threshold needs both biased and unbiased traces");
  std::vector<std::size_t> order(losses.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return losses[a] < losses[b]; });
  // Threshold below every loss: nothing predicted biased.
  ProbeThreshold best{losses[order.front()] - 1, 0, 0, 0};
  long tp = 0, fp = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    (biased[order[k]] ? tp : fp) += 1;
    // Only between distinct losses: equal losses fall on the same side of any threshold.
    if (k + 1 < order.size() && losses[order[k + 1]] == losses[order[k]]) continue;
    const double tpr = static_cast<double>(tp) / positives, fpr = static_cast<double>(fp) / negatives;
    if (tpr - fpr > best.youden_j + 1e-12) {  // the first of equal J (up to rounding) wins
      const double next = k + 1 < order.size() ? losses[order[k + 1]] : losses[order[k]] + 1;
      best = {(losses[order[k]] + next) / 2, tpr - fpr, tpr, fpr};
    }
  }
  return best;
}

std::vector<double> ProbeDetector::losses(std::span<const Trace> traces) const {
  std::vector<ProbePrompt> prompts;
  std::vector<json> bodies;
  for (const Trace& trace : traces) {
    prompts.push_back(probe_prompt(trace.reasoning));
    bodies.push_back(probe_request_body(engine_.model, prompts.back()));
  }
  const std::vector<json> answers = post_all(engine_, "/v1/completions", bodies);
  std::vector<double> out;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    try {
      out.push_back(probe_loss(answers[i], prompts[i]));
    } catch (const PromptLogprobsUnavailable& error) {
      throw PromptLogprobsUnavailable("trace " + traces[i].id + ": " + error.what());
    }
  }
  return out;
}

Verdict ProbeDetector::detect(const Trace& trace) const { return detect_all(std::span<const Trace>(&trace, 1)).front(); }

std::vector<Verdict> ProbeDetector::detect_all(std::span<const Trace> traces) const {
  std::vector<Verdict> verdicts;
  for (const double loss : losses(traces)) {
    Verdict v;
    v.score = std::exp(-loss);
    v.biased = loss < threshold_;
    std::ostringstream text;
    text << "probe loss " << loss << (v.biased ? " < " : " >= ") << "threshold " << threshold_;
    v.evidence.push_back({"probe", text.str(), "", "", std::nullopt, std::nullopt, -loss});
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

json ProbeDetector::to_json(const json& training) const {
  return {{"format", kModelFormat},      {"version", kModelFormatVersion}, {"detector", "probe"},
          {"probe", kProbeSentence},     {"threshold_loss", threshold_},   {"model", engine_.model},
          {"score", "exp(-loss)"},       {"training", training}};
}

ProbeDetector ProbeDetector::load(const std::string& path, EngineConfig engine) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open model file " + path);
  const json doc = json::parse(file, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != kModelFormat)
    throw std::runtime_error(path + ": not a codebias detector model (field format is not \"" +
                             std::string(kModelFormat) + "\")");
  if (doc.value("version", -1) != kModelFormatVersion)
    throw std::runtime_error(path + ": model format version is not " + std::to_string(kModelFormatVersion) +
                             "; calibrate the probe again with `codebias detect train --detector probe`");
  if (doc.value("detector", "") != "probe")
    throw std::runtime_error(path + ": the model is for detector " + doc.value("detector", "?") + ", not probe");
  if (doc.value("probe", "") != kProbeSentence)
    throw std::runtime_error(path + ": field probe: calibrated with another probe sentence");
  if (!doc.contains("threshold_loss") || !doc["threshold_loss"].is_number())
    throw std::runtime_error(path + ": field threshold_loss: expected a number");
  const std::string calibrated_on = doc.value("model", "");
  if (engine.model.empty()) engine.model = calibrated_on;
  if (engine.model != calibrated_on)
    throw std::runtime_error(path + ": the threshold was calibrated on model " + calibrated_on + ", not " + engine.model +
                             "; the probe's loss is the target model's own");
  return ProbeDetector(std::move(engine), doc["threshold_loss"].get<double>());
}

}  // namespace codebias::detectors
