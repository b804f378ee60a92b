// The JSONL engine's non-template parts: line errors and the worker pool (base stage).
#include "base/jsonl_engine.h"

#include <nlohmann/json.hpp>

namespace codebias::base {

std::string LineError::describe() const {
  if (field.empty()) return message;
  return "field \"" + field + "\": " + message;
}

InputError::InputError(std::string_view origin, LineError error)
    : std::runtime_error(std::string(origin) + ":" + std::to_string(error.line) + ": " + error.describe()),
      error_(std::move(error)) {}

std::string error_json_line(const LineError& error) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  out["id"] = error.id ? nlohmann::ordered_json(*error.id) : nlohmann::ordered_json(nullptr);
  out["error"] = error.describe();
  out["line"] = error.line;
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string too_long_message(const Line& line, std::size_t max_line_bytes) {
  return "line is " + std::to_string(line.length) + " bytes, more than the limit of " + std::to_string(max_line_bytes);
}

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned index = 1; index < threads; ++index) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void WorkerPool::start(std::size_t count, const std::function<void(std::size_t)>& fn) {
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    count_ = count;
    next_.store(0);
    failure_ = nullptr;
    busy_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
}

void WorkerPool::finish() {
  drain();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
  job_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void WorkerPool::run(std::size_t count, const std::function<void(std::size_t)>& fn) {
  start(count, fn);
  finish();
}

void WorkerPool::drain() {
  const auto& fn = *job_;
  const std::size_t count = count_;
  for (std::size_t index = next_.fetch_add(1); index < count; index = next_.fetch_add(1)) {
    try {
      fn(index);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      next_.store(count);
    }
  }
}

void WorkerPool::work() {
  std::size_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

}  // namespace codebias::base
