#include "detectors/evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>

#include "stats/random.h"

namespace codebias::detectors {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

double ratio(long numerator, long denominator) {
  return denominator == 0 ? kUndefined : static_cast<double>(numerator) / static_cast<double>(denominator);
}

nlohmann::json number_or_null(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(); }

nlohmann::json interval_json(const IntervalEstimate& value) {
  return {{"estimate", number_or_null(value.estimate)}, {"lower", number_or_null(value.lower)}, {"upper", number_or_null(value.upper)}};
}

}  // namespace

Confusion confusion(const std::vector<bool>& truth, const std::vector<bool>& predicted) {
  if (truth.size() != predicted.size())
    throw std::invalid_argument(std::to_string(truth.size()) + " labels but " + std::to_string(predicted.size()) + " verdicts");
  Confusion counts;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    if (truth[i]) ++(predicted[i] ? counts.true_positives : counts.false_negatives);
    else ++(predicted[i] ? counts.false_positives : counts.true_negatives);
  }
  return counts;
}

double accuracy(const Confusion& c) {
  return ratio(c.true_positives + c.true_negatives, c.true_positives + c.true_negatives + c.false_positives + c.false_negatives);
}
double precision(const Confusion& c) { return ratio(c.true_positives, c.true_positives + c.false_positives); }
double recall(const Confusion& c) { return ratio(c.true_positives, c.true_positives + c.false_negatives); }
double f1_score(const Confusion& c) {
  const double p = precision(c), r = recall(c);
  if (!std::isfinite(p) || !std::isfinite(r) || p + r == 0) return kUndefined;
  return 2 * p * r / (p + r);
}

double auroc(std::span<const double> scores, const std::vector<bool>& truth) {
  if (scores.size() != truth.size())
    throw std::invalid_argument(std::to_string(truth.size()) + " labels but " + std::to_string(scores.size()) + " scores");
  // Mann–Whitney with midranks: sort, give tied scores their average rank.
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
  double positive_rank_sum = 0;
  long positives = 0;
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start;
    while (end < order.size() && scores[order[end]] == scores[order[start]]) ++end;
    const double midrank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (std::size_t k = start; k < end; ++k)
      if (truth[order[k]]) {
        positive_rank_sum += midrank;
        ++positives;
      }
    start = end;
  }
  const long negatives = static_cast<long>(scores.size()) - positives;
  if (positives == 0 || negatives == 0) return kUndefined;
  const double u = positive_rank_sum - static_cast<double>(positives) * static_cast<double>(positives + 1) / 2;
  return u / (static_cast<double>(positives) * static_cast<double>(negatives));
}

DetectorEvaluation evaluate_detector(std::string detector, const std::vector<bool>& truth, const std::vector<bool>& predicted,
                                     std::span<const double> scores, const stats::BootstrapOptions& bootstrap) {
  if (scores.size() != truth.size()) throw std::invalid_argument("one score per trace is needed");
  DetectorEvaluation out;
  out.detector = std::move(detector);
  out.traces = static_cast<long>(truth.size());
  out.biased = static_cast<long>(std::count(truth.begin(), truth.end(), true));
  out.counts = confusion(truth, predicted);
  out.bootstrap = bootstrap;
  auto resampled_counts = [&](std::span<const std::size_t> indices) {
    std::vector<bool> t, p;
    t.reserve(indices.size());
    p.reserve(indices.size());
    for (std::size_t i : indices) {
      t.push_back(truth[i]);
      p.push_back(predicted[i]);
    }
    return confusion(t, p);
  };
  auto with_interval = [&](const stats::IndexStatistic& statistic, double estimate) {
    IntervalEstimate value{estimate, kUndefined, kUndefined};
    if (!std::isfinite(estimate) || truth.empty()) return value;
    try {
      const stats::BootstrapResult result = stats::bootstrap_units(truth.size(), statistic, bootstrap);
      value.lower = result.lower;
      value.upper = result.upper;
    } catch (const std::invalid_argument&) {
      // No resample where the metric is defined: the interval stays undefined.
    }
    return value;
  };
  out.accuracy = with_interval([&](auto i) { return accuracy(resampled_counts(i)); }, accuracy(out.counts));
  out.precision = with_interval([&](auto i) { return precision(resampled_counts(i)); }, precision(out.counts));
  out.recall = with_interval([&](auto i) { return recall(resampled_counts(i)); }, recall(out.counts));
  out.f1 = with_interval([&](auto i) { return f1_score(resampled_counts(i)); }, f1_score(out.counts));
  out.auroc = with_interval(
      [&](std::span<const std::size_t> indices) {
        std::vector<double> s;
        std::vector<bool> t;
        for (std::size_t i : indices) {
          s.push_back(scores[i]);
          t.push_back(truth[i]);
        }
        return auroc(s, t);
      },
      auroc(scores, truth));
  return out;
}

nlohmann::json evaluation_json(const DetectorEvaluation& e) {
  nlohmann::json out = {{"detector", e.detector},
          {"traces", e.traces},
          {"undecided", e.undecided},
          {"biased", e.biased},
          {"confusion", {{"tp", e.counts.true_positives}, {"fp", e.counts.false_positives}, {"tn", e.counts.true_negatives}, {"fn", e.counts.false_negatives}}},
          {"accuracy", interval_json(e.accuracy)},
          {"precision", interval_json(e.precision)},
          {"recall", interval_json(e.recall)},
          {"f1", interval_json(e.f1)},
          {"auroc", interval_json(e.auroc)},
          {"bootstrap", {{"resamples", e.bootstrap.resamples}, {"confidence", e.bootstrap.confidence}, {"seed", e.bootstrap.seed}}}};
  if (!e.source.empty()) out["source"] = e.source;
  if (!e.by_source.empty()) {
    out["by_source"] = nlohmann::json::array();
    for (const DetectorEvaluation& row : e.by_source) out["by_source"].push_back(evaluation_json(row));
  }
  return out;
}

TraceSplit stratified_split(const std::vector<bool>& labels, double train_fraction, std::uint64_t seed) {
  if (!(train_fraction > 0 && train_fraction < 1)) throw std::invalid_argument("the train fraction must lie in (0, 1)");
  stats::Xoshiro256StarStar random(seed);
  TraceSplit split;
  for (bool label : {true, false}) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (labels[i] == label) members.push_back(i);
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[random.uniform_below(i)]);
    const auto train_count = static_cast<std::size_t>(std::llround(train_fraction * static_cast<double>(members.size())));
    split.train.insert(split.train.end(), members.begin(), members.begin() + static_cast<std::ptrdiff_t>(train_count));
    split.test.insert(split.test.end(), members.begin() + static_cast<std::ptrdiff_t>(train_count), members.end());
  }
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.test.begin(), split.test.end());
  auto both_classes = [&](const std::vector<std::size_t>& side) {
    const auto positives = std::count_if(side.begin(), side.end(), [&](std::size_t i) { return labels[i]; });
    return positives > 0 && positives < static_cast<std::ptrdiff_t>(side.size());
  };
  if (!both_classes(split.train) || !both_classes(split.test))
    throw std::invalid_argument("the split leaves the train or the test side without both labels");
  return split;
}

TraceSplit group_split(std::span<const std::string> groups, std::span<const std::string> test_groups, std::string_view what) {
  const std::set<std::string> wanted(test_groups.begin(), test_groups.end());
  TraceSplit split;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (wanted.count(groups[i])) {
      split.test.push_back(i);
      seen.insert(groups[i]);
    } else {
      split.train.push_back(i);
    }
  }
  for (const std::string& group : wanted)
    if (!seen.count(group))
      throw std::invalid_argument("no labelled trace comes from test " + std::string(what) + " \"" + group + "\"");
  if (split.train.empty()) throw std::invalid_argument("every trace is in the test models: nothing to train on");
  return split;
}

}  // namespace codebias::detectors
