// The steps of the simulated model's reasoning traces (docs/simulated-model.md, "Reasoning traces
// and their code"): how a step that adjusts the decision by a sensitive attribute, and one that
// leaves the attribute out, are written, and how the model reads such steps back from a trace it
// is given (a rewritten trace prefilled in its think block, or a trace wrapped in a probe prompt).
// Internal to the simulated model; the analyzers never use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::serve::sim {

// A step that adjusts the score by `label` ("gender") in favour of `groups` ("male").
// `variant` picks one of several wordings.
std::string biased_step(const std::string& label, const std::vector<std::string>& groups, int points,
                        std::uint64_t variant);
// A step that considers `label` and leaves it out of the score.
std::string excluded_step(const std::string& label, std::uint64_t variant);

// Whether `text` (one line or a whole trace) holds a biased step of the simulated model's wording.
bool has_biased_step(std::string_view text);
// The labels among `labels` that a biased step of `trace` names, in the order of `labels`.
std::vector<std::string> biased_labels_in_trace(std::string_view trace, const std::vector<std::string>& labels);

// A trace as the model rewrites it for a mitigation strategy (docs/simulated-model.md): `debias`
// turns each biased step into one that leaves its attribute out, `condense` drops the lines that
// are no step (the opening and closing sentences). The steps' labels stay readable.
std::string rewritten_trace(std::string_view trace, bool debias, bool condense);

// Prompt log-probabilities (`/v1/completions` with `echo` and `logprobs`, as vLLM and SGLang
// return them). Tokens are whitespace-led words and single punctuation marks; offsets count code
// points, like the engines' text_offset.
struct PromptToken {
  std::string text;
  std::size_t offset = 0;
};
std::vector<PromptToken> pseudo_tokens(std::string_view text);

// Each token's log-probability given the text before it (the first has none). Ordinary tokens get
// −1 to −3. A token of a sentence that speaks of "bias" is likely (about −0.5) after a biased step
// and unlikely (about −3.3) otherwise, each shifted by up to ±0.8 per context: so the loss of a
// bias probe appended to a trace (ProbeDebias's detector) separates the planted biased traces.
std::vector<std::optional<double>> token_logprobs(std::string_view text, const std::vector<PromptToken>& tokens);

}  // namespace codebias::serve::sim
