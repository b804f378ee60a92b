#include "detectors/steps_detector.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "detectors/linear_detector.h"

namespace codebias::detectors {
namespace {

using nlohmann::json;

constexpr std::size_t kEvidenceFeatures = 8;
constexpr double kThreshold = 0.5;

[[noreturn]] void fail(std::string_view origin, const std::string& field, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": field " + field + ": " + what);
}

}  // namespace

StepsDetector::StepsDetector(LinearModel model, json training, const KeywordRules& rules,
                             const analysis::AttributeTable& table)
    : features_(rules, table), model_(std::move(model)), training_(std::move(training)), rules_(rules), table_(table) {
  if (model_.weights.size() != StepFeaturizer::feature_names().size())
    throw std::invalid_argument(std::to_string(model_.weights.size()) + " weights for " +
                                std::to_string(StepFeaturizer::feature_names().size()) + " step features");
}

StepsDetector StepsDetector::train(std::span<const LabelledTrace> traces, const KeywordRules& rules,
                                   const analysis::AttributeTable& table) {
  const StepFeaturizer featurizer(rules, table);
  std::vector<SparseVector> rows;
  std::vector<bool> labels;
  for (const LabelledTrace& labelled : traces) {
    rows.push_back(featurizer.transform(labelled.trace));
    labels.push_back(labelled.biased);
  }
  LogisticRegressionOptions options;
  options.c = 1;
  TrainingReport report;
  LinearModel model = train_logistic_regression(rows, labels, StepFeaturizer::feature_names().size(), options, &report);
  const auto positives = std::count(labels.begin(), labels.end(), true);
  json training = {{"traces", traces.size()},
                   {"biased", positives},
                   {"unbiased", static_cast<long>(traces.size()) - positives},
                   {"features", StepFeaturizer::feature_names().size()},
                   {"learner", "logistic regression, L-BFGS, balanced class weights"},
                   {"c", options.c},
                   {"iterations", report.iterations},
                   {"converged", report.converged},
                   {"objective", report.objective}};
  return StepsDetector(std::move(model), std::move(training), rules, table);
}

json StepsDetector::to_json() const {
  return {{"format", kModelFormat},    {"version", kModelFormatVersion},
          {"detector", "steps-lr"},    {"features", StepFeaturizer::feature_names()},
          {"weights", model_.weights}, {"bias", model_.bias},
          {"threshold", kThreshold},   {"score", "sigmoid(w.x + b)"},
          {"training", training_}};
}

StepsDetector StepsDetector::from_json(const json& doc, std::string_view origin, const KeywordRules& rules,
                                       const analysis::AttributeTable& table) {
  if (!doc.is_object()) fail(origin, "(top level)", "expected an object");
  if (!doc.contains("format") || doc["format"] != kModelFormat)
    fail(origin, "format", "expected \"" + std::string(kModelFormat) + "\"");
  if (!doc.contains("version") || doc["version"] != kModelFormatVersion)
    throw std::runtime_error(
        std::string(origin) + ": model format version " + (doc.contains("version") ? doc["version"].dump() : "(none)") +
        " is not supported by this build (it reads version 1); train the model again with `codebias detect train`");
  if (!doc.contains("detector") || doc["detector"] != "steps-lr")
    fail(origin, "detector",
         "this file is a model of " + (doc.contains("detector") ? doc["detector"].dump() : "(none)") +
             ", not of steps-lr");
  if (!doc.contains("features") || doc["features"] != json(StepFeaturizer::feature_names()))
    fail(origin, "features", "not the step features of this build; train the model again with `codebias detect train`");
  LinearModel model;
  if (!doc.contains("weights") || !doc["weights"].is_array()) fail(origin, "weights", "expected an array of numbers");
  for (const json& weight : doc["weights"]) {
    if (!weight.is_number()) fail(origin, "weights", "expected an array of numbers");
    model.weights.push_back(weight.get<double>());
  }
  if (!doc.contains("bias") || !doc["bias"].is_number()) fail(origin, "bias", "expected a number");
  model.bias = doc["bias"].get<double>();
  if (model.weights.size() != StepFeaturizer::feature_names().size())
    fail(origin, "weights", "one weight per feature is needed");
  return StepsDetector(std::move(model), doc.value("training", json::object()), rules, table);
}

StepsDetector StepsDetector::load(const std::filesystem::path& path, const KeywordRules& rules,
                                  const analysis::AttributeTable& table) {
  return from_json(read_model_file(path), path.string(), rules, table);
}

Verdict StepsDetector::detect(const Trace& trace) const {
  const SparseVector row = features_.transform(trace);
  Verdict verdict;
  verdict.score = sigmoid(model_.margin(row));
  verdict.biased = verdict.score >= kThreshold;
  for (const auto& [contribution, index] : deciding_features(model_, row, verdict.biased, kEvidenceFeatures)) {
    Evidence evidence;
    evidence.kind = "step";
    evidence.text = StepFeaturizer::feature_names()[index];
    evidence.weight = contribution;
    verdict.evidence.push_back(std::move(evidence));
  }
  if (verdict.biased) verdict.biased_attributes = mentioned_attributes(trace, rules_, table_);
  return verdict;
}

}  // namespace codebias::detectors
