#include "run/score_input.h"

#include <algorithm>
#include <ostream>
#include <string>

#include "analysis/findings/report_json.h"
#include "base/json_fields.h"
#include "prompts/prompt_metadata.h"
#include "tasks/run_analysis.h"
#include "tasks/task.h"

namespace codebias::run {
void write_score_input(const std::filesystem::path& run_dir, const analysis::AttributeTable& table, std::ostream& out) {
  const auto store = store::RunStore::open(run_dir);
  std::vector<metrics::SampleRecord> records;
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result,
                            const nlohmann::json*) { records.push_back({planned, result}); });
  for (const metrics::SampleRecord* answer : tasks::conversation_answers(records)) {
    const auto& [planned, result] = *answer;
    if (result.status != generation::SampleStatus::done) continue;
    // Only answers that are programs go to `codebias quality` (a prompt without a task is a program).
    const auto metadata = prompts::PromptMetadata::from_json(planned.metadata);
    if (!metadata.task.empty() && !tasks::find_task(metadata.task).answers_are_programs) continue;
    const auto options = tasks::analyze_options_for(metadata, table);
    nlohmann::ordered_json line;
    line["id"] = planned.id;
    line["response"] = result.answer;
    if (!options.scenario.empty()) line["scenario"] = options.scenario;
    if (!options.function.empty()) line["function"] = options.function;
    line["attributes"] = options.attributes;
    // A decision prompt's value domains, which `codebias score --execute` draws personas from.
    if (const auto domains = planned.metadata.find("domains"); domains != planned.metadata.end() && domains->is_object() &&
                                                               !domains->empty())
      line["domains"] = *domains;
    line["config"] = planned.config;
    out << analysis::dump_json_line(line) << '\n';
  }
}

}  // namespace codebias::run
