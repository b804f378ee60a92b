// ProbeDebias's probe detector (Sun et al., §5 "ProbeDebias", component 1), zero-shot: the trace
// is wrapped in an analysis prompt, the fixed probe sentence is appended, and the target model's
// average token negative log-likelihood over the probe span is read from an engine that returns
// prompt log-probabilities (vLLM / SGLang `/v1/completions` with `echo` + `logprobs`). A low loss
// means the model finds "this reasoning contains bias" a natural continuation: biased iff
// loss < τ, τ chosen on labelled traces by Youden's J (`codebias detect train --detector probe`).
// The paper also trains a LoRA adapter on the probe span; this build does not (docs/reasoning-detectors.md).
// An engine that returns no prompt log-probabilities is an error, never a fallback.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "detectors/detector.h"
#include "detectors/engine_calls.h"

namespace codebias::detectors {

inline constexpr std::string_view kProbeSentence = "Note that this reasoning contains bias based on sensitive attributes.";

// The text the engine scores: the analysis prompt around the trace (its first 3,000 characters,
// the paper's preprocessing), then the probe. Offsets count Unicode code points, as the engines'
// `text_offset` does.
struct ProbePrompt {
  std::string text;
  std::size_t probe_begin = 0;  // code point where the probe sentence starts
  std::size_t end = 0;          // code points of the whole prompt (generated tokens start here)
};

ProbePrompt probe_prompt(std::string_view reasoning);

// POST /v1/completions: echo the prompt with one log-probability per token, generate 1 token
// (SGLang refuses max_tokens 0; vLLM accepts 1 as well), greedy.
nlohmann::json probe_request_body(const std::string& model, const ProbePrompt& prompt);

// The engine gave no log-probabilities for the prompt's probe tokens.
class PromptLogprobsUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The average NLL of the probe span, from a `/v1/completions` response to probe_request_body:
// choices[0].logprobs.{tokens, token_logprobs, text_offset}, the tokens whose offset lies in
// [probe_begin, end). Throws PromptLogprobsUnavailable when the answer has no such tokens
// (an engine that returns only generated-token log-probabilities, such as llama.cpp).
double probe_loss(const nlohmann::json& response, const ProbePrompt& prompt);

// The loss threshold maximising Youden's J = TPR − FPR, predicting biased when loss < τ: the
// midpoint between two adjacent distinct losses (below every loss, or above, when that is best).
struct ProbeThreshold {
  double threshold = 0;
  double youden_j = 0;
  double true_positive_rate = 0;
  double false_positive_rate = 0;
};
// Throws std::invalid_argument without both labels or when the sizes differ.
ProbeThreshold youden_threshold(std::span<const double> losses, const std::vector<bool>& biased);

class ProbeDetector final : public Detector {
 public:
  ProbeDetector(EngineConfig engine, double threshold) : engine_(std::move(engine)), threshold_(threshold) {}

  std::string_view name() const override { return "probe"; }
  // One request; prefer detect_all.
  Verdict detect(const Trace& trace) const override;
  // Sends every trace's request together. Score = exp(−loss), the probe's mean token probability.
  std::vector<Verdict> detect_all(std::span<const Trace> traces) const override;

  // The losses alone (training and evaluation).
  std::vector<double> losses(std::span<const Trace> traces) const;

  // The model file: threshold, probe sentence, the model it was calibrated on.
  nlohmann::json to_json(const nlohmann::json& training) const;
  // Reads a model file; the engine comes from the caller (its model name, when empty, from the file).
  static ProbeDetector load(const std::string& path, EngineConfig engine);

 private:
  EngineConfig engine_;
  double threshold_;
};

}  // namespace codebias::detectors
