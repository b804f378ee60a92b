// TF-IDF + logistic regression and TF-IDF + linear SVM detectors (ProbeDebias Table 5): trained
// on labelled traces, saved as a versioned JSON model file, loaded for scoring.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "detectors/detector.h"
#include "detectors/keyword_rules.h"
#include "detectors/linear_models.h"
#include "detectors/tfidf.h"

namespace codebias::detectors {

inline constexpr std::string_view kModelFormat = "codebias-detector-model";
inline constexpr int kModelFormatVersion = 1;

enum class LinearKind { logistic_regression, linear_svm };
std::string_view linear_kind_name(LinearKind kind);  // "tfidf-lr", "tfidf-svm"

struct LinearTrainOptions {
  TfidfOptions tfidf;
  LogisticRegressionOptions logistic;
  LinearSvmOptions svm;
};

class LinearDetector : public Detector {
 public:
  // The rules' attribute words name the biased attributes of a biased verdict (those the trace
  // mentions, among the prompt's attributes when it lists them). Rules and table must outlive it.
  LinearDetector(LinearKind kind, TfidfVectorizer features, LinearModel model, nlohmann::json training,
                 const KeywordRules& rules, const analysis::AttributeTable& table);

  static LinearDetector train(LinearKind kind, std::span<const LabelledTrace> traces, const LinearTrainOptions& options,
                              const KeywordRules& rules, const analysis::AttributeTable& table);
  // Throws std::runtime_error naming `origin` for a wrong format, an unsupported version, a
  // different detector than `expected` or a malformed field.
  static LinearDetector from_json(const nlohmann::json& model_file, std::string_view origin, LinearKind expected,
                                  const KeywordRules& rules, const analysis::AttributeTable& table);
  static LinearDetector load(const std::filesystem::path& path, LinearKind expected, const KeywordRules& rules,
                             const analysis::AttributeTable& table);

  // format, version, detector, preprocessing, vocabulary, idf, weights, bias, threshold, training.
  nlohmann::json to_json() const;

  std::string_view name() const override { return linear_kind_name(kind_); }
  // Score: sigmoid of the margin (LR: its probability); biased iff score ≥ threshold (0.5).
  // Evidence: the 8 features that pushed the margin most towards the verdict.
  Verdict detect(const Trace& trace) const override;

  const LinearModel& model() const { return model_; }
  const TfidfVectorizer& features() const { return features_; }

 private:
  LinearKind kind_;
  TfidfVectorizer features_;
  LinearModel model_;
  double threshold_ = 0.5;
  nlohmann::json training_;
  const KeywordRules& rules_;
  const analysis::AttributeTable& table_;
};

// The sensitive attributes (sensitive in the trace's scenario) whose rule words the trace names,
// restricted to the trace's prompt attributes when it lists any; sorted.
std::vector<std::string> mentioned_attributes(const Trace& trace, const KeywordRules& rules,
                                              const analysis::AttributeTable& table);

// A trained detector's model file as JSON (linear and steps detectors); errors name the file.
nlohmann::json read_model_file(const std::filesystem::path& path);

}  // namespace codebias::detectors
