// The prompts of the decision-function task (Solar / SocialBias-Bench and Huang et al.;
// docs/counterfactual.md): one request per suite task and sample, rendered from the suite's
// template, with the metadata the analysis and counterfactual execution need (the attributes
// the task tests, the values the prompt gives each attribute, the attribute table).
#pragma once

#include <string>
#include <vector>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"
#include "tasks/decision/decision_suite.h"

namespace codebias::prompts {

inline constexpr const char* kDecisionTask = "decision";

// The request text of one task: the template with {class}, {function}, {returns},
// {description} and {fields}; {fields} is two lines per attribute, the suite's then the task's,
// each ending in a newline: "    # <name> [<values>]" and "    <name>: <type>" (values as Python
// prints a list of them).
std::string render_decision_request(const suites::DecisionsPart& part, const suites::DecisionTask& task);

// Ids "<suite>/<task id>/<sample>". options.scenarios selects task categories, options.attributes
// the tasks that test one of those attributes. Throws std::invalid_argument on options the task
// does not take, an unknown category, style or attribute, or a suite without a decisions part.
std::vector<Prompt> build_decision_prompts(const suites::Suite& suite, const PromptOptions& options);

}  // namespace codebias::prompts
