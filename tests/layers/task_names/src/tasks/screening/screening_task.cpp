// Rows as the task folders write them: the check reads the task names from here.
Task resume_task_row() {
  return {.name = "resume",
          .description = "resumes"};
}
Task pipeline_task_row() {
  return {.name = "ml-pipeline",
          .description = "pipelines"};
}
bool is_resume(const std::string& task) { return task == "resume"; }  // allowed in src/tasks/
