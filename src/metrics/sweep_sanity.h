// Sweep sanity: configurations of a sweep whose answers are byte-identical (a model that ignores
// temperature, a server that drops the reasoning budget) are copies, not more data. A row pooled
// over them counts the same answers several times and its intervals shrink for nothing, so a run
// flags them and says how many distinct answers its pooled rows hold.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/run_results.h"
#include "metrics/sample_source.h"

namespace codebias::metrics {

struct SweepSanity {
  std::size_t configurations = 0;  // sweep labels among the answered samples
  // Groups of two or more configurations with the same answer to every prompt and sample index
  // (labels in plan order); each answered the same samples.
  std::vector<std::vector<std::string>> identical;
  std::size_t answers = 0;           // answered samples over every configuration
  std::size_t distinct_answers = 0;  // of those, distinct by prompt, sample index and answer text
};

// Over the answered samples of `results`; nothing is identical with fewer than two configurations.
// Answers are compared by a 64-bit hash of their text, so the check holds no answer (issue 32).
SweepSanity check_sweep(const RunResults& results);
// The same over the samples `samples` visits.
SweepSanity check_sweep(const SampleSource& samples);

// {"configurations", "identical_configurations": [[label, ...]], "answers", "distinct_answers"}.
nlohmann::ordered_json to_json(const SweepSanity& sanity);

// One line for the terminal and report.md when some configurations are copies; "" otherwise.
std::string identical_configurations_note(const SweepSanity& sanity);

}  // namespace codebias::metrics
