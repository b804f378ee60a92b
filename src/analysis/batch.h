// Scoring a JSONL stream of responses: read lines in bounded batches, analyse each batch on a
// pool of threads, hand the results back in input order. The engine of `codebias score` and of
// codebias_bench; memory is bounded by one batch, whatever the input size.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analysis/analyzer.h"
#include "base/jsonl.h"

namespace codebias::analysis {

// The scenarios AnalyzeOptions understands ("" = unknown).
inline constexpr std::string_view kScenarios[] = {"job", "edu", "med"};

// One input line: {"id": str, "response": str, "scenario"?: str, "attributes"?: [str],
// "function"?: str (the function the prompt asked for)}.
struct ScoreRequest {
  std::string id;
  std::string response;
  AnalyzeOptions options;
};

// What was wrong with one input line (or, when `internal`, the analyzer failed on it).
struct LineError {
  long line = 0;                  // 1-based
  std::string field;              // "id", "response", "scenario", "attributes", "function"; "" = whole line
  std::string message;            // without file or line
  std::optional<std::string> id;  // the line's id when it was readable
  bool internal = false;

  // `field "response": expected a string, got number`, or just the message when no field.
  std::string describe() const;
};

// Thrown by score_jsonl without keep_going; what() is "ORIGIN:LINE: field \"F\": MESSAGE".
class InputError : public std::runtime_error {
 public:
  InputError(std::string_view origin, LineError error);
  const LineError& error() const { return error_; }

 private:
  LineError error_;
};

// Canonical keys of user-given attribute names ("Parents degree" -> "parents_degree").
// Throws std::invalid_argument naming the first unknown name and listing the known keys.
std::vector<std::string> resolve_attributes(const AttributeTable& table,
                                            const std::vector<std::string>& names);

// Parses one input line. The request's options start from `defaults`; the line's "scenario"
// replaces the scenario, its "function" sets the function; its "attributes" (validated like resolve_attributes) become the
// attributes the prompt offered, unless defaults.only_listed (the --attributes flag) already
// fixes the reported set. Never throws on bad input: every problem is a LineError.
std::variant<ScoreRequest, LineError> parse_score_line(std::string_view line, long line_number,
                                                       const AttributeTable& table,
                                                       const AnalyzeOptions& defaults);

// {"id": <id or null>, "error": "<describe()>", "line": N}: the --keep-going output line.
std::string error_json_line(const LineError& error);

// One line's result, handed to the sink in input order.
struct ScoredLine {
  long line = 0;
  std::optional<std::string> id;
  std::optional<ResponseReport> report;  // set when the line was analysed
  std::optional<LineError> error;        // set otherwise
  std::string json;                      // the output line without '\n' (report or error object)
};

struct BatchOptions {
  AnalyzeOptions defaults;
  unsigned threads = 0;                                  // 0: std::thread::hardware_concurrency()
  // Lines analysed together, or fewer once they hold batch_bytes. Two batches are held at a time
  // (one scored while the other is read and written), so input memory stays under 2 x batch_bytes.
  std::size_t batch_lines = 256;
  std::size_t batch_bytes = std::size_t{32} << 20;
  std::size_t max_line_bytes = base::kDefaultMaxLineBytes;  // longer lines are errors
  bool keep_going = false;  // false: throw InputError at the first bad line
};

struct BatchStats {
  long lines = 0;      // input lines read, blank ones included
  long responses = 0;  // lines analysed
  long errors = 0;     // lines that were errors (only with keep_going; else InputError)
};

using AnalyzeFn = std::function<ResponseReport(std::string_view response, const AnalyzeOptions&)>;
using ScoredLineSink = std::function<void(ScoredLine&)>;

// Scores every non-blank line of `in`; `origin` names the input in errors. The sink runs on the
// calling thread, once per line, in input order, and may move the report out. Without
// keep_going, the sink sees every line before the first bad one, then InputError is thrown.
BatchStats score_jsonl(std::istream& in, std::string_view origin, const Analyzer& analyzer,
                       const BatchOptions& options, const ScoredLineSink& sink);

// The same with any analysis function (tests, benchmarks); `table` resolves attribute names.
BatchStats score_jsonl(std::istream& in, std::string_view origin, const AttributeTable& table,
                       const AnalyzeFn& analyze, const BatchOptions& options,
                       const ScoredLineSink& sink);

}  // namespace codebias::analysis
