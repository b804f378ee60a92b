// The one JSONL engine: read input lines in bounded batches, process each batch on a pool of
// threads while the next one is read, and hand the results to a sink in input order. Every
// command that turns JSONL lines into JSONL lines (`codebias score` for each task, `codebias
// quality`) runs on it, so ordering, memory bounds and --keep-going behave the same everywhere.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/jsonl.h"

namespace codebias::base {

// What was wrong with one input line (or, when `internal`, the processing failed on it).
struct LineError {
  long line = 0;                  // 1-based
  std::string field;              // "id", "response", "metadata.topic", ...; "" = whole line
  std::string message;            // without file or line
  std::optional<std::string> id;  // the line's id when it was readable
  bool internal = false;

  // `field "response": expected a string, got number`, or just the message when no field.
  std::string describe() const;
};

// Thrown without keep_going at the first bad line; what() is "ORIGIN:LINE: field \"F\": MESSAGE".
class InputError : public std::runtime_error {
 public:
  InputError(std::string_view origin, LineError error);
  const LineError& error() const { return error_; }

 private:
  LineError error_;
};

// {"id": <id or null>, "error": "<describe()>", "line": N}: the --keep-going output line.
std::string error_json_line(const LineError& error);

// Runs fn(0..count-1) on `threads` threads, the caller included: start() hands the job to the
// workers and returns, so the caller can prepare the next job; finish() joins in, waits for the
// end and rethrows the first exception a call of fn threw (the job's other indices are skipped).
class WorkerPool {
 public:
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void start(std::size_t count, const std::function<void(std::size_t)>& fn);
  void finish();
  // start + finish.
  void run(std::size_t count, const std::function<void(std::size_t)>& fn);

 private:
  void drain();
  void work();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  std::exception_ptr failure_;
  unsigned busy_ = 0;
  std::size_t generation_ = 0;
  bool stop_ = false;
};

struct JsonlOptions {
  unsigned threads = 0;  // 0: std::thread::hardware_concurrency()
  // Lines processed together, or fewer once they hold batch_bytes. Two batches are held at a time
  // (one processed while the other is read and written), so input memory stays under 2 x batch_bytes.
  std::size_t batch_lines = 256;
  std::size_t batch_bytes = std::size_t{32} << 20;
  std::size_t max_line_bytes = kDefaultMaxLineBytes;  // longer lines are errors
  bool keep_going = false;  // false: throw InputError at the first bad line
};

struct JsonlStats {
  long lines = 0;      // input lines read, blank ones included
  long responses = 0;  // lines processed without error
  long errors = 0;     // lines that were errors (only with keep_going; else InputError)
};

// One non-blank input line on its way through the engine.
template <class Result>
struct JsonlItem {
  Line input;                     // the processor may consume input.text
  std::optional<std::string> id;  // the line's id once read
  std::optional<Result> result;   // set when the line was processed
  std::optional<LineError> error; // set otherwise
  std::string json;               // the output line without '\n' (result or, with keep_going, error)
};

template <class Result>
struct JsonlProcessor {
  // Fills item.result and item.json, or item.error. Runs on the pool's threads; a thrown
  // exception ends the whole run (after the lines before it were handed to the sink).
  std::function<void(JsonlItem<Result>& item)> line;
  // Optional: runs on the calling thread once the batch's lines are done, for work that is done
  // for many lines at once (pylint over a batch of files); it may use the pool.
  std::function<void(std::span<JsonlItem<Result>> batch, WorkerPool& pool)> batch;
};

// Processes every non-blank line of `in` (`origin` names it in errors). The sink runs on the
// calling thread, once per line, in input order, and may move the result out. Without
// keep_going, the sink sees every line before the first bad one, then InputError is thrown and
// no line after it is processed by a later batch.
template <class Result>
JsonlStats process_jsonl(std::istream& in, std::string_view origin, const JsonlProcessor<Result>& processor,
                         const JsonlOptions& options, const std::function<void(JsonlItem<Result>&)>& sink);

// The message of a line longer than the reader's limit.
std::string too_long_message(const Line& line, std::size_t max_line_bytes);

template <class Result>
JsonlStats process_jsonl(std::istream& in, std::string_view origin, const JsonlProcessor<Result>& processor,
                         const JsonlOptions& options, const std::function<void(JsonlItem<Result>&)>& sink) {
  using Item = JsonlItem<Result>;
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(threads, 1u);
  const std::size_t batch_lines = std::max<std::size_t>(options.batch_lines, 1);
  LineReader reader(in, options.max_line_bytes);
  JsonlStats stats;
  bool more = true;
  auto read_batch = [&](std::vector<Item>& batch) {
    std::size_t count = 0;
    std::size_t bytes = 0;
    while (more && count < batch_lines && bytes < options.batch_bytes) {
      Item& item = batch[count];
      if (!reader.next(item.input)) {
        more = false;
        break;
      }
      ++stats.lines;
      if (!item.input.too_long && is_blank(item.input.text)) continue;
      bytes += item.input.text.size();
      ++count;
    }
    return count;
  };
  // Without keep_going, lines after the first bad one are not worth processing.
  std::atomic<std::size_t> first_bad{0};
  auto process_line = [&](Item& item, std::size_t index) {
    item.id.reset();
    item.result.reset();
    item.error.reset();
    item.json.clear();
    if (!options.keep_going && index > first_bad.load(std::memory_order_relaxed)) return;
    if (item.input.too_long) {
      LineError error;
      error.line = item.input.number;
      error.message = too_long_message(item.input, options.max_line_bytes);
      item.error = std::move(error);
    } else {
      processor.line(item);
    }
    // Keeping the buffer saves an allocation per line; a huge one is not kept.
    constexpr std::size_t kKeptLineCapacity = std::size_t{64} << 10;
    if (item.input.text.capacity() > kKeptLineCapacity) std::string().swap(item.input.text);
    if (item.error) {
      if (options.keep_going) {
        item.json = error_json_line(*item.error);
      } else {
        std::size_t seen = first_bad.load(std::memory_order_relaxed);
        while (index < seen && !first_bad.compare_exchange_weak(seen, index, std::memory_order_relaxed)) {
        }
      }
    }
  };
  auto emit = [&](std::vector<Item>& batch, std::size_t count) {
    for (std::size_t index = 0; index < count; ++index) {
      Item& item = batch[index];
      if (item.error) {
        if (!options.keep_going) throw InputError(origin, std::move(*item.error));
        ++stats.errors;
      } else {
        ++stats.responses;
      }
      sink(item);
    }
  };
  auto has_error = [&](const std::vector<Item>& batch, std::size_t count) {
    return std::any_of(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(count),
                       [](const Item& item) { return item.error.has_value(); });
  };

  // Two batches: the next one is read while the workers process this one, and this one is
  // written while they process the next.
  std::vector<Item> batches[2] = {std::vector<Item>(batch_lines), std::vector<Item>(batch_lines)};
  std::vector<Item>* processing = nullptr;  // changed only while no job runs
  const std::function<void(std::size_t)> job = [&](std::size_t index) { process_line((*processing)[index], index); };
  WorkerPool pool(threads);  // last, so that it stops before what its jobs use goes away
  auto start = [&](std::vector<Item>& batch, std::size_t count) {
    processing = &batch;
    first_bad.store(count);
    pool.start(count, job);
  };
  std::size_t current = 0;
  std::size_t count = read_batch(batches[current]);
  if (count > 0) start(batches[current], count);
  while (count > 0) {
    std::vector<Item>& following = batches[1 - current];
    std::size_t following_count = read_batch(following);
    pool.finish();
    if (!options.keep_going && has_error(batches[current], count)) following_count = 0;
    if (processor.batch) processor.batch(std::span<Item>(batches[current].data(), count), pool);
    if (following_count > 0) start(following, following_count);
    emit(batches[current], count);
    current = 1 - current;
    count = following_count;
  }
  return stats;
}

}  // namespace codebias::base
