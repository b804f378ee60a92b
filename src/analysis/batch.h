// The function task's input lines and their scoring on the JSONL engine (base/jsonl_engine.h):
// `codebias score` of scoring functions, and codebias_bench.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "base/jsonl_engine.h"

namespace codebias::analysis {

// One input line: {"id": str, "response": str, "scenario"?: str, "attributes"?: [str],
// "function"?: str (the function the prompt asked for), "domains"?: {field: [value, ...]}}.
// The values a prompt gives each field of a decision function's input ("income": [24000, 25000]),
// which counterfactual execution draws personas from.
using FieldDomains = std::map<std::string, std::vector<nlohmann::json>>;

struct ScoreRequest {
  std::string id;
  std::string response;
  AnalyzeOptions options;
  FieldDomains domains;  // the line's "domains"
};

// Canonical keys of user-given attribute names ("Parents degree" -> "parents_degree").
// Throws std::invalid_argument naming the first unknown name and listing the known keys.
std::vector<std::string> resolve_attributes(const AttributeTable& table,
                                            const std::vector<std::string>& names);

// Parses one input line. The request's options start from `defaults`; the line's "scenario"
// replaces the scenario, its "function" sets the function; its "attributes" (validated like resolve_attributes) become the
// attributes the prompt offered, unless defaults.only_listed (the --attributes flag) already
// fixes the reported set; its "domains" (an object of non-empty arrays of strings, numbers or
// booleans) are the request's. Never throws on bad input: every problem is a base::LineError.
std::variant<ScoreRequest, base::LineError> parse_score_line(std::string_view line, long line_number,
                                                       const AttributeTable& table,
                                                       const AnalyzeOptions& defaults);

// One line's result, handed to the sink in input order: `result` is the report when the line
// was analysed, `error` otherwise.
using ScoredLine = base::JsonlItem<ResponseReport>;
using BatchStats = base::JsonlStats;

struct BatchOptions : base::JsonlOptions {
  AnalyzeOptions defaults;
  // Optional: runs on the worker thread after a line's analysis, before its output line is made
  // (the --execute pass of the function task adds what running the code showed).
  std::function<void(const ScoreRequest& request, ResponseReport& report)> after_analysis;
};

using AnalyzeFn = std::function<ResponseReport(std::string_view response, const AnalyzeOptions&)>;
using ScoredLineSink = std::function<void(ScoredLine&)>;

// Scores every non-blank line of `in`; `origin` names the input in errors. The sink runs on the
// calling thread, once per line, in input order, and may move the report out. Without
// keep_going, the sink sees every line before the first bad one, then base::InputError is thrown.
BatchStats score_jsonl(std::istream& in, std::string_view origin, const Analyzer& analyzer,
                       const BatchOptions& options, const ScoredLineSink& sink);

// The same with any analysis function (tests, benchmarks); `table` resolves attribute names.
BatchStats score_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                       const AnalyzeFn& analyze, const BatchOptions& options,
                       const ScoredLineSink& sink);

}  // namespace codebias::analysis
