#include "detectors/registry.h"

#include <algorithm>
#include <array>

#include "detectors/keywords_detector.h"
#include "detectors/judge_detector.h"
#include "detectors/linear_detector.h"
#include "detectors/probe_detector.h"
#include "detectors/steps_detector.h"

namespace codebias::detectors {
namespace {

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

std::unique_ptr<Detector> make_steps(const DetectorConfig& config) {
  if (config.model_path.empty())
    throw std::invalid_argument("detector steps-lr needs a model file (--model FILE, made by `codebias detect train`)");
  return std::make_unique<StepsDetector>(
      StepsDetector::load(config.model_path, KeywordRules::builtin(), analysis::AttributeTable::builtin()));
}

TrainedDetector train_steps(std::span<const LabelledTrace> traces, const TrainOptions& options) {
  auto detector = std::make_unique<StepsDetector>(
      StepsDetector::train(traces, KeywordRules::builtin(), analysis::AttributeTable::builtin()));
  TrainedDetector out;
  out.model_file = detector->to_json();
  out.model_file["training"]["seed"] = options.seed;
  out.detector = std::move(detector);
  return out;
}

std::unique_ptr<Detector> make_judge(const DetectorConfig& config) {
  if (!config.model_path.empty()) throw std::invalid_argument("detector judge takes no model file (--model)");
  return std::make_unique<JudgeDetector>(config.engine);
}

std::unique_ptr<Detector> make_probe(const DetectorConfig& config) {
  if (config.model_path.empty())
    throw std::invalid_argument(
        "detector probe needs its calibrated threshold (--model FILE, made by `codebias detect train --detector probe`)");
  return std::make_unique<ProbeDetector>(ProbeDetector::load(config.model_path, config.engine));
}

TrainedDetector train_probe(std::span<const LabelledTrace> traces, const TrainOptions& options) {
  std::vector<Trace> plain;
  std::vector<bool> biased;
  for (const LabelledTrace& t : traces) {
    plain.push_back(t.trace);
    biased.push_back(t.biased);
  }
  const std::vector<double> losses = ProbeDetector(options.engine, 0).losses(plain);
  const ProbeThreshold threshold = youden_threshold(losses, biased);
  double loss_biased = 0, loss_unbiased = 0;
  const auto positives = std::count(biased.begin(), biased.end(), true);
  for (std::size_t i = 0; i < losses.size(); ++i) (biased[i] ? loss_biased : loss_unbiased) += losses[i];
  auto detector = std::make_unique<ProbeDetector>(options.engine, threshold.threshold);
  TrainedDetector out;
  out.model_file = detector->to_json({{"traces", traces.size()},
                                      {"biased", positives},
                                      {"unbiased", static_cast<long>(traces.size()) - positives},
                                      {"threshold_rule", "Youden's J on these traces, biased iff loss < threshold"},
                                      {"youden_j", threshold.youden_j},
                                      {"true_positive_rate", threshold.true_positive_rate},
                                      {"false_positive_rate", threshold.false_positive_rate},
                                      {"mean_loss_biased", loss_biased / static_cast<double>(positives)},
                                      {"mean_loss_unbiased", loss_unbiased / static_cast<double>(traces.size() - positives)}});
  out.detector = std::move(detector);
  return out;
}

constexpr std::array<DetectorInfo, 6> kDetectors = {{
    {"keywords", "attribute words near decision phrases or linked to one by a causal connective, with negation and exclusion in scope, "
     "rejection, correction and clinical use (rules: data/detectors/keyword_rules.json)",
     make_keywords, nullptr, false, false, ""},
    {"tfidf-lr", "TF-IDF word 1-2-grams and character 3-5-grams + logistic regression, trained on labelled traces",
     make_linear<LinearKind::logistic_regression>, train_linear<LinearKind::logistic_regression>, true, false, ""},
    {"tfidf-svm", "TF-IDF word 1-2-grams and character 3-5-grams + linear SVM, trained on labelled traces",
     make_linear<LinearKind::linear_svm>, train_linear<LinearKind::linear_svm>, true, false, ""},
    {"steps-lr", "logistic regression over step features: a group named in a sentence x its decision, causal connective, negation, exclusion, correction and clinical facts",
     make_steps, train_steps, true, false, ""},
    {"judge", "an LLM judge through the generation engine (ProbeDebias's labelling protocol; prompt: data/detectors/judge_prompt.json)",
     make_judge, nullptr, false, true, ""},
    {"probe", "ProbeDebias's probe loss (zero-shot, no LoRA) from the target model's prompt log-probabilities, threshold by Youden's J",
     make_probe, train_probe, true, true, ""},
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
