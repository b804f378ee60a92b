// Annotated analyzer cases (tests/cases/<language>/<construct>.<ext>, grammar in
// tests/cases/README.md): reading a case file's annotations, and checking the analyzer's report
// on the file against them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyzer.h"

namespace codebias::test_support {

// A `bias:` / `ok:` annotation (or its `todo-` form) about one code line.
struct LineExpectation {
  int annotation_line = 0;  // where the annotation is written
  int line = 0;             // the code line it concerns: the next line that is not an annotation
  bool bias = false;        // bias: the line produces this evidence; ok: no evidence of `attribute`
  bool todo = false;        // a known gap: reported, not a failure
  std::string attribute;
  std::vector<std::pair<std::string, std::optional<double>>> amounts;  // group -> points (empty: no amount)
  std::string rule;
};

// An `expect:` annotation (or `todo-expect:`) about one attribute's finding.
struct AttributeExpectation {
  enum class State { absent, unused, used };
  int annotation_line = 0;
  bool todo = false;  // a known gap: reported, not a failure
  std::string attribute;
  State state = State::used;
  bool biased = false;
  bool effect = false;                   // null scores, an effect instead
  std::map<std::string, double> scores;  // groups not named must score 0
  std::map<std::string, double> other_values;
};

struct AnnotatedCase {
  std::string name;      // path under tests/cases/, for messages
  std::string language;  // its folder: python, c, cpp, javascript, typescript or java
  std::string fence;     // the tag of the fence the code is wrapped in
  std::string text;      // the file, exactly
  analysis::AnalyzeOptions options;
  std::optional<std::string> expected_language;
  std::optional<std::string> expected_status;
  std::vector<AttributeExpectation> attributes;
  std::vector<LineExpectation> lines;
};

// Reads the annotations of `text`, the file `name` under tests/cases/ (its folder names the
// language). Throws std::runtime_error "name:line: what is wrong" on a malformed annotation,
// an unknown keyword, attribute or rule id.
AnnotatedCase parse_annotated_case(const std::string& name, const std::string& text);

struct CaseOutcome {
  std::vector<std::string> failures;  // "name:line: expected ...; got ..."
  std::vector<std::string> gaps;      // todo- annotations that do not hold (or now hold)
};

// The case's code through the built-in Analyzer, fenced as a response, checked against its
// annotations (evidence lines are the file's lines).
CaseOutcome check_annotated_case(const AnnotatedCase& annotated);

}  // namespace codebias::test_support
