// The table of reasoning-bias detectors: the --detector names, which can be trained, which ask an
// engine, and how each is made. A detector that this build cannot run is listed, and asking for it
// throws DetectorUnavailable: never a silent fallback to another detector.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "detectors/detector.h"
#include "detectors/engine_calls.h"

namespace codebias::detectors {

struct DetectorConfig {
  std::string model_path;  // the model file of a trainable detector (required for them)
  EngineConfig engine;     // for detectors that ask a model (probe): where
};

struct TrainOptions {
  std::uint64_t seed = 1;  // SVM coordinate order; recorded in the model file
  EngineConfig engine;     // the probe's target model, whose losses set the threshold
};

struct TrainedDetector {
  std::unique_ptr<Detector> detector;
  nlohmann::json model_file;  // what `codebias detect train --out` writes
};

// One row of the table. A new detector (the LLM judge, the probe) is one more row with its own
// make (and train) function; callers go through make_detector / train_detector only.
struct DetectorInfo {
  std::string_view name;
  std::string_view description;
  // Null when this build cannot run the detector (then `unavailable_reason` says why).
  std::unique_ptr<Detector> (*make)(const DetectorConfig& config) = nullptr;
  // Null for a detector that is not trained; else `codebias detect train` makes its model file
  // and scoring needs --model.
  TrainedDetector (*train)(std::span<const LabelledTrace> traces, const TrainOptions& options) = nullptr;
  bool trainable = false;  // known even when the build cannot run it
  bool needs_engine = false;  // asks a model through an endpoint (DetectorConfig::engine)
  std::string_view unavailable_reason;
};

class DetectorUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every detector, in --help order.
std::span<const DetectorInfo> detector_table();
// nullptr for a name not in the table.
const DetectorInfo* find_detector(std::string_view name);
// The row of a detector this build can run; std::invalid_argument for an unknown name,
// DetectorUnavailable for one it cannot run.
const DetectorInfo& require_detector(std::string_view name);
// "keywords, tfidf-lr, tfidf-svm, steps-lr, judge, probe"
std::string detector_names();

// Throws std::invalid_argument for an unknown name or a missing/unneeded model file,
// DetectorUnavailable for a listed detector this build cannot run, and std::runtime_error
// naming the file for a model file that cannot be read or has the wrong format or version.
std::unique_ptr<Detector> make_detector(std::string_view name, const DetectorConfig& config);

// Trains a trainable detector on labelled traces (both labels needed). Throws as make_detector,
// and std::invalid_argument for a detector that is not trainable.
TrainedDetector train_detector(std::string_view name, std::span<const LabelledTrace> traces,
                               const TrainOptions& options);

}  // namespace codebias::detectors
