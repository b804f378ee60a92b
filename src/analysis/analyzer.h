// The static code-bias analyzer: one response in, per-attribute findings out.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attributes/attributes.h"
#include "analysis/findings/report.h"

namespace codebias::analysis {

struct AnalyzeOptions {
  std::string scenario;                 // "job", "edu", "med" or "" (unknown: every attribute is sensitive)
  std::vector<std::string> attributes;  // attributes the prompt offered; reported even when unused
  bool only_listed = false;             // true: report only `attributes` (the --attributes flag)
  std::string function;                 // the function the prompt asked for, when known
};

namespace ir {
struct Program;
struct Function;
}  // namespace ir

// The scoring function of a block's code: the one named in the request when known, else one
// named like a scoring function, not a helper of another function, returning a value; of
// several, the last (models often restate their final answer). `requested` is normalized with
// normalize_literal. Null when the code defines no function.
const ir::Function* choose_entry(const ir::Program& program, const std::string& requested);

// Thread-safe: one Analyzer may serve every worker thread.
class Analyzer {
 public:
  // `slice` = false parses every statement (slower); results are the same, which tests check.
  explicit Analyzer(AttributeTable table, bool slice = true);
  ~Analyzer();
  ResponseReport analyze(std::string_view response, const AnalyzeOptions& options) const;
  const AttributeTable& attributes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace codebias::analysis
