#include "metrics/sweep_sanity.h"

#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace codebias::metrics {
namespace {

// (prompt, sample index) -> the answer's hash
using Answers = std::map<std::pair<std::string, int>, std::size_t>;

std::string label_of(const std::string& config) { return config.empty() ? "(default)" : config; }

}  // namespace

SweepSanity check_sweep(const RunResults& results) { return check_sweep(samples_of(results)); }

SweepSanity check_sweep(const SampleSource& samples) {
  std::vector<std::string> order;
  std::map<std::string, Answers> by_config;
  std::set<std::tuple<std::string, int, std::size_t>> distinct;
  SweepSanity sanity;
  samples([&](const AnalysedSample& sample) {
    const auto& record = *sample.record;
    if (record.result.status != generation::SampleStatus::done) return;
    const auto& planned = record.planned;
    const std::size_t answer = std::hash<std::string>{}(record.result.answer);
    if (!by_config.contains(planned.config)) order.push_back(planned.config);
    by_config[planned.config][{planned.prompt_id, planned.sample_index}] = answer;
    distinct.emplace(planned.prompt_id, planned.sample_index, answer);
    ++sanity.answers;
  });
  sanity.configurations = order.size();
  sanity.distinct_answers = distinct.size();
  std::vector<bool> grouped(order.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (grouped[i]) continue;
    std::vector<std::string> group = {label_of(order[i])};
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      if (!grouped[j] && by_config[order[j]] == by_config[order[i]]) {
        grouped[j] = true;
        group.push_back(label_of(order[j]));
      }
    }
    if (group.size() > 1) sanity.identical.push_back(std::move(group));
  }
  return sanity;
}

nlohmann::ordered_json to_json(const SweepSanity& sanity) {
  return {{"configurations", sanity.configurations},
          {"identical_configurations", sanity.identical},
          {"answers", sanity.answers},
          {"distinct_answers", sanity.distinct_answers}};
}

std::string identical_configurations_note(const SweepSanity& sanity) {
  if (sanity.identical.empty()) return "";
  std::string groups;
  for (const auto& group : sanity.identical) {
    std::string labels;
    for (const auto& label : group) labels += (labels.empty() ? "" : ", ") + label;
    groups += (groups.empty() ? "" : "; ") + labels;
  }
  return "configurations with byte-identical answers to every prompt (copies, not more data: the model ignores "
         "what they vary): " + groups + ". Rows pooled over configurations hold " +
         std::to_string(sanity.distinct_answers) + " distinct answers of " + std::to_string(sanity.answers) +
         ", so their intervals are too narrow; read one configuration of each group.";
}

}  // namespace codebias::metrics
