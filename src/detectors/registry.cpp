#include "detectors/registry.h"

#include <array>

#include "detectors/keywords_detector.h"
#include "detectors/linear_detector.h"

namespace codebias::detectors {
namespace {

constexpr std::string_view kNeedsEngine =
    "needs a generation engine for the detector model, which this build does not wire into `codebias detect` yet";

constexpr std::array<DetectorInfo, 5> kDetectors = {{
    {"keywords", "attribute words near decision phrases, with negation, exclusion, rejection and retraction (rules: data/detectors/keyword_rules.json)", false, true, ""},
    {"tfidf-lr", "TF-IDF word 1-2-grams and character 3-5-grams + logistic regression, trained on labelled traces", true, true, ""},
    {"tfidf-svm", "TF-IDF word 1-2-grams and character 3-5-grams + linear SVM, trained on labelled traces", true, true, ""},
    {"judge", "an LLM judge through the generation engine (ProbeDebias's labelling protocol)", false, false, kNeedsEngine},
    {"probe", "ProbeDebias's probe loss from prompt log-probabilities of the target model", true, false, kNeedsEngine},
}};

const DetectorInfo& require(std::string_view name) {
  const DetectorInfo* info = find_detector(name);
  if (info == nullptr)
    throw std::invalid_argument("unknown detector \"" + std::string(name) + "\" (detectors: " + detector_names() + ")");
  if (!info->available)
    throw DetectorUnavailable("detector " + std::string(name) + " is not available in this build: " +
                              std::string(info->unavailable_reason));
  return *info;
}

LinearKind linear_kind(std::string_view name) {
  return name == "tfidf-lr" ? LinearKind::logistic_regression : LinearKind::linear_svm;
}

}  // namespace

std::span<const DetectorInfo> detector_table() { return kDetectors; }

const DetectorInfo* find_detector(std::string_view name) {
  for (const DetectorInfo& info : kDetectors)
    if (info.name == name) return &info;
  return nullptr;
}

std::string detector_names() {
  std::string names;
  for (const DetectorInfo& info : kDetectors) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

std::unique_ptr<Detector> make_detector(std::string_view name, const DetectorConfig& config) {
  const DetectorInfo& info = require(name);
  const KeywordRules& rules = KeywordRules::builtin();
  const analysis::AttributeTable& table = analysis::AttributeTable::builtin();
  if (!info.trainable) {
    if (!config.model_path.empty())
      throw std::invalid_argument("detector " + std::string(name) + " takes no model file (--model)");
    return std::make_unique<KeywordsDetector>(rules, table);
  }
  if (config.model_path.empty())
    throw std::invalid_argument("detector " + std::string(name) +
                                " needs a model file (--model FILE, made by `codebias detect train`)");
  return std::make_unique<LinearDetector>(LinearDetector::load(config.model_path, linear_kind(name), rules, table));
}

TrainedDetector train_detector(std::string_view name, std::span<const LabelledTrace> traces, const TrainOptions& options) {
  const DetectorInfo& info = require(name);
  if (!info.trainable) throw std::invalid_argument("detector " + std::string(name) + " is not trained");
  LinearTrainOptions train;
  train.svm.seed = options.seed;
  auto detector = std::make_unique<LinearDetector>(LinearDetector::train(
      linear_kind(name), traces, train, KeywordRules::builtin(), analysis::AttributeTable::builtin()));
  TrainedDetector out;
  out.model_file = detector->to_json();
  out.model_file["training"]["seed"] = options.seed;
  out.detector = std::move(detector);
  return out;
}

}  // namespace codebias::detectors
