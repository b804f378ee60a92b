#include "detectors/registry.h"

#include <array>

#include "detectors/keywords_detector.h"
#include "detectors/linear_detector.h"

namespace codebias::detectors {
namespace {

constexpr std::string_view kNeedsEngine =
    "needs a generation engine for the detector model, which this build does not wire into `codebias detect` yet";

std::unique_ptr<Detector> make_keywords(const DetectorConfig& config) {
  if (!config.model_path.empty()) throw std::invalid_argument("detector keywords takes no model file (--model)");
  return std::make_unique<KeywordsDetector>(KeywordRules::builtin(), analysis::AttributeTable::builtin());
}

template <LinearKind kind>
std::unique_ptr<Detector> make_linear(const DetectorConfig& config) {
  if (config.model_path.empty())
    throw std::invalid_argument("detector " + std::string(linear_kind_name(kind)) +
                                " needs a model file (--model FILE, made by `codebias detect train`)");
  return std::make_unique<LinearDetector>(
      LinearDetector::load(config.model_path, kind, KeywordRules::builtin(), analysis::AttributeTable::builtin()));
}

template <LinearKind kind>
TrainedDetector train_linear(std::span<const LabelledTrace> traces, const TrainOptions& options) {
  LinearTrainOptions train;
  train.svm.seed = options.seed;
  auto detector = std::make_unique<LinearDetector>(
      LinearDetector::train(kind, traces, train, KeywordRules::builtin(), analysis::AttributeTable::builtin()));
  TrainedDetector out;
  out.model_file = detector->to_json();
  out.model_file["training"]["seed"] = options.seed;
  out.detector = std::move(detector);
  return out;
}

constexpr std::array<DetectorInfo, 5> kDetectors = {{
    {"keywords", "attribute words near decision phrases, with negation, exclusion, rejection and retraction (rules: data/detectors/keyword_rules.json)",
     make_keywords, nullptr, false, ""},
    {"tfidf-lr", "TF-IDF word 1-2-grams and character 3-5-grams + logistic regression, trained on labelled traces",
     make_linear<LinearKind::logistic_regression>, train_linear<LinearKind::logistic_regression>, true, ""},
    {"tfidf-svm", "TF-IDF word 1-2-grams and character 3-5-grams + linear SVM, trained on labelled traces",
     make_linear<LinearKind::linear_svm>, train_linear<LinearKind::linear_svm>, true, ""},
    {"judge", "an LLM judge through the generation engine (ProbeDebias's labelling protocol)", nullptr, nullptr, false, kNeedsEngine},
    {"probe", "ProbeDebias's probe loss from prompt log-probabilities of the target model", nullptr, nullptr, true, kNeedsEngine},
}};

}  // namespace

std::span<const DetectorInfo> detector_table() { return kDetectors; }

const DetectorInfo* find_detector(std::string_view name) {
  for (const DetectorInfo& info : kDetectors)
    if (info.name == name) return &info;
  return nullptr;
}

const DetectorInfo& require_detector(std::string_view name) {
  const DetectorInfo* info = find_detector(name);
  if (info == nullptr)
    throw std::invalid_argument("unknown detector \"" + std::string(name) + "\" (detectors: " + detector_names() + ")");
  if (info->make == nullptr)
    throw DetectorUnavailable("detector " + std::string(name) + " is not available in this build: " +
                              std::string(info->unavailable_reason));
  return *info;
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
  return require_detector(name).make(config);
}

TrainedDetector train_detector(std::string_view name, std::span<const LabelledTrace> traces, const TrainOptions& options) {
  const DetectorInfo& info = require_detector(name);
  if (info.train == nullptr) throw std::invalid_argument("detector " + std::string(name) + " is not trained");
  return info.train(traces, options);
}

}  // namespace codebias::detectors
