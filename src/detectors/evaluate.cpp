#include "detectors/evaluate.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "detectors/registry.h"

namespace codebias::detectors {
namespace {

constexpr const char* kNoSource = "(none)";

// Which traces train and which test, as the plan says; sets run.split and the test groups.
TraceSplit choose_split(std::span<const LabelledTrace> labels, const EvaluationPlan& plan, EvaluationRun& run) {
  TraceSplit split;
  if (!plan.model_path.empty() || plan.no_split) {
    if (!plan.model_path.empty() && plan.detectors.size() != 1)
      throw std::invalid_argument("--model evaluates one detector; give one --detector");
    if (plan.model_path.empty())
      for (const std::string& name : plan.detectors)
        if (require_detector(name).train != nullptr)
          throw std::invalid_argument("detector " + name + " is trained: without a split it needs --model");
    run.split = plan.model_path.empty() ? "none" : "given model";
    for (std::size_t i = 0; i < labels.size(); ++i) split.test.push_back(i);
    return split;
  }
  if (!plan.test_models.empty() && !plan.test_sources.empty())
    throw std::invalid_argument("split by models or by sources, not both");
  std::vector<bool> truth;
  std::vector<std::string> models, sources;
  for (const LabelledTrace& labelled : labels) {
    truth.push_back(labelled.biased);
    models.push_back(labelled.model);
    sources.push_back(labelled.source);
  }
  auto every_line_has = [](const std::vector<std::string>& groups, const char* field) {
    if (std::any_of(groups.begin(), groups.end(), [](const std::string& g) { return g.empty(); }))
      throw std::invalid_argument(std::string("this split needs a \"") + field + "\" field on every label line");
  };
  if (!plan.test_models.empty()) {
    every_line_has(models, "model");
    run.split = "models";
    run.test_models = plan.test_models;
    return group_split(models, plan.test_models, "model");
  }
  if (!plan.test_sources.empty()) {
    every_line_has(sources, "source");
    run.split = "sources";
    run.test_sources = plan.test_sources;
    return group_split(sources, plan.test_sources, "source");
  }
  run.split = "stratified";
  return stratified_split(truth, plan.train_fraction, plan.seed);
}

// The figures of one detector's verdicts on the test traces `rows` (indices into verdicts and
// tested); undecided verdicts (a judge answer outside its format) are counted apart, not scored.
DetectorEvaluation score_rows(const std::string& name, const std::vector<Verdict>& verdicts, const std::vector<bool>& truth,
                              const std::vector<std::size_t>& rows, const stats::BootstrapOptions& bootstrap) {
  std::vector<bool> decided_truth, predicted;
  std::vector<double> scores;
  long undecided = 0;
  for (std::size_t i : rows) {
    if (verdicts[i].undecided) {
      ++undecided;
      continue;
    }
    decided_truth.push_back(truth[i]);
    predicted.push_back(verdicts[i].biased);
    scores.push_back(verdicts[i].score);
  }
  DetectorEvaluation evaluation = evaluate_detector(name, decided_truth, predicted, scores, bootstrap);
  evaluation.undecided = undecided;
  return evaluation;
}

}  // namespace

nlohmann::json EvaluationRun::to_json() const {
  nlohmann::json out = {{"split", split}, {"train_traces", train_traces}, {"test_traces", test_traces}};
  if (!test_models.empty()) out["test_models"] = test_models;
  if (!test_sources.empty()) out["test_sources"] = test_sources;
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
  const TraceSplit split = choose_split(labels, plan, run);
  run.train_traces = split.train.size();
  run.test_traces = split.test.size();
  std::vector<LabelledTrace> training;
  for (std::size_t i : split.train) training.push_back(labels[i]);
  std::vector<Trace> tested;
  std::vector<bool> truth;
  std::map<std::string, std::vector<std::size_t>> rows_by_source;
  bool any_source = false;
  for (std::size_t i : split.test) {
    rows_by_source[labels[i].source.empty() ? kNoSource : labels[i].source].push_back(tested.size());
    any_source = any_source || !labels[i].source.empty();
    tested.push_back(labels[i].trace);
    truth.push_back(labels[i].biased);
  }
  std::vector<std::size_t> all_rows(tested.size());
  for (std::size_t i = 0; i < all_rows.size(); ++i) all_rows[i] = i;
  for (const std::string& name : plan.detectors) {
    const DetectorInfo& info = *find_detector(name);
    std::unique_ptr<Detector> detector;
    if (info.train == nullptr) detector = make_detector(name, {"", plan.engine});
    else if (!plan.model_path.empty()) detector = make_detector(name, {plan.model_path, plan.engine});
    else detector = train_detector(name, training, {plan.seed, plan.engine}).detector;
    const std::vector<Verdict> verdicts = detector->detect_all(tested);
    DetectorEvaluation evaluation = score_rows(name, verdicts, truth, all_rows, plan.bootstrap);
    if (any_source)
      for (const auto& [source, rows] : rows_by_source) {
        evaluation.by_source.push_back(score_rows(name, verdicts, truth, rows, plan.bootstrap));
        evaluation.by_source.back().source = source;
      }
    run.detectors.push_back(std::move(evaluation));
  }
  return run;
}

}  // namespace codebias::detectors
