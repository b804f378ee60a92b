// steps-lr: logistic regression over the step features of detectors/step_features.h (a group
// named in a sentence × the decision, connective, negation, exclusion, correction and clinical
// facts of that sentence), trained on labelled traces and saved as a versioned JSON model file.
#pragma once

#include <filesystem>
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "detectors/detector.h"
#include "detectors/keyword_rules.h"
#include "detectors/linear_models.h"
#include "detectors/step_features.h"

namespace codebias::detectors {

class StepsDetector : public Detector {
 public:
  // Rules and table must outlive the detector.
  StepsDetector(LinearModel model, nlohmann::json training, const KeywordRules& rules,
                const analysis::AttributeTable& table);

  // C = 1 (the features are few and binary; a weaker fit carries better to other voices).
  static StepsDetector train(std::span<const LabelledTrace> traces, const KeywordRules& rules,
                             const analysis::AttributeTable& table);
  // Throws std::runtime_error naming `origin` for a wrong format, version or detector, features
  // other than this build's, or a malformed field.
  static StepsDetector from_json(const nlohmann::json& model_file, std::string_view origin, const KeywordRules& rules,
                                 const analysis::AttributeTable& table);
  static StepsDetector load(const std::filesystem::path& path, const KeywordRules& rules,
                            const analysis::AttributeTable& table);

  // format, version, detector, features, weights, bias, threshold, training.
  nlohmann::json to_json() const;

  std::string_view name() const override { return "steps-lr"; }
  // Score: the probability σ(w·x + b); biased iff ≥ 0.5. Evidence: the 8 features that pushed
  // the margin most towards the verdict (kind "step").
  Verdict detect(const Trace& trace) const override;

 private:
  StepFeaturizer features_;
  LinearModel model_;
  nlohmann::json training_;
  const KeywordRules& rules_;
  const analysis::AttributeTable& table_;
};

}  // namespace codebias::detectors
