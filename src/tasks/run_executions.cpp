// Executions started during generation and taken by the analysis (tasks stage).
#include "tasks/run_executions.h"

#include <algorithm>
#include <stdexcept>

namespace codebias::tasks {

namespace {

unsigned cores() { return std::max(1U, std::thread::hardware_concurrency()); }

// What the personas depend on in a table: its attributes, their groups and the names that are none.
std::string table_fingerprint(const analysis::AttributeTable& table) {
  std::string out;
  for (const auto& spec : table.specs()) {
    out += spec.key + ':';
    for (const auto& group : spec.groups) out += group.name + ',';
    out += ';';
  }
  for (const auto& token : table.not_attribute_tokens()) out += token + ',';
  return out;
}

}  // namespace

RunExecutions::RunExecutions() : executor_({}, cores()) {
  for (unsigned i = 0; i < cores(); ++i) workers_.emplace_back([this] { work(); });
}

RunExecutions::~RunExecutions() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (auto& worker : workers_) worker.join();
}

std::string RunExecutions::key_of(const ExecutableAnswer& answer) {
  const auto& program = answer.program;
  nlohmann::json key = {program.response, program.options.scenario, program.options.function,
                        program.options.attributes, program.options.only_listed, program.domains, program.pool,
                        table_fingerprint(*answer.table)};
  return key.dump();
}

void RunExecutions::start(const ExecutableAnswer& answer) { start_keyed(key_of(answer), answer); }

void RunExecutions::start_keyed(const std::string& key, const ExecutableAnswer& answer) {
  {
    std::lock_guard lock(mutex_);
    if (!entries_.try_emplace(key, Entry{answer, std::nullopt, {}}).second) return;
    queue_.push_back(key);
    ++progress_.queued;
  }
  queued_.notify_one();
}

RunExecutions::Progress RunExecutions::wait_for_all(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  finished_.wait_for(lock, timeout, [&] { return progress_.finished >= progress_.queued; });
  return progress_;
}

analysis::ResponseExecution RunExecutions::take(const ExecutableAnswer& answer) {
  const std::string key = key_of(answer);
  start_keyed(key, answer);
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [&] {
    const auto& entry = entries_.at(key);
    return entry.execution.has_value() || !entry.error.empty();
  });
  Entry entry = std::move(entries_.at(key));
  entries_.erase(key);
  if (!entry.error.empty()) throw std::runtime_error(entry.error);
  return std::move(*entry.execution);
}

void RunExecutions::work() {
  for (;;) {
    std::string key;
    const ExecutableAnswer* answer = nullptr;
    {
      std::unique_lock lock(mutex_);
      queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      key = std::move(queue_.front());
      queue_.pop_front();
      answer = &entries_.at(key).answer;  // entries are only erased once finished
    }
    std::optional<analysis::ResponseExecution> execution;
    std::string error;
    try {
      execution = executor_.execute(answer->program, *answer->table);
    } catch (const std::exception& failure) {
      error = failure.what();
    }
    {
      std::lock_guard lock(mutex_);
      auto& entry = entries_.at(key);
      ++progress_.finished;
      if (execution && execution->status == analysis::ExecutionStatus::not_run &&
          execution->reason.starts_with("no_runtime:")) {
        auto& missing = progress_.missing_runtimes[execution->reason];
        if (missing.programs++ == 0) missing.message = execution->error;
      }
      if (execution) {
        entry.execution = std::move(execution);
      } else {
        ++progress_.failed;
        entry.error = error.empty() ? "counterfactual execution could not start" : error;
      }
    }
    finished_.notify_all();
  }
}

}  // namespace codebias::tasks
