// The counterfactual executions of a run with --execute (tasks stage), shared by its generation and
// its analysis: each answer starts executing as soon as it is stored, so execution overlaps the
// wait for the model, and the analysis takes the outcomes instead of executing again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "execution/counterfactual_execution.h"

namespace codebias::tasks {

// An answer's program as its analysis executes it, and the attribute table its personas come from.
struct ExecutableAnswer {
  quality::CounterfactualProgram program;
  const analysis::AttributeTable* table = nullptr;
};

// Thread-safe. One sandbox server and one worker thread per core. Programs are told apart by their
// content (response, options, domains, table), so the same answer is never run twice at once.
class RunExecutions {
 public:
  RunExecutions();
  ~RunExecutions();  // stops the workers; programs not taken are dropped
  RunExecutions(const RunExecutions&) = delete;
  RunExecutions& operator=(const RunExecutions&) = delete;

  // Queues the answer unless the same program is queued, running or done and not yet taken.
  void start(const ExecutableAnswer& answer);
  // The answer's execution: waits for it when it was started, else starts it first. A taken
  // outcome is forgotten (a second take runs the program again).
  analysis::ResponseExecution take(const ExecutableAnswer& answer);

  // Programs queued so far, those finished (with an outcome or not), those that could not start,
  // and those not run for a runtime that is not installed: per reason ("no_runtime:java"), how many
  // and the first one's message (it names the install line).
  struct MissingRuntime {
    std::int64_t programs = 0;
    std::string message;
  };
  struct Progress {
    std::int64_t queued = 0;
    std::int64_t finished = 0;
    std::int64_t failed = 0;
    std::map<std::string, MissingRuntime> missing_runtimes;
  };
  // Waits until every queued program has finished or `timeout` has passed; returns the progress.
  Progress wait_for_all(std::chrono::milliseconds timeout);

 private:
  struct Entry {
    ExecutableAnswer answer;
    std::optional<analysis::ResponseExecution> execution;
    std::string error;  // the executor could not start at all
  };
  static std::string key_of(const ExecutableAnswer& answer);
  void start_keyed(const std::string& key, const ExecutableAnswer& answer);
  void work();

  quality::CounterfactualExecutor executor_;
  std::mutex mutex_;
  std::condition_variable queued_, finished_;
  std::map<std::string, Entry> entries_;
  std::deque<std::string> queue_;
  bool stopping_ = false;
  Progress progress_;
  std::vector<std::thread> workers_;
};

}  // namespace codebias::tasks
