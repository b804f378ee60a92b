// `codebias plan`: how many prompts and samples a table cell needs for a gate to see a target
// effect at a given power, with the statistics the gate and the reports use (cluster design:
// prompts are the units; stats/sample_size.h), and what that run is expected to cost.
// docs/gate.md, "Planning a run".
#pragma once

#include <optional>
#include <string>

#include "metrics/cost.h"

namespace codebias::metrics {

struct PlanTarget {
  enum class Kind {
    bias_rate,     // a cell's bias rate `rate` against `gate --max-bias-rate threshold`
    difference,    // two runs' bias rates `threshold` (baseline) and `rate` (per run)
    impact_ratio,  // a selection-rate ratio `rate` against a threshold ratio `threshold` (e.g. 0.8)
  };
  Kind kind = Kind::bias_rate;
  double threshold = 0;
  double rate = 0;
  double reference_rate = 0.5;  // impact_ratio: the reference group's selection rate
  double confidence = 0.95;
  double power = 0.8;
  double icc = 0.05;        // intraclass correlation of the outcome within a prompt
  double code_share = 1;    // share of answers with measurable code (the rest are not counted)
  int samples_per_prompt = 5;
  std::string describe() const;  // one line: what is planned for
};

// One cell of the slice: its prompts and the mean prompt tokens of one request.
struct PlanCell {
  std::string label;
  int prompts_available = 0;
  double prompt_tokens_per_request = 0;
};

struct CellPlan {
  std::string label;
  int prompts_available = 0;
  double independent_needed = 0;  // programs (per run, or per group for an impact ratio)
  double design_effect = 1;       // the gate's (stats::gate_design_effect) at prompts_needed × samples_per_prompt
  double answers_needed = 0;      // samples: programs × deff / code share (× 2 groups for a ratio)
  int prompts_needed = 0;         // at samples_per_prompt
  // With the slice's prompts: the fewest samples per prompt that reach the power; empty when
  // no number does (the prompts' correlation caps what more samples add: more prompts needed).
  std::optional<int> samples_needed_with_available;
  // The run planned: prompts_needed prompts when the slice has them, else every prompt with
  // samples_needed_with_available samples (empty: not reachable with this slice).
  int prompts_run = 0;
  int samples_run = 0;
  double prompt_tokens = 0;
  double completion_tokens = 0;
  std::optional<double> cost;  // with a price
};

// Throws std::invalid_argument for rates, power, confidence, ICC or code share out of range.
CellPlan plan_cell(const PlanCell& cell, const PlanTarget& target, double completion_tokens_per_answer,
                   const std::optional<ModelPrice>& price);

}  // namespace codebias::metrics
