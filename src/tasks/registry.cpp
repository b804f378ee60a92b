// The table of every task codebias knows (tasks stage): one row per task, made by its task folder
// (docs/architecture.md, "How to add a task").
#include <stdexcept>
#include "tasks/decision/decision_task.h"
#include "tasks/function/function_task.h"
#include "tasks/hiring_audit/hiring_task.h"
#include "tasks/pipelines/pipeline_task.h"
#include "tasks/screening/screening_task.h"
#include "tasks/testcase/testcase_task.h"

namespace codebias::tasks {

const std::vector<Task>& all_tasks() {
  // One row per task, each made by its task folder.
  static const std::vector<Task> tasks = {function_task_row(), testcase_task_row(),  pipeline_task_row(),
                                          resume_task_row(),   cat_task_row(),       decision_task_row(),
                                          hiring_audit_task_row(), faircoder_compat_task_row()};
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
  for (const Task& task : all_tasks()) {
    if (task.simulated_answer == nullptr) continue;
    answerers.by_task.emplace(task.name, task.simulated_answer);
    if (task.claims_request != nullptr) answerers.claims.push_back({task.claims_request, task.simulated_answer});
    if (task.answers_unclaimed) answerers.unclaimed = task.simulated_answer;
  }
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
