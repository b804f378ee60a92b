// The one interface of the reasoning-bias detectors (ProbeDebias §4.4, Table 5): a detector reads
// a reasoning trace and returns a score in [0, 1], a verdict and the evidence it used. Callers
// (`codebias detect`, evaluation, later the propagation analysis and the reasoning-rewrite
// strategy) hold a Detector made by detectors/registry.h and never name a concrete detector.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::detectors {

// One reasoning trace and what the prompt said about it.
struct Trace {
  std::string id;
  std::string reasoning;                // the trace only (split off the response as generation does)
  std::string scenario;                 // "job", "edu", "med"; "" when unknown
  std::vector<std::string> attributes;  // canonical keys of the sensitive attributes the prompt offered
};

// A trace with its reference label (`codebias detect train` / `eval` input).
struct LabelledTrace {
  Trace trace;
  bool biased = false;
  std::string model;  // the model that wrote the trace; "" when the labels do not say
  // Who wrote the trace (an author, a voice, a corpus): `detect eval` reports each source apart;
  // "" when the labels do not say.
  std::string source;
};

// What a verdict rests on: a phrase of the trace (keywords) or a feature of a learned model.
struct Evidence {
  std::string kind;       // keywords: "attribute", "decision", "stereotype", "proxy", "negation",
                          // "rejection", "retraction", "clinical"; linear models: "word", "char"
  std::string text;       // the phrase as it stands in the trace, or the n-gram
  std::string attribute;  // the sensitive attribute a phrase names; "" otherwise
  std::string rule;       // keywords: which rule list matched ("decision_phrases", ...); "" otherwise
  std::optional<std::size_t> begin;  // byte offsets into Trace::reasoning (keywords)
  std::optional<std::size_t> end;
  std::optional<double> weight;      // contribution to the margin (linear models)
};

struct Verdict {
  double score = 0;  // in [0, 1]; higher = more likely biased
  bool biased = false;
  // Set when the detector could give no verdict (a judge answer outside its format): why. Such a
  // verdict is counted apart, never read as biased or unbiased.
  std::optional<std::string> undecided;
  std::vector<std::string> biased_attributes;  // canonical keys, sorted; empty when unbiased
  std::vector<Evidence> evidence;
};

class Detector {
 public:
  virtual ~Detector() = default;
  // The --detector name ("keywords", "tfidf-lr", ...).
  virtual std::string_view name() const = 0;
  // Must be safe to call from several threads at once.
  virtual Verdict detect(const Trace& trace) const = 0;
  // Many traces at once, in order. Detectors that ask an engine (judge, probe) override this to
  // send their requests together; the others score one trace after another.
  virtual std::vector<Verdict> detect_all(std::span<const Trace> traces) const;
};

nlohmann::ordered_json evidence_json(const Evidence& evidence);
// The `codebias detect` output line: id, detector, score, biased, biased_attributes, evidence.
nlohmann::ordered_json verdict_json(std::string_view id, std::string_view detector, const Verdict& verdict);

}  // namespace codebias::detectors
