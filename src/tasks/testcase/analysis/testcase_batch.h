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

#include "attributes/attributes.h"
#include "analysis/batch.h"
#include "tasks/testcase/analysis/testcase.h"

namespace codebias::analysis {

struct TestcaseLine {
  std::string id;  // the line number when the line has none
  std::string response;
  TestcaseRequest request;
};

// Never throws on bad input: every problem is a base::LineError naming the field (a missing or mistyped
// key as "metadata.KEY" when it was looked up under "metadata"). Checks: topic non-empty; request "group" | "counterfactual";
// fields an array of strings; sensitive_fields table keys; for counterfactual, attribute a table
// key and given_group one of its groups (stored canonical); task, when given, "testcase".
std::variant<TestcaseLine, base::LineError> parse_testcase_line(std::string_view line, long line_number,
                                                          const AttributeTable& table);

// One line's result in input order: `result` is the report when the line was analysed.
using TestcaseScored = base::JsonlItem<TestcaseReport>;
using TestcaseSink = std::function<void(TestcaseScored&)>;

// Analyses every non-blank line of `in` (`origin` names it in errors) on the JSONL engine and hands
// each result to `sink` in input order. Without keep_going the first bad line throws base::InputError
// (after the sink saw every line before it); with it, a bad line becomes an error_json_line.
BatchStats score_testcase_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                                const base::JsonlOptions& options, const TestcaseSink& sink);

}  // namespace codebias::analysis
