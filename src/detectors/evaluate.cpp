#include "detectors/evaluate.h"

#include <algorithm>
#include <stdexcept>

#include "detectors/registry.h"

namespace codebias::detectors {

nlohmann::json EvaluationRun::to_json() const {
  nlohmann::json out = {{"split", split}, {"train_traces", train_traces}, {"test_traces", test_traces}};
  if (!test_models.empty()) out["test_models"] = test_models;
  out["detectors"] = nlohmann::json::array();
  for (const DetectorEvaluation& evaluation : detectors) out["detectors"].push_back(evaluation_json(evaluation));
  return out;
}

EvaluationRun evaluate_detectors(std::span<const LabelledTrace> labels, const EvaluationPlan& plan) {
  if (plan.detectors.empty()) throw std::invalid_argument("no detector to evaluate");
  if (labels.empty()) throw std::invalid_argument("no labelled trace");
  // Every name is checked before any training, so a missing detector fails at once.
  for (const std::string& name : plan.detectors)
    require_detector(name);
  EvaluationRun run;
  std::vector<std::size_t> train, test;
  if (!plan.model_path.empty() || plan.no_split) {
    if (!plan.model_path.empty() && plan.detectors.size() != 1)
      throw std::invalid_argument("--model evaluates one detector; give one --detector");
    if (plan.model_path.empty())
      for (const std::string& name : plan.detectors)
        if (require_detector(name).train != nullptr)
          throw std::invalid_argument("detector " + name + " is trained: without a split it needs --model");
    run.split = plan.model_path.empty() ? "none" : "given model";
    for (std::size_t i = 0; i < labels.size(); ++i) test.push_back(i);
  } else {
    std::vector<bool> truth;
    std::vector<std::string> models;
    for (const LabelledTrace& labelled : labels) {
      truth.push_back(labelled.biased);
      models.push_back(labelled.model);
    }
    TraceSplit split;
    if (!plan.test_models.empty()) {
      if (std::any_of(models.begin(), models.end(), [](const std::string& m) { return m.empty(); }))
        throw std::invalid_argument("the cross-model split needs a \"model\" field on every label line");
      split = model_split(models, plan.test_models);
      run.split = "models";
      run.test_models = plan.test_models;
    } else {
      split = stratified_split(truth, plan.train_fraction, plan.seed);
      run.split = "stratified";
    }
    train = std::move(split.train);
    test = std::move(split.test);
  }
  run.train_traces = train.size();
  run.test_traces = test.size();
  std::vector<LabelledTrace> training;
  for (std::size_t i : train) training.push_back(labels[i]);
  std::vector<Trace> tested;
  std::vector<bool> truth;
  for (std::size_t i : test) {
    tested.push_back(labels[i].trace);
    truth.push_back(labels[i].biased);
  }
  for (const std::string& name : plan.detectors) {
    const DetectorInfo& info = *find_detector(name);
    std::unique_ptr<Detector> detector;
    if (info.train == nullptr) detector = make_detector(name, {"", plan.engine});
    else if (!plan.model_path.empty()) detector = make_detector(name, {plan.model_path, plan.engine});
    else detector = train_detector(name, training, {plan.seed, plan.engine}).detector;
    const std::vector<Verdict> verdicts = detector->detect_all(tested);
    // Undecided verdicts (a judge answer outside its format) are counted apart, not scored.
    std::vector<bool> decided_truth, predicted;
    std::vector<double> scores;
    long undecided = 0;
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      if (verdicts[i].undecided) {
        ++undecided;
        continue;
      }
      decided_truth.push_back(truth[i]);
      predicted.push_back(verdicts[i].biased);
      scores.push_back(verdicts[i].score);
    }
    run.detectors.push_back(evaluate_detector(name, decided_truth, predicted, scores, plan.bootstrap));
    run.detectors.back().undecided = undecided;
  }
  return run;
}

}  // namespace codebias::detectors
