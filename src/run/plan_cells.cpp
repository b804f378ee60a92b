#include "run/plan_cells.h"

#include <map>
#include <stdexcept>
#include <tuple>

#include "analysis/prompt_attributes.h"
#include "base/json_fields.h"
#include "metrics/run_results.h"
#include "run/load_run.h"
#include "run/run.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"

namespace codebias::run {
namespace {

constexpr double kCharactersPerToken = 4;
constexpr double kTokensPerMessage = 4;

double estimated_prompt_tokens(const nlohmann::json& body) {
  double tokens = 0;
  if (const auto messages = body.find("messages"); messages != body.end() && messages->is_array()) {
    for (const auto& message : *messages)
      tokens += kTokensPerMessage + static_cast<double>(base::string_or_empty(message, "content").size()) / kCharactersPerToken;
  }
  tokens += static_cast<double>(base::string_or_empty(body, "prompt").size()) / kCharactersPerToken;
  return tokens;
}

}  // namespace

std::vector<metrics::PlanCell> plan_cells(const RunOptions& requested) {
  const auto suite = requested.suite_file.empty() ? tasks::builtin_suite(requested.suite)
                                                  : tasks::load_suite_file(requested.suite_file);
  RunOptions options = with_suite_defaults(requested, suite);
  options.samples = 1;
  const auto samples = plan_samples(options, tasks::find_task(options.task), suite);
  if (samples.empty()) throw std::invalid_argument("the options select no prompt");
  const auto& table = analysis::AttributeTable::builtin();
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::size_t> index;
  std::vector<metrics::PlanCell> cells;
  std::vector<double> token_sums;
  for (const auto& sample : samples) {
    const auto metadata = prompts::PromptMetadata::from_json(sample.metadata);
    const std::string& scenario = metadata.scenario;
    for (const auto& attribute : analysis::cell_attributes(metadata, table)) {
      const Key key{sample.config, scenario, attribute};
      auto [it, added] = index.emplace(key, cells.size());
      if (added) {
        cells.push_back({metrics::cell_label(sample.config, scenario, attribute), 0, 0});
        token_sums.push_back(0);
      }
      ++cells[it->second].prompts_available;
      token_sums[it->second] += estimated_prompt_tokens(sample.body);
    }
  }
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i].prompt_tokens_per_request = token_sums[i] / cells[i].prompts_available;
  return cells;
}

}  // namespace codebias::run
