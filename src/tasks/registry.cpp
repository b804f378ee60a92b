// The table of every task codebias knows (tasks stage). Adding a task is one row here plus its
// own file (docs/architecture.md, "How to add a suite").
#include <stdexcept>

#include "generation/simulated/simulated_model_answer.h"
#include "tasks/decision/decision_prompts.h"
#include "tasks/decision/decision_simulated.h"
#include "tasks/pipelines/pipeline_prompts.h"
#include "tasks/pipelines/pipeline_simulated.h"
#include "tasks/screening/screening_prompts.h"
#include "tasks/screening/screening_simulated.h"
#include "tasks/builtin_tasks.h"
#include "tasks/hiring_audit/hiring_task.h"

namespace codebias::tasks {

const std::vector<Task>& all_tasks() {
  static const std::vector<Task> tasks = {
      {"function", "scoring functions (FairCoder function implementation)", &make_function_scorer,
       &prompts::build_function_prompts, &analyse_function_samples, true, true, nullptr, true,
       &function_answer_to_execute, &serve::sim::function_answer},
      {"testcase", "FairCoder's unit-test generation (lines carry topic/request/fields metadata; docs/testcases.md)",
       &make_testcase_scorer, &prompts::build_testcase_prompts, &analyse_testcase_samples, false, false, nullptr, false,
       nullptr, &serve::sim::testcase_answer},
      {"ml-pipeline", "which dataset columns a conditional function or an ML pipeline uses (docs/ml-pipelines.md)",
       &make_pipeline_scorer, &prompts::build_pipeline_prompts, &analyse_pipeline_samples, false, true, nullptr, false,
       nullptr, &serve::sim::pipeline_answer},
      {"resume", "resumes written for names that signal gender and ethnicity (BAD; docs/screening.md)",
       &make_resume_scorer, &prompts::build_resume_prompts, &analyse_resume_samples, false, false, &resume_next_turn,
       false, nullptr, &serve::sim::resume_answer},
      {"cat", "Context Association Test: stereotype, anti-stereotype or neutral occupation (BAD; docs/screening.md)",
       &make_cat_scorer, &prompts::build_cat_prompts, &analyse_cat_samples, false, false, nullptr, false, nullptr,
       &serve::sim::cat_answer},
      {"decision", "a function deciding about a person (Solar, Huang et al.; lines name the tested attributes; "
                   "docs/counterfactual.md)",
       &make_function_scorer, &prompts::build_decision_prompts, &analyse_decision_samples, false, true, nullptr,
       false, &decision_answer_to_execute, &serve::sim::decision_answer},
      {"hiring-audit", "LLM screeners rating, advancing or picking résumés under names of every sex x race/ethnicity "
                       "group: the NYC LL144 audit (docs/hiring-audit.md)",
       &make_hiring_scorer, &hiring::build_hiring_prompts, &analyse_hiring_samples, false, false, nullptr, false, nullptr,
       &hiring::simulated_hiring_answer},
      {"faircoder-compat", "function lines read by FairCoder's published scorer, its mistakes included (README.md)",
       &make_faircoder_compat_scorer, nullptr, nullptr, true},
  };
  return tasks;
}

const Task& find_task(std::string_view name) {
  for (const Task& task : all_tasks()) {
    if (task.name == name) return task;
  }
  std::string known;
  for (const Task& task : all_tasks()) known += (known.empty() ? "" : ", ") + std::string(task.name);
  throw std::invalid_argument("unknown task \"" + std::string(name) + "\" (known: " + known + ")");
}

const Task& task_for_suite(const suites::Suite& suite, std::string_view requested) {
  if (!requested.empty()) return find_task(requested);
  return find_task(suite.defaults.task.empty() ? std::string_view("function") : std::string_view(suite.defaults.task));
}

serve::TaskAnswerers simulated_answerers() {
  serve::TaskAnswerers answerers;
  for (const Task& task : all_tasks())
    if (task.simulated_answer != nullptr) answerers.emplace(task.name, task.simulated_answer);
  return answerers;
}

std::vector<std::string> task_names(bool with_prompts_only) {
  std::vector<std::string> names;
  for (const Task& task : all_tasks()) {
    if (!with_prompts_only || task.build_prompts != nullptr) names.emplace_back(task.name);
  }
  return names;
}

}  // namespace codebias::tasks
