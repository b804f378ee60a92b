// The JSONL engine: order, bounded batches, the batch step, --keep-going and early stops.
#include "base/jsonl_engine.h"

#include <atomic>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codebias::base {
namespace {

using ::testing::HasSubstr;

// A processor that upper-cases each line; "bad" lines are input errors, "boom" throws.
JsonlProcessor<std::string> upper(std::atomic<int>& processed) {
  JsonlProcessor<std::string> processor;
  processor.line = [&processed](JsonlItem<std::string>& item) {
    ++processed;
    if (item.input.text == "boom") throw std::runtime_error("kaput");
    if (item.input.text == "bad") {
      LineError error;
      error.line = item.input.number;
      error.field = "response";
      error.message = "missing";
      item.error = error;
      return;
    }
    std::string text = item.input.text;
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    item.id = item.input.text;
    item.result = text;
    item.json = "\"" + text + "\"";
  };
  return processor;
}

std::string lines(int count) {
  std::string text;
  for (int index = 0; index < count; ++index) text += "line" + std::to_string(index) + "\n";
  return text;
}

TEST(JsonlEngine, HandsResultsBackInInputOrderAndSkipsBlankLines) {
  std::istringstream in("a\n\n  \nb\nc\n");
  std::atomic<int> processed{0};
  JsonlOptions options;
  options.threads = 3;
  options.batch_lines = 2;
  std::vector<std::string> out;
  std::vector<long> numbers;
  const JsonlStats stats = process_jsonl<std::string>(in, "in", upper(processed), options,
                                                      [&](JsonlItem<std::string>& item) {
                                                        out.push_back(*item.result);
                                                        numbers.push_back(item.input.number);
                                                      });
  EXPECT_EQ(out, (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(numbers, (std::vector<long>{1, 4, 5}));
  EXPECT_EQ(stats.lines, 5);
  EXPECT_EQ(stats.responses, 3);
  EXPECT_EQ(stats.errors, 0);
}

TEST(JsonlEngine, BatchStepSeesEveryBatchOnceBeforeItsLinesAreWritten) {
  std::istringstream in(lines(25));
  std::atomic<int> processed{0};
  JsonlProcessor<std::string> processor = upper(processed);
  std::vector<std::size_t> batch_sizes;
  processor.batch = [&](std::span<JsonlItem<std::string>> batch, WorkerPool& pool) {
    batch_sizes.push_back(batch.size());
    pool.run(batch.size(), [&](std::size_t index) { batch[index].json += "!"; });
  };
  JsonlOptions options;
  options.batch_lines = 10;
  std::vector<std::string> out;
  process_jsonl<std::string>(in, "in", processor, options,
                             [&](JsonlItem<std::string>& item) { out.push_back(item.json); });
  EXPECT_EQ(batch_sizes, (std::vector<std::size_t>{10, 10, 5}));
  ASSERT_EQ(out.size(), 25u);
  EXPECT_EQ(out[0], "\"LINE0\"!");
  EXPECT_EQ(out[24], "\"LINE24\"!");
}

TEST(JsonlEngine, KeepGoingTurnsBadLinesIntoErrorLines) {
  std::istringstream in("a\nbad\nc\n");
  std::atomic<int> processed{0};
  JsonlOptions options;
  options.keep_going = true;
  std::vector<std::string> out;
  const JsonlStats stats = process_jsonl<std::string>(in, "in", upper(processed), options,
                                                      [&](JsonlItem<std::string>& item) { out.push_back(item.json); });
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1], R"({"id":null,"error":"field \"response\": missing","line":2})");
  EXPECT_EQ(stats.errors, 1);
  EXPECT_EQ(stats.responses, 2);
}

TEST(JsonlEngine, WithoutKeepGoingStopsAtTheFirstBadLineAndProcessesNoLaterBatch) {
  std::istringstream in("a\nbad\n" + lines(100));
  std::atomic<int> processed{0};
  JsonlOptions options;
  options.threads = 1;
  options.batch_lines = 4;
  std::vector<std::string> seen;
  try {
    process_jsonl<std::string>(in, "in.jsonl", upper(processed), options,
                               [&](JsonlItem<std::string>& item) { seen.push_back(*item.id); });
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "in.jsonl:2: field \"response\": missing");
  }
  EXPECT_EQ(seen, std::vector<std::string>{"a"});
  // One thread works through a batch in order: nothing after the bad line was processed.
  EXPECT_EQ(processed.load(), 2);
}

TEST(JsonlEngine, TooLongLinesAreErrorsWithTheLimit) {
  std::istringstream in(std::string(300, 'x') + "\nb\n");
  std::atomic<int> processed{0};
  JsonlOptions options;
  options.keep_going = true;
  options.max_line_bytes = 100;
  std::vector<std::string> out;
  process_jsonl<std::string>(in, "in", upper(processed), options,
                             [&](JsonlItem<std::string>& item) { out.push_back(item.json); });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(out[0], HasSubstr("line is 300 bytes, more than the limit of 100"));
  EXPECT_EQ(processed.load(), 1);
}

TEST(JsonlEngine, AProcessorExceptionEndsTheRunAfterTheLinesBeforeIt) {
  std::istringstream in("a\nboom\nc\n");
  std::atomic<int> processed{0};
  JsonlOptions options;
  options.threads = 2;
  options.batch_lines = 1;
  std::vector<std::string> seen;
  EXPECT_THROW(process_jsonl<std::string>(in, "in", upper(processed), options,
                                          [&](JsonlItem<std::string>& item) { seen.push_back(*item.id); }),
               std::runtime_error);
  EXPECT_EQ(seen, std::vector<std::string>{"a"});
}

TEST(WorkerPool, RethrowsTheFirstFailureAndStaysUsable) {
  WorkerPool pool(3);
  std::atomic<int> calls{0};
  EXPECT_THROW(pool.run(50, [&](std::size_t index) {
                 ++calls;
                 if (index == 7) throw std::logic_error("seven");
               }),
               std::logic_error);
  EXPECT_LE(calls.load(), 50);
  std::atomic<int> sum{0};
  pool.run(10, [&](std::size_t index) { sum += static_cast<int>(index); });
  EXPECT_EQ(sum.load(), 45);
}

}  // namespace
}  // namespace codebias::base
