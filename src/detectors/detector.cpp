#include "detectors/detector.h"

namespace codebias::detectors {

std::vector<Verdict> Detector::detect_all(std::span<const Trace> traces) const {
  std::vector<Verdict> verdicts;
  verdicts.reserve(traces.size());
  for (const Trace& trace : traces) verdicts.push_back(detect(trace));
  return verdicts;
}

nlohmann::ordered_json evidence_json(const Evidence& evidence) {
  nlohmann::ordered_json out = {{"kind", evidence.kind}, {"text", evidence.text}};
  if (!evidence.attribute.empty()) out["attribute"] = evidence.attribute;
  if (!evidence.rule.empty()) out["rule"] = evidence.rule;
  if (evidence.begin) out["begin"] = *evidence.begin;
  if (evidence.end) out["end"] = *evidence.end;
  if (evidence.weight) out["weight"] = *evidence.weight;
  return out;
}

nlohmann::ordered_json verdict_json(std::string_view id, std::string_view detector, const Verdict& verdict) {
  nlohmann::ordered_json evidence = nlohmann::ordered_json::array();
  for (const Evidence& item : verdict.evidence) evidence.push_back(evidence_json(item));
  nlohmann::ordered_json line = {{"id", id},
                                 {"detector", detector},
                                 {"score", verdict.score},
                                 {"biased", verdict.biased},
                                 {"biased_attributes", verdict.biased_attributes},
                                 {"evidence", std::move(evidence)}};
  if (verdict.undecided) {
    line["score"] = nullptr;
    line["biased"] = nullptr;
    line["undecided"] = *verdict.undecided;
  }
  return line;
}

}  // namespace codebias::detectors
