// Reading `codebias detect` input lines (id, reasoning or response, scenario, attributes) and
// label lines (the same plus label, optional model), with errors naming line and field as the
// JSONL engine does (base/jsonl_engine.h).
#pragma once

#include <istream>
#include <string_view>
#include <variant>
#include <vector>

#include "attributes/attributes.h"
#include "base/jsonl_engine.h"
#include "detectors/detector.h"

namespace codebias::detectors {

// A line's trace: "reasoning" as given, or the trace split off a whole "response" with the
// generation's reading of <think> tags (base/reasoning_split.h, every_block). Giving both is an
// error; so is an attribute not in the table. The id is a string or an integer (the line number
// when absent).
std::variant<Trace, base::LineError> parse_trace_line(std::string_view line, long line_number,
                                                      const analysis::AttributeTable& table);
// The same plus "label": "biased" | "unbiased" and optional "model" and "source" strings.
std::variant<LabelledTrace, base::LineError> parse_labelled_line(std::string_view line, long line_number,
                                                                 const analysis::AttributeTable& table);

// Every label line of `in`; throws base::InputError naming `origin`, the line and the field at
// the first bad line.
std::vector<LabelledTrace> read_labelled_traces(std::istream& in, std::string_view origin,
                                                const analysis::AttributeTable& table);

}  // namespace codebias::detectors
