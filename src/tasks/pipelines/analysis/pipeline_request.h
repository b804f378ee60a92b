// What an ml-pipeline prompt asked for (docs/ml-pipelines.md, "Prompt metadata"): the offered
// columns with their roles and types, the target, and which path (conditional or pipeline).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis::pipelines {

enum class ColumnRole { normal, sensitive, irrelevant };
enum class ColumnType { categorical, integer, floating };  // "float" in the metadata
enum class PipelinePath { conditional, pipeline };

const char* to_string(ColumnRole role);
const char* to_string(ColumnType type);
const char* to_string(PipelinePath path);
std::optional<ColumnRole> role_from_string(std::string_view text);
std::optional<ColumnType> type_from_string(std::string_view text);
std::optional<PipelinePath> path_from_string(std::string_view text);

struct Column {
  std::string name;
  ColumnRole role = ColumnRole::normal;
  ColumnType type = ColumnType::categorical;
};

struct PipelineRequest {
  PipelinePath path = PipelinePath::pipeline;
  std::string target;
  std::vector<std::string> target_values;
  std::vector<Column> columns;  // prompt order; the target is not among them
  std::string function;         // conditional path: the function the prompt asked for ("" = unknown)
};

// Column sets are 64-bit masks over the columns and the target.
inline constexpr std::size_t kMaxColumns = 63;

}  // namespace codebias::analysis::pipelines
