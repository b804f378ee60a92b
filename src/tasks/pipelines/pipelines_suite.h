// The ML-pipeline task's part of a suite file ("pipelines"; docs/suites.md), parsed by its task: the registry
// row's suite part (tasks/task.h), read back with Suite::part<suites::PipelinesPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::suites {

// ---- ML pipelines (Bui et al., Findings of ACL 2026; docs/ml-pipelines.md) ----

enum class ColumnRole { normal, sensitive, irrelevant };
enum class ColumnType { categorical, integer, real };  // "float" in suite files and metadata

struct NumericRange {
  double low = 0;
  double high = 0;
};

// One column of a dataset a prompt offers: a feature a decision may or may not use.
struct DatasetColumn {
  std::string name;  // a snake_case identifier (dict key, parameter, DataFrame column)
  ColumnRole role = ColumnRole::normal;
  ColumnType type = ColumnType::categorical;
  std::vector<std::string> values;     // categorical: its values (sensitive: the groups)
  std::optional<NumericRange> range;   // integer and float columns
  std::string unit;                    // numeric columns; may be empty
  std::string description;             // may be empty
  std::string kind;                    // sensitive: "core" or "contested" (NOTES.md §2)
  bool injected = false;               // sensitive: added to data that never had it
};

struct DatasetTarget {
  std::string name;
  std::vector<std::string> values;  // as written in prompts
  bool integer_values = false;      // the values are integers (1 / 0), not strings
};

struct Dataset {
  std::string name;     // "german_credit"
  std::string domain;   // a short phrase: "consumer credit scoring"
  std::string subject;  // who or what a decision is about: "applicant"
  std::string task;     // one sentence: "Decide whether ..."
  std::string source;
  DatasetTarget target;
  std::vector<DatasetColumn> columns;  // every offered column, in the source's order; not the target
};

// How a template shows the offered columns: a bullet list, a CSV header with sample rows (the
// target last), or a JSON schema of one row.
enum class ColumnLayout { bullets, csv, json_schema };

struct RequestTemplate {
  ColumnLayout columns_as = ColumnLayout::bullets;
  std::string text;  // placeholders: docs/suites.md ("pipelines")
};

// One rung of the pipeline route's difficulty ladder ("select", "train", "full").
struct PipelineLevel {
  std::string name;
  std::string description;
  std::vector<RequestTemplate> templates;  // the paraphrase variants
};

// A mitigation prompt appended to the request; "none" is the request alone.
struct Mitigation {
  std::string name;
  std::string description;
  std::string text;  // may name the prompt's sensitive columns: {sensitive_names}
};

// Which columns a prompt offers: "all", or "normal=<N|all>,sensitive=<1|all>" (irrelevant
// columns are always all offered). A one-sensitive set makes one prompt per sensitive column.
struct AttributeSet {
  std::string name;
  std::optional<std::size_t> normal;  // unset: every normal column
  bool one_sensitive = false;
};

struct PipelinesPart {
  static constexpr std::string_view kSuiteKey = "pipelines";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::string system;                       // the constant system message
  std::vector<std::string> estimators;      // scikit-learn classes, drawn uniformly per variant
  std::vector<AttributeSet> attribute_sets;
  std::vector<Mitigation> mitigations;      // besides "none"
  std::vector<RequestTemplate> conditional; // the conditional route's paraphrase variants
  std::vector<PipelineLevel> levels;        // the pipeline route's ladder, easiest first
  std::vector<Dataset> datasets;

  const Dataset* find_dataset(std::string_view name) const;
  const PipelineLevel* find_level(std::string_view name) const;
  const Mitigation* find_mitigation(std::string_view name) const;
  const AttributeSet* find_attribute_set(std::string_view name) const;
};

// As written in suite files and prompt metadata: "normal", "sensitive", "irrelevant";
// "categorical", "integer", "float".
std::string_view to_string(ColumnRole role);
std::string_view to_string(ColumnType type);

}  // namespace codebias::suites

namespace codebias::tasks {

extern const suites::TaskPartParser kPipelinesSuitePart;

}  // namespace codebias::tasks
