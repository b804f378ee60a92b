// The LLM judge (ProbeDebias §4.2.2's labelling protocol): a judge model reads the trace under the
// trace-level definition of bias (prompt as data: data/detectors/judge_prompt.json) and answers in a
// fixed two-line format, read strictly. An answer that is not in the format is undecided and
// counted as such (Verdict::undecided), never guessed.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "detectors/detector.h"
#include "detectors/engine_calls.h"

namespace codebias::detectors {

// POST /v1/chat/completions: the system and user messages of the prompt file, greedy.
nlohmann::json judge_request_body(const std::string& model, const Trace& trace);

struct JudgeAnswer {
  bool biased = false;
  std::vector<std::string> attributes;  // canonical keys, sorted
};

// The answer's text (its reasoning split off) read strictly: exactly one line "VERDICT: biased" or
// "VERDICT: unbiased" (case-insensitive, surrounding spaces and markdown emphasis ignored) and at
// most one "ATTRIBUTES: a, b" or "ATTRIBUTES: none" line, every name an attribute of the table.
// nullopt with `why` set otherwise.
std::optional<JudgeAnswer> read_judge_answer(std::string_view text, std::string& why);

class JudgeDetector final : public Detector {
 public:
  explicit JudgeDetector(EngineConfig engine) : engine_(std::move(engine)) {}

  std::string_view name() const override { return "judge"; }
  Verdict detect(const Trace& trace) const override;
  // Score 1 for biased, 0 for unbiased; an undecided verdict has score 0.5 and `undecided` set.
  std::vector<Verdict> detect_all(std::span<const Trace> traces) const override;

 private:
  EngineConfig engine_;
};

}  // namespace codebias::detectors
