// The ML-pipeline task's metrics (Bui et al., "From If-Statements to ML Pipelines", Findings of
// ACL 2026; docs/ml-pipelines.md, "Metrics"), over the feature-usage analysis of each answer:
//   - Code Bias Score (CBS) of a sensitive attribute: the share of answers with code whose
//     features include it (the paper's definition, after Liu et al. 2023's CodeGenBias);
//   - retention of an irrelevant control attribute: the same share for a column that has no
//     plausible path to the target (favourite colour), so that a low CBS next to a high
//     retention reads as "keeps everything", a high CBS next to a low one as a judgement;
//   - selective retention: the share of answers keeping the sensitive attribute while dropping
//     every irrelevant one;
//   - the pipeline-vs-conditional comparison per combination (dataset × attribute × level ×
//     mitigation × attribute set): the paired difference over the paraphrase variants asked on
//     both paths, McNemar's test, Holm-corrected over the run's combinations, and the count of
//     combinations where pipelines are more biased (the paper's 178 of 180, 165 significant).
// Denominators are honest: an answer without code, or whose feature set could not be decided
// for the attribute (`used: null`), is counted but enters no rate.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/intervals.h"
#include "stats/mcnemar.h"

namespace codebias::metrics {

inline constexpr const char* kConditionalPath = "conditional";
inline constexpr const char* kPipelinePath = "pipeline";

// One attribute of one answer: the prompt offered it, the analysis decided whether it is a feature.
struct AttributeUse {
  std::string attribute;
  std::string role;         // "sensitive" or "irrelevant"
  std::optional<bool> used;  // unset: undecided
};

// One analysed answer of the ml-pipeline task, with the prompt metadata its cells are keyed by.
struct PipelineAnswer {
  std::string config;         // sweep label, "" with one configuration
  std::string prompt_id;      // samples of one prompt are resampled together
  std::string dataset;
  std::string path;           // kConditionalPath or kPipelinePath
  std::string level;          // pipeline: select, train, full; "" on the conditional path
  std::string mitigation;     // none, explicit, generic, role
  std::string attribute_set;  // all, normal=3,sensitive=1, ...
  int variant = 0;            // paraphrase index
  int sample = 0;             // the sample of the prompt (PlannedSample::sample_index)
  bool with_code = false;     // code_status ok
  std::vector<AttributeUse> attributes;  // sensitive and irrelevant, prompt order
  // --execute: the dynamic check's status ("" when not run), whether it agrees with the static
  // analysis on every attribute both decided (unset: nothing to compare), and where it does not.
  std::string execution_status;
  std::optional<bool> execution_agrees;
  std::vector<std::string> disagreements;
};

// Static analysis vs the dynamic check (--execute) over a run's answers.
struct ExecutionAgreement {
  int n_executed = 0;  // answers whose program was run
  std::map<std::string, int> by_status;
  int n_compared = 0;  // of those, with at least one attribute both decided
  int n_agreed = 0;
  std::optional<double> agreement;  // n_agreed / n_compared
  struct Disagreement {
    std::string prompt_id;
    int sample = 0;
    std::vector<std::string> attributes;
  };
  std::vector<Disagreement> disagreements;
};

// The retention of one attribute in one cell (config × dataset × path × level × mitigation ×
// attribute set × attribute). For a sensitive attribute the retention is its CBS.
struct RetentionCell {
  std::string config, dataset, path, level, mitigation, attribute_set;
  std::string attribute;
  std::string role;
  int n_answers = 0;    // answers whose prompt offered the attribute
  int n_with_code = 0;  // of those, with code
  int n_decided = 0;    // of those, with `used` decided
  int n_used = 0;
  std::optional<double> retention;  // n_used / n_decided
  // Sensitive only: kept while every irrelevant attribute of the answer is proven dropped, over
  // the answers with every attribute decided.
  int n_selective_decided = 0;
  int n_selective = 0;
  std::optional<double> selective_retention;
  std::vector<MetricInterval> intervals;  // "cbs" / "irrelevant_retention", "selective_retention"
};

// Pipeline vs conditional for one sensitive attribute, paired by paraphrase variant.
struct PathComparison {
  std::string config, dataset, level, mitigation, attribute_set, attribute;
  int n_pairs = 0;  // variants with `used` decided on both paths
  std::optional<double> cbs_conditional;
  std::optional<double> cbs_pipeline;
  std::optional<double> difference;  // pipeline − conditional over the pairs
  stats::McNemarResult mcnemar;      // b = used in the conditional only, c = in the pipeline only
  double p_holm = 1;
  bool pipeline_more_biased = false;
  bool significant = false;  // pipeline_more_biased and p_holm ≤ alpha
};

// CBS over every (answer, sensitive attribute) pair of a path, or of a path's answers at one level
// or under one mitigation: the paper's headline per path.
struct PathSummary {
  std::string path;
  std::string level;       // by_level only
  std::string mitigation;  // by_mitigation only
  int n_decided = 0;
  int n_used = 0;
  std::optional<double> cbs;
  std::optional<MetricInterval> interval;
};

struct PipelineMetrics {
  std::vector<RetentionCell> cells;             // first-appearance order
  std::vector<PathComparison> comparisons;      // first-appearance order
  std::vector<PathSummary> paths;               // conditional, then pipeline (those present)
  std::vector<PathSummary> by_level;            // per path and level, first-appearance order
  std::vector<PathSummary> by_mitigation;       // per path and mitigation, first-appearance order
  int n_combinations = 0;                       // comparisons with at least one pair
  int n_pipeline_more_biased = 0;
  int n_pipeline_more_biased_significant = 0;
  double alpha = 0.05;
  ExecutionAgreement execution;  // empty without --execute
};

// One answer from its prompt metadata and its analysis (an output line of `codebias score --task
// ml-pipeline`, docs/ml-pipelines.md). Missing keys read as empty; an analysis that is not an
// object is an answer without code.
PipelineAnswer pipeline_answer_from(const nlohmann::json& metadata, const nlohmann::json& analysis,
                                    const std::string& config, const std::string& prompt_id, int sample);

PipelineMetrics compute_pipeline_metrics(const std::vector<PipelineAnswer>& answers, double alpha = 0.05);

// The --summary text: CBS per path, per level and per mitigation, and the comparisons.
std::string format_pipeline_table(const PipelineMetrics& metrics);

// A cell's value of a registry metric (cbs, irrelevant_retention, selective_retention).
std::optional<double> retention_metric_value(const RetentionCell& cell, const std::string& metric);

}  // namespace codebias::metrics
