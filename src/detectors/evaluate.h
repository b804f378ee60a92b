// `codebias detect eval`: train the trainable detectors on one side of a split of labelled traces
// and score every detector on the other (ProbeDebias §4.4.3), or score one given model file on
// every trace.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "detectors/detector.h"
#include "detectors/engine_calls.h"
#include "detectors/evaluation.h"
#include "stats/bootstrap.h"

namespace codebias::detectors {

struct EvaluationPlan {
  std::vector<std::string> detectors;    // --detector names, in order
  std::string model_path;                // set: one trainable detector, this model, every trace tested
  bool no_split = false;                 // every trace tested; only for detectors that need no training
  double train_fraction = 0.5;           // the stratified split
  std::uint64_t seed = 1;                // the split's shuffle and the training seed
  std::vector<std::string> test_models;  // non-empty: the cross-model split instead
  std::vector<std::string> test_sources; // non-empty: the cross-source split instead (not with test_models)
  stats::BootstrapOptions bootstrap;
  EngineConfig engine;                   // for detectors that ask a model (probe)
};

struct EvaluationRun {
  std::string split;  // "stratified", "models", "sources", "given model" or "none"
  std::size_t train_traces = 0;
  std::size_t test_traces = 0;
  std::vector<std::string> test_models;
  std::vector<std::string> test_sources;
  std::vector<DetectorEvaluation> detectors;

  nlohmann::json to_json() const;
};

// Each detector's figures on all test traces and, when any label names its source, on each
// source's test traces apart (DetectorEvaluation::by_source). Throws as make_detector /
// train_detector and the splits do (std::invalid_argument for a plan that does not fit the labels:
// a model split without model fields, --model with several detectors).
EvaluationRun evaluate_detectors(std::span<const LabelledTrace> labels, const EvaluationPlan& plan);

}  // namespace codebias::detectors
