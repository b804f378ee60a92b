// The pipeline path's static data flow (docs/ml-pipelines.md, "Feature-usage analysis"): which
// source columns of the prompt's schema reach an estimator's fit, over tree-sitter Python trees.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/parsing/syntax.h"
#include "tasks/pipelines/analysis/pipeline_request.h"

namespace codebias::analysis::pipelines {

// One parsed Python block; the blocks of an answer run in order, as one program.
struct CodeUnit {
  const SyntaxTree* tree = nullptr;
  int first_line = 1;  // the line that the code's first line has in what evidence lines count
};

struct FlowEvidence {
  int line = 0;
  const char* rule = "";
};

struct ColumnFlow {
  std::optional<bool> used;  // true: proven to reach fit; false: proven left out; empty: undecided
  std::vector<FlowEvidence> evidence;
};

struct FlowResult {
  std::optional<std::vector<int>> features;  // indices into request.columns, in that order
  std::string reason;                        // set when features is empty
  std::vector<ColumnFlow> columns;           // one per request column
};

// Never throws on any input; work is bounded (a large program ends with features empty).
FlowResult analyze_pipeline_flow(std::span<const CodeUnit> units, const PipelineRequest& request);

}  // namespace codebias::analysis::pipelines
