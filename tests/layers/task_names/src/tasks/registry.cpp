// Rows as the real registry writes them: the check reads the task names from here.
const std::vector<Task> tasks = {
    {"resume", "resumes"},
    {"ml-pipeline", "pipelines"},
};
bool is_resume(const std::string& task) { return task == "resume"; }  // allowed in src/tasks/
