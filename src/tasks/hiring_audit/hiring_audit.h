// A hiring-audit run's answers as the audit (docs/hiring-audit.md): per design and configuration,
// the LL144 tables (tasks/hiring_audit/ll144.h) and what the counterfactual design adds beyond the
// rule: paired differences for the same résumé under names of two categories (McNemar / sign
// test for yes-no and picks, Wilcoxon for scores), position bias of the pick design, and the
// qualification gradient (whether a stronger résumé always beats a weaker one whatever the names).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tasks/hiring_audit/hiring_answers.h"

namespace codebias::tasks::hiring {

// One answered sample: its prompt's metadata read back, and the answer.
struct ReadAnswer {
  std::string design;         // rate, advance, pick
  std::string config;         // the run's configuration label
  std::string unit;           // what the same résumé or slate means across names: "<resume|prompt>#<sample>@<config>"
  std::string level;          // the résumés' qualification level
  nlohmann::json candidates;  // the prompt's metadata list {position, name, sex, race_ethnicity, resume_id, level}
  HiringAnswer answer;
};

// The run's answers as ReadAnswer rows (prompt metadata "design", "level", "candidates").
ReadAnswer read_answer_row(const nlohmann::json& metadata, const std::string& prompt_id, int sample_index,
                           const std::string& config, const std::string& answer_text);

// One object per design and configuration, in design order: {design, configuration, rate_kind,
// individuals, unknown, tables, answers, paired, [position_bias], [qualification_gradient]}.
nlohmann::ordered_json hiring_audit_json(const std::vector<ReadAnswer>& answers);

}  // namespace codebias::tasks::hiring
