#include "tasks/suite_loading.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tasks/task.h"

namespace codebias::tasks {
namespace {

// The registry rows' suite parts, in registry order.
const std::vector<suites::TaskPartParser>& task_part_parsers() {
  static const std::vector<suites::TaskPartParser> parsers = [] {
    std::vector<suites::TaskPartParser> out;
    for (const Task& task : all_tasks()) {
      if (task.suite_part != nullptr) out.push_back(*task.suite_part);
    }
    return out;
  }();
  return parsers;
}

}  // namespace

suites::Suite parse_suite(std::string_view json_text, std::string_view origin) {
  return suites::parse_suite(json_text, origin, task_part_parsers());
}

suites::Suite load_suite_file(const std::filesystem::path& path) {
  return suites::load_suite_file(path, task_part_parsers());
}

const suites::Suite& builtin_suite(std::string_view name) {
  const suites::BuiltinSuiteText text = suites::builtin_suite_text(name);
  // Each suite is parsed the first time a command asks for it, once per process.
  static std::mutex mutex;
  static std::map<std::string, suites::Suite, std::less<>> parsed;
  std::lock_guard lock(mutex);
  auto it = parsed.find(name);
  if (it == parsed.end()) it = parsed.emplace(std::string(name), parse_suite(text.json, text.file)).first;
  return it->second;
}

}  // namespace codebias::tasks
