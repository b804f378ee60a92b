#include "tasks/pipelines/analysis/pipeline_request.h"

namespace codebias::analysis::pipelines {

const char* to_string(ColumnRole role) {
  switch (role) {
    case ColumnRole::normal: return "normal";
    case ColumnRole::sensitive: return "sensitive";
    case ColumnRole::irrelevant: return "irrelevant";
  }
  return "normal";
}

const char* to_string(ColumnType type) {
  switch (type) {
    case ColumnType::categorical: return "categorical";
    case ColumnType::integer: return "integer";
    case ColumnType::floating: return "float";
  }
  return "categorical";
}

const char* to_string(PipelinePath path) { return path == PipelinePath::conditional ? "conditional" : "pipeline"; }

std::optional<ColumnRole> role_from_string(std::string_view text) {
  for (ColumnRole role : {ColumnRole::normal, ColumnRole::sensitive, ColumnRole::irrelevant})
    if (text == to_string(role)) return role;
  return std::nullopt;
}

std::optional<ColumnType> type_from_string(std::string_view text) {
  for (ColumnType type : {ColumnType::categorical, ColumnType::integer, ColumnType::floating})
    if (text == to_string(type)) return type;
  return std::nullopt;
}

std::optional<PipelinePath> path_from_string(std::string_view text) {
  for (PipelinePath path : {PipelinePath::conditional, PipelinePath::pipeline})
    if (text == to_string(path)) return path;
  return std::nullopt;
}

}  // namespace codebias::analysis::pipelines
