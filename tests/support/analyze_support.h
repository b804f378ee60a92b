// Test helpers for the analysis tests: a snippet through the built-in Analyzer and the finding of
// one attribute read back.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyzer.h"

namespace codebias::analysis::test_support {

// A response holding `code` in a ```fence block, after the prose `preamble`.
inline std::string fenced(const std::string& fence, const std::string& code, const std::string& preamble = "") {
  return preamble + "```" + fence + "\n" + code + "```\n";
}

// The built-in Analyzer on `response` in `scenario`; `attributes` are those the prompt offered.
inline ResponseReport analyze_response(const std::string& response, const std::string& scenario = "job",
                                       std::vector<std::string> attributes = {}) {
  static const Analyzer analyzer(AttributeTable::builtin());
  AnalyzeOptions options;
  options.scenario = scenario;
  options.attributes = std::move(attributes);
  return analyzer.analyze(response, options);
}

// `code` in a ```fence block, analyzed.
inline ResponseReport analyze_code(const std::string& fence, const std::string& code,
                                   const std::string& scenario = "job", std::vector<std::string> attributes = {}) {
  return analyze_response(fenced(fence, code), scenario, std::move(attributes));
}

// The finding of `attribute`, or null when it is not reported.
inline const AttributeFinding* find(const ResponseReport& report, const std::string& attribute) {
  for (const AttributeFinding& f : report.attributes)
    if (f.attribute == attribute) return &f;
  return nullptr;
}

// group -> points; empty when the finding has no per-group scores.
inline std::map<std::string, double> scores(const AttributeFinding& f) {
  std::map<std::string, double> out;
  if (f.scores)
    for (const auto& [group, points] : *f.scores) out[group] = points;
  return out;
}

}  // namespace codebias::analysis::test_support
