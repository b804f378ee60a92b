// The engine of `codebias score --task testcase`: JSONL lines {"id", "response", "metadata": {...}}
// (or the metadata keys at the top level; docs/testcases.md lists every key) in, one report line
// per input line out, in input order.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "analysis/attributes.h"
#include "analysis/batch.h"
#include "analysis/testcase.h"

namespace codebias::analysis {

struct TestcaseLine {
  std::string id;  // the line number when the line has none
  std::string response;
  TestcaseRequest request;
};

// Never throws on bad input: every problem is a LineError naming the field (a missing or mistyped
// key as "metadata.KEY" when it was looked up under "metadata"). Checks: topic non-empty; request "group" | "counterfactual";
// fields an array of strings; sensitive_fields table keys; for counterfactual, attribute a table
// key and given_group one of its groups (stored canonical); task, when given, "testcase".
std::variant<TestcaseLine, LineError> parse_testcase_line(std::string_view line, long line_number,
                                                          const AttributeTable& table);

struct TestcaseScored {
  long line = 0;
  std::optional<TestcaseReport> report;  // set when the line was analysed
  std::string json;                      // the output line without '\n' (report or error object)
};

// Analyses every non-blank line of `in` (`origin` names it in errors) and hands each result to
// `sink` in input order. Without keep_going the first bad line throws InputError (after the sink
// saw every line before it); with it, a bad line becomes an error_json_line and counts in errors.
BatchStats score_testcase_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                                bool keep_going, const std::function<void(TestcaseScored&)>& sink);

}  // namespace codebias::analysis
